import { type Auth, type User, onIdTokenChanged, signOut } from "firebase/auth";
import { type Role, roleFromClaims } from "../../contracts/account";
import { FORCED_SIGN_OUT_CODES, identityErrorCode } from "../lib/identity-errors";

export interface SessionState {
  /** false until the identity service has said whether someone is signed in. */
  ready: boolean;
  user: User | null;
  role: Role | null;
  claims: Record<string, unknown>;
}

type Listener = (state: SessionState) => void;

export interface SessionOptions {
  /**
   * Told when the identity service ended the session, with the code so the user can
   * be told why; null when the SDK ended it while restoring the session at page load, where it keeps
   * the code to itself.
   */
  onForcedSignOut?: (code: string | null) => void;
  /** Whether the SDK had a signed-in user saved when the page loaded (read before it restores it). */
  hadSavedUser?: boolean;
}

/** The SDK keeps the signed-in user in local storage under this prefix (browserLocalPersistence). */
export function hasSavedIdentityUser(storage: Pick<Storage, "length" | "key"> = window.localStorage): boolean {
  for (let i = 0; i < storage.length; i++) if (storage.key(i)?.startsWith("firebase:authUser:")) return true;
  return false;
}

/**
 * Follows the identity token: whoever asks (guards, access checks, the http client) reads the
 * current user and role here without a network call.
 */
export function createSession(auth: Auth, mirror: (token: string | null) => Promise<void>, options: SessionOptions = {}) {
  let state: SessionState = { ready: false, user: null, role: null, claims: {} };
  const listeners = new Set<Listener>();
  let settle = () => {};
  // Resolved once the first token event has been turned into state (role included).
  const ready = new Promise<void>((resolve) => (settle = resolve));

  /**
   * A disabled account or a dead refresh token (revoked everywhere, password changed elsewhere) cannot
   * be recovered by retrying: sign out here and say why, instead of failing call after call.
   */
  async function endIfForced(error: unknown): Promise<boolean> {
    const code = identityErrorCode(error);
    if (!code || !FORCED_SIGN_OUT_CODES.has(code)) return false;
    if (auth.currentUser) await signOut(auth);
    options.onForcedSignOut?.(code);
    return true;
  }

  /**
   * Settles once the server has answered the latest mirror of the sign-in state into its session
   * cookie (POST /api/__session), well or not. Replaced before listeners hear of a new state, so
   * whoever reacts to a sign-in (the notification stream, which only the cookie authenticates)
   * waits for the cookie that goes with it.
   */
  let mirrored: Promise<void> = new Promise(() => {});

  /**
   * Mirrors `user`'s sign-in state; a failure there must not break sign-in. A fresh token refused
   * because the account was disabled or its sessions revoked ends the session with the reason,
   * as any other call refused that way does.
   */
  async function mirrorState(user: User | null, forceRefresh = false): Promise<void> {
    let token: string | null = null;
    try {
      token = user ? await user.getIdToken(forceRefresh) : null;
    } catch (error) {
      if (await endIfForced(error)) return;
      console.warn("Session mirror failed:", error);
      return;
    }
    try {
      await mirror(token);
    } catch (error) {
      console.warn("Session mirror failed:", error);
    }
  }

  let first = true;
  onIdTokenChanged(auth, async (user) => {
    // A saved session that does not come back was refused by the service (disabled, revoked, deleted).
    if (first && !user && options.hadSavedUser) options.onForcedSignOut?.(null);
    first = false;
    let mirrorDone = () => {};
    const mirroring = new Promise<void>((resolve) => (mirrorDone = resolve));
    mirrored = mirroring;
    try {
      if (user) {
        let result;
        try {
          result = await user.getIdTokenResult();
        } catch (error) {
          if (await endIfForced(error)) return;
          throw error;
        }
        state = { ready: true, user, role: roleFromClaims(result.claims), claims: result.claims };
      } else {
        state = { ready: true, user: null, role: null, claims: {} };
      }
      settle();
      for (const listener of listeners) listener(state);
      await mirrorState(user);
    } finally {
      mirrorDone();
    }
  });

  return {
    ready: () => ready.then(() => state),
    /** Settles once the server has answered the mirror of the current sign-in state. */
    mirrored: (): Promise<void> => mirrored,
    /**
     * Mirrors the sign-in state again with a fresh ID token, for a caller that the session cookie
     * did not authenticate (it expired, or was revoked and the token since refreshed).
     */
    async remirror(): Promise<void> {
      await ready;
      const next = mirrored.then(() => mirrorState(auth.currentUser, true));
      mirrored = next;
      await next;
    },
    current: () => state,
    role: () => state.role,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async token(forceRefresh: boolean): Promise<string | null> {
      await ready;
      if (!auth.currentUser) return null;
      try {
        return await auth.currentUser.getIdToken(forceRefresh);
      } catch (error) {
        // Signed out now: the call goes out without a token and its 401 takes the app to sign-in.
        if (await endIfForced(error)) return null;
        throw error;
      }
    },
  };
}

export type Session = ReturnType<typeof createSession>;
