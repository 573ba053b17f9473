/**
 * Routes whose pages stay alive when switching pages, by the rules of
 * src/lib/keep-alive.ts: up to 10 pages by pathname (a list and its drawer routes are one page),
 * /profile never, and none of someone who has signed out.
 *
 *   <KeepAliveRoutes keep={(key) => …} keyOf={(pathname) => …} owner={uid} onRendered={() => …}>{<Route …/>}</KeepAliveRoutes>
 *
 * Each kept page is the whole route tree rendered for its own location (`<Routes location>`),
 * layout included. Rendering with its own location matters: Refine infers the resource, the id
 * and a synced list's filters from the location, so a hidden list must not see the URL of the
 * page on screen. Whole trees rather than only the outlet, so a page keeps its state when the
 * layout changes around it too (a portal list, then the full-screen data-log chart, then back).
 *
 * Pages off screen are inside React's <Activity mode="hidden">: their DOM stays, hidden with
 * `display: none` (portals included, so a modal or drawer opened in a page never shows over
 * another), and they cannot take focus or clicks; their state stays while their effects are
 * disconnected, so a hidden page neither polls nor forces a colour mode nor redirects, and picks
 * up again when shown.
 *
 * The window's scroll position is saved per page and put back when the page returns.
 * Route elements place <PageRendered/> after their page, inside the page's Suspense boundary:
 * it calls `onRendered` once the page on screen has loaded and rendered.
 */
import {
  Activity,
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { type Location, Routes, useLocation, useNavigate } from "react-router";
import { changeOwner, type KeepAliveOptions, type Visit, visit } from "../lib/keep-alive";

const Rendered = createContext<() => void>(() => undefined);

/** Effects run only in the page on screen, so this reports that page and no hidden one. */
export function PageRendered() {
  const onRendered = useContext(Rendered);
  const { key } = useLocation();
  useEffect(() => onRendered(), [key, onRendered]);
  return null;
}

export interface KeepAliveRoutesProps extends KeepAliveOptions {
  children: ReactNode;
  /**
   * Who the pages are for: a uid, null when signed out, undefined until the session is known
   * (the first known owner adopts the pages, so a page load does not start them twice).
   */
  owner: string | null | undefined;
  onRendered: () => void;
}

export function KeepAliveRoutes({ children, keep, keyOf, owner, onRendered }: KeepAliveRoutesProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const [seen, setSeen] = useState({ location, owner });
  const [state, setState] = useState<Visit<Location>>(() => visit([], location, { keep, keyOf }));
  // Derived during render, so the new page is never one frame late.
  if (seen.location !== location || seen.owner !== owner) {
    setSeen({ location, owner });
    const entries =
      seen.owner !== owner && seen.owner !== undefined
        ? changeOwner(state.entries, seen.owner !== null)
        : state.entries;
    setState(seen.location !== location ? visit(entries, location, { keep, keyOf }) : { entries, restore: null });
  }
  const active = state.entries.at(-1)!;
  const activeId = `${active.key}#${active.generation}`;

  useEffect(() => {
    if (state.restore) navigate(state.restore, { replace: true });
  }, [state.restore, navigate]);

  const scroll = useRef(new Map<string, number>());
  useEffect(() => {
    const remember = () => scroll.current.set(activeId, window.scrollY);
    window.addEventListener("scroll", remember, { passive: true });
    return () => window.removeEventListener("scroll", remember);
  }, [activeId]);
  useLayoutEffect(() => {
    const ids = new Set(state.entries.map((entry) => `${entry.key}#${entry.generation}`));
    for (const id of scroll.current.keys()) if (!ids.has(id)) scroll.current.delete(id);
    window.scrollTo(0, scroll.current.get(activeId) ?? 0);
  }, [activeId, state.entries]);

  return (
    <Rendered.Provider value={onRendered}>
      {state.entries.map((entry) => (
        <Activity key={`${entry.key}#${entry.generation}`} mode={entry === active ? "visible" : "hidden"}>
          <Routes location={entry.location}>{children}</Routes>
        </Activity>
      ))}
    </Rendered.Provider>
  );
}
