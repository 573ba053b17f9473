import { beforeEach, describe, expect, it, vi } from "vitest";

type Listener = (user: unknown) => Promise<void> | void;
const firebase = vi.hoisted(() => ({ listener: null as Listener | null, signOut: vi.fn() }));
vi.mock("firebase/auth", () => ({
  onIdTokenChanged: (_auth: unknown, listener: Listener) => {
    firebase.listener = listener;
    return () => {};
  },
  signOut: firebase.signOut,
}));

const { createSession, hasSavedIdentityUser } = await import("../../../src/providers/session");

const authError = (code: string) => Object.assign(new Error(code), { code: `auth/${code}` });

function fakeUser(getIdToken: (force?: boolean) => Promise<string>) {
  return { uid: "u1", getIdToken, getIdTokenResult: async () => ({ claims: {} }) };
}

describe("session: forced sign-out", () => {
  let auth: { currentUser: unknown };
  beforeEach(() => {
    firebase.signOut.mockReset();
    auth = { currentUser: null };
    firebase.signOut.mockImplementation(async () => {
      auth.currentUser = null;
      await firebase.listener?.(null);
    });
  });

  async function signedIn(getIdToken: (force?: boolean) => Promise<string>, onForcedSignOut = vi.fn()) {
    const session = createSession(auth as never, async () => {}, { onForcedSignOut });
    const user = fakeUser(getIdToken);
    auth.currentUser = user;
    await firebase.listener?.(user);
    return { session, onForcedSignOut };
  }

  it.each(["user-disabled", "user-token-expired"])("signs out and says why when a token refresh fails with %s", async (code) => {
    const { session, onForcedSignOut } = await signedIn(async (force) => {
      if (force) throw authError(code);
      return "token";
    });
    expect(await session.token(true)).toBeNull();
    expect(firebase.signOut).toHaveBeenCalledTimes(1);
    expect(onForcedSignOut).toHaveBeenCalledWith(code);
    expect(session.current().user).toBeNull();
  });

  it("keeps the session after a network failure, which the caller may retry", async () => {
    const { session, onForcedSignOut } = await signedIn(async (force) => {
      if (force) throw authError("network-request-failed");
      return "token";
    });
    await expect(session.token(true)).rejects.toMatchObject({ code: "auth/network-request-failed" });
    expect(firebase.signOut).not.toHaveBeenCalled();
    expect(onForcedSignOut).not.toHaveBeenCalled();
    expect(session.current().user).not.toBeNull();
  });

  it("hands out the token while the session is fine", async () => {
    const { session } = await signedIn(async (force) => (force ? "fresh" : "cached"));
    expect(await session.token(false)).toBe("cached");
    expect(await session.token(true)).toBe("fresh");
  });
});

describe("session: a saved session the service refuses at page load", () => {
  const storage = (keys: string[]) => ({ length: keys.length, key: (index: number) => keys[index] ?? null });

  it("knows whether the SDK had a user saved", () => {
    expect(hasSavedIdentityUser(storage(["nuxt-color-mode", "firebase:authUser:demo-api-key:[DEFAULT]"]))).toBe(true);
    expect(hasSavedIdentityUser(storage(["nuxt-color-mode"]))).toBe(false);
  });

  it("reports a forced sign-out without a code when the saved user does not come back", async () => {
    const onForcedSignOut = vi.fn();
    createSession({ currentUser: null } as never, async () => {}, { hadSavedUser: true, onForcedSignOut });
    await firebase.listener?.(null);
    expect(onForcedSignOut).toHaveBeenCalledWith(null);
  });

  it("says nothing to a visitor who was not signed in, or when the saved user is restored", async () => {
    const onForcedSignOut = vi.fn();
    createSession({ currentUser: null } as never, async () => {}, { hadSavedUser: false, onForcedSignOut });
    await firebase.listener?.(null);
    createSession({ currentUser: null } as never, async () => {}, { hadSavedUser: true, onForcedSignOut });
    await firebase.listener?.(fakeUser(async () => "token"));
    await firebase.listener?.(null);
    expect(onForcedSignOut).not.toHaveBeenCalled();
  });
});
