import {
  createContext,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
} from "react";
import { flushSync } from "react-dom";
import type { Session, SessionState } from "./session";

export const SessionContext = createContext<Session | null>(null);

/** The session's state as the app shows it, from `SessionStateProvider`. */
const SessionStateContext = createContext<SessionState | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession needs <SessionContext.Provider>");
  return session;
}

const noSubscription = () => () => undefined;

/**
 * The signed-in user and role, re-rendering when the ID token changes: from `SessionStateProvider`
 * where the app has one, else read from the session itself (a component rendered on its own).
 */
export function useSessionState(): SessionState {
  const session = useSession();
  const shown = useContext(SessionStateContext);
  const read = useSyncExternalStore(shown ? noSubscription : session.subscribe, session.current, session.current);
  return shown ?? read;
}

/**
 * Hands the session's state to the app, rendering its first answer as a transition.
 *
 * On a portal page's first load the identity SDK's first answer (the saved user, or nobody) mounts
 * the portal's whole frame and page. Read through `useSyncExternalStore` it rendered at once, in a
 * single task that no input could interrupt, long on a phone's CPU; as a
 * transition React renders it in slices and lets the browser answer in between. Every later change
 * (signing in or out, a new role) still renders at once, before the code that caused it goes on:
 * signing out navigates to the sign-in page next, and a guard must see the user gone first, or it
 * would send the page there itself, with the page it was on as where to come back.
 */
export function SessionStateProvider({ session, children }: { session: Session; children: ReactNode }) {
  const [state, setState] = useState(session.current);
  useEffect(() => {
    let shown = session.current();
    // Changed between the first render and this effect: shown without forcing (React is committing).
    if (shown !== state) startTransition(() => setState(shown));
    const unsubscribe = session.subscribe(() => {
      const next = session.current();
      if (next === shown) return;
      const firstAnswer = !shown.ready && next.ready;
      shown = next;
      if (firstAnswer) startTransition(() => setState(next));
      else flushSync(() => setState(next));
    });
    return () => {
      unsubscribe();
    };
    // `state` is read once, as the value the first render showed.
  }, [session]);
  return <SessionStateContext.Provider value={state}>{children}</SessionStateContext.Provider>;
}
