import type {
  Auth,
  IdTokenResult,
  onIdTokenChanged,
  signInWithCustomToken,
  signInWithEmailAndPassword,
  signOut,
  User,
} from "firebase/auth";
import { type Role, roleFromClaims } from "../../contracts/roles";
import { FORCED_SIGN_OUT_CODES, identityErrorCode } from "../lib/identity-errors";
import { type Clock, createTokenRefresher } from "../lib/token-refresh";

export interface SessionState {
  /** false until the identity service has said whether someone is signed in. */
  ready: boolean;
  user: User | null;
  role: Role | null;
  claims: Record<string, unknown>;
}

type Listener = (state: SessionState) => void;

/** The identity SDK's few functions the session and the auth provider call, handed over once it has loaded. */
export interface IdentitySdk {
  auth: Auth;
  onIdTokenChanged: typeof onIdTokenChanged;
  signOut: typeof signOut;
  signInWithEmailAndPassword: typeof signInWithEmailAndPassword;
  signInWithCustomToken: typeof signInWithCustomToken;
}

export interface SessionOptions {
  /**
   * Told when the identity service ended the session, with the code so the user can
   * be told why; null when the SDK ended it while restoring the session at page load, where it keeps
   * the code to itself.
   */
  onForcedSignOut?: (code: string | null) => void;
  /** Whether the SDK had a signed-in user saved when the page loaded (read before it restores it). */
  hadSavedUser?: boolean;
  /** The clock and timers of the token refresh (tests hand in fake ones). */
  clock?: Clock;
}

/** The SDK keeps the signed-in user in local storage under this prefix (browserLocalPersistence). */
export function hasSavedIdentityUser(storage: Pick<Storage, "length" | "key"> = window.localStorage): boolean {
  for (let i = 0; i < storage.length; i++) if (storage.key(i)?.startsWith("firebase:authUser:")) return true;
  return false;
}

/**
 * Follows the identity token: whoever asks (guards, access checks, the http client) reads the
 * current user and role here without a network call.
 *
 * The SDK is loaded by `loadIdentity` only when needed: at once when a session was saved, otherwise
 * when someone signs in or an identity page starts it (`identity()`, or `attach()` from the SDK's
 * side). Until then a visitor is known to be signed out without it.
 */
export function createSession(
  loadIdentity: () => Promise<IdentitySdk>,
  mirror: (token: string | null) => Promise<void>,
  options: SessionOptions = {},
) {
  let state: SessionState = { ready: false, user: null, role: null, claims: {} };
  let sdk: IdentitySdk | null = null;
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
    if (sdk?.auth.currentUser) await sdk.signOut(sdk.auth);
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
   * Keeps the ID token fresh by the portal's session rules (src/lib/token-refresh.ts). A refreshed
   * token comes back through onIdTokenChanged, which mirrors it to the server like any new token.
   */
  const refresher = createTokenRefresher({
    clock: options.clock,
    async refresh() {
      const user = sdk?.auth.currentUser;
      if (!user) return null;
      return expiryOf(await user.getIdTokenResult(true));
    },
    // A disabled account or a dead refresh token signs out; anything else (the network) is retried.
    onFailure: async (error) => ((await endIfForced(error)) ? "stop" : "retry"),
  });

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
  const onToken = async (user: User | null) => {
    // A saved session that does not come back was refused by the service (disabled, revoked, deleted).
    if (first && !user && options.hadSavedUser) options.onForcedSignOut?.(null);
    first = false;
    // Known to be signed out already (the SDK loaded for a visitor who was not signed in): nothing changed.
    if (!user && state.ready && !state.user) return;
    let mirrorDone = () => {};
    const mirroring = new Promise<void>((resolve) => (mirrorDone = resolve));
    mirrored = mirroring;
    try {
      if (user) {
        let result: IdTokenResult;
        try {
          result = await user.getIdTokenResult();
        } catch (error) {
          if (await endIfForced(error)) return;
          throw error;
        }
        state = { ready: true, user, role: roleFromClaims(result.claims), claims: result.claims };
        refresher.follow(expiryOf(result));
      } else {
        refresher.stop();
        state = { ready: true, user: null, role: null, claims: {} };
      }
      settle();
      for (const listener of listeners) listener(state);
      await mirrorState(user);
    } finally {
      mirrorDone();
    }
  };

  /** Follows the SDK's token from now on; called once the SDK has started, whoever started it. */
  function attach(loaded: IdentitySdk): void {
    if (sdk) return;
    sdk = loaded;
    loaded.onIdTokenChanged(loaded.auth, onToken);
  }

  let loading: Promise<IdentitySdk> | null = null;
  /** The SDK, loaded and followed: for signing in and out. */
  function identity(): Promise<IdentitySdk> {
    if (sdk) return Promise.resolve(sdk);
    loading ??= loadIdentity().then((loaded) => {
      attach(loaded);
      return loaded;
    });
    return loading;
  }

  if (options.hadSavedUser) {
    void identity();
  } else {
    // Nobody was signed in: the first page needs no SDK. The server's cookie is cleared as before.
    state = { ready: true, user: null, role: null, claims: {} };
    settle();
    mirrored = mirrorState(null);
  }

  return {
    identity,
    attach,
    ready: () => ready.then(() => state),
    /** Settles once the server has answered the mirror of the current sign-in state. */
    mirrored: (): Promise<void> => mirrored,
    /**
     * Mirrors the sign-in state again with a fresh ID token, for a caller that the session cookie
     * did not authenticate (it expired, or was revoked and the token since refreshed).
     */
    async remirror(): Promise<void> {
      await ready;
      const next = mirrored.then(() => mirrorState(sdk?.auth.currentUser ?? null, true));
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
      const user = sdk?.auth.currentUser;
      if (!user) return null;
      try {
        // A token within 30 s of its expiry is never sent: the SDK is asked for a new one first.
        return await user.getIdToken(forceRefresh || refresher.isExpired());
      } catch (error) {
        // Signed out now: the call goes out without a token and its 401 takes the app to sign-in.
        if (await endIfForced(error)) return null;
        throw error;
      }
    },
  };
}

/** The token's expiry in ms since the epoch (NaN when the SDK gave none, which the refresher ignores). */
function expiryOf(result: { expirationTime?: string }): number {
  return result.expirationTime ? Date.parse(result.expirationTime) : Number.NaN;
}

export type Session = ReturnType<typeof createSession>;
