import { createContext, useContext, useSyncExternalStore } from "react";
import type { Session, SessionState } from "./session";

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession needs <SessionContext.Provider>");
  return session;
}

/** The signed-in user and role, re-rendering when the ID token changes. */
export function useSessionState(): SessionState {
  const session = useSession();
  return useSyncExternalStore(session.subscribe, session.current, session.current);
}
