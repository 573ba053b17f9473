/**
 * Routes whose pages stay alive when switching pages (spec §2), by the rules of
 * src/lib/keep-alive.ts: up to 10 pages by pathname (a list and its drawer routes are one page),
 * /profile never.
 *
 *   <KeepAliveRoutes keep={(key) => …} keyOf={(pathname) => …} onRendered={() => …}>{<Route …/>}</KeepAliveRoutes>
 *
 * Each kept page is the whole route tree rendered for its own location (`<Routes location>`),
 * layout included, inside a wrapper that is `display: none` and `inert` while another page is on
 * screen. Rendering with its own location matters: Refine infers the resource, the id and a
 * synced list's filters from the location, so a hidden list must not see the URL of the page on
 * screen. Whole trees rather than only the outlet, so a page keeps its state when the layout
 * changes around it too (a portal list, then the full-screen data-log chart, then back).
 *
 * The window's scroll position is saved per page and put back when the page returns.
 * Route elements place <PageRendered/> after their page, inside the page's Suspense boundary:
 * it calls `onRendered` once the page on screen has loaded and rendered. `usePageShown()` tells
 * a component whether its page is the one on screen (a hidden page must not force a colour mode).
 */
import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { type Location, Routes, useLocation, useNavigate } from "react-router";
import { type KeepAliveOptions, type Visit, visit } from "../lib/keep-alive";

/** `onRendered` of the page on screen; null inside hidden pages. */
const ShownPage = createContext<(() => void) | null>(null);

export function usePageShown(): boolean {
  return useContext(ShownPage) !== null;
}

export function PageRendered() {
  const onRendered = useContext(ShownPage);
  const { key } = useLocation();
  useEffect(() => onRendered?.(), [key, onRendered]);
  return null;
}

export interface KeepAliveRoutesProps extends KeepAliveOptions {
  children: ReactNode;
  onRendered: () => void;
}

export function KeepAliveRoutes({ children, keep, keyOf, onRendered }: KeepAliveRoutesProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const [seen, setSeen] = useState(location);
  const [state, setState] = useState<Visit<Location>>(() => visit([], location, { keep, keyOf }));
  // Derived from the location during render, so the new page is never one frame late.
  if (seen !== location) {
    setSeen(location);
    setState(visit(state.entries, location, { keep, keyOf }));
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

  return state.entries.map((entry) => {
    const shown = entry === active;
    return (
      <div key={`${entry.key}#${entry.generation}`} style={{ display: shown ? "contents" : "none" }} inert={!shown}>
        <ShownPage.Provider value={shown ? onRendered : null}>
          <Routes location={entry.location}>{children}</Routes>
        </ShownPage.Provider>
      </div>
    );
  });
}
