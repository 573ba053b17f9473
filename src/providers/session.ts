import { type Auth, type User, onIdTokenChanged } from "firebase/auth";
import { type Role, roleFromClaims } from "../../contracts/account";

export interface SessionState {
  /** false until the identity service has said whether someone is signed in. */
  ready: boolean;
  user: User | null;
  role: Role | null;
  claims: Record<string, unknown>;
}

type Listener = (state: SessionState) => void;

/**
 * Follows the identity token: whoever asks (guards, access checks, the http client) reads the
 * current user and role here without a network call.
 */
export function createSession(auth: Auth, mirror: (token: string | null) => Promise<void>) {
  let state: SessionState = { ready: false, user: null, role: null, claims: {} };
  const listeners = new Set<Listener>();
  let settle = () => {};
  // Resolved once the first token event has been turned into state (role included).
  const ready = new Promise<void>((resolve) => (settle = resolve));

  onIdTokenChanged(auth, async (user) => {
    if (user) {
      const result = await user.getIdTokenResult();
      state = { ready: true, user, role: roleFromClaims(result.claims), claims: result.claims };
    } else {
      state = { ready: true, user: null, role: null, claims: {} };
    }
    settle();
    for (const listener of listeners) listener(state);
    // Mirror the sign-in state to the server's session cookie; a failure there must not break sign-in.
    mirror(user ? await user.getIdToken() : null).catch((error) => console.warn("Session mirror failed:", error));
  });

  return {
    ready: () => ready.then(() => state),
    current: () => state,
    role: () => state.role,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async token(forceRefresh: boolean): Promise<string | null> {
      await ready;
      return auth.currentUser ? auth.currentUser.getIdToken(forceRefresh) : null;
    },
  };
}

export type Session = ReturnType<typeof createSession>;
