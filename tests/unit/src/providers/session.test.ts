import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type Listener = (user: unknown) => Promise<void> | void;
const firebase = { listener: null as Listener | null, signOut: vi.fn(), loads: 0 };

const { createSession, hasSavedIdentityUser } = await import("../../../../src/providers/session");

/** The identity SDK as the session loads it, over a fake auth. */
const sdkFor = (auth: unknown) => async () => {
  firebase.loads++;
  return {
    auth,
    onIdTokenChanged: (_auth: unknown, listener: Listener) => {
      firebase.listener = listener;
      return () => {};
    },
    signOut: firebase.signOut,
    signInWithEmailAndPassword: vi.fn(),
  } as never;
};

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
    const session = createSession(sdkFor(auth), async () => {}, { onForcedSignOut, hadSavedUser: true });
    await session.identity();
    const user = fakeUser(getIdToken);
    auth.currentUser = user;
    await firebase.listener?.(user);
    return { session, onForcedSignOut };
  }

  it.each(["user-disabled", "user-token-expired"])(
    "signs out and says why when a token refresh fails with %s",
    async (code) => {
      const { session, onForcedSignOut } = await signedIn(async (force) => {
        if (force) throw authError(code);
        return "token";
      });
      expect(await session.token(true)).toBeNull();
      expect(firebase.signOut).toHaveBeenCalledTimes(1);
      expect(onForcedSignOut).toHaveBeenCalledWith(code);
      expect(session.current().user).toBeNull();
    },
  );

  it("signs out and says why when the notification stream's fresh cookie is refused for a disabled account", async () => {
    const { session, onForcedSignOut } = await signedIn(async (force) => {
      if (force) throw authError("user-disabled");
      return "token";
    });
    await session.remirror();
    expect(firebase.signOut).toHaveBeenCalledTimes(1);
    expect(onForcedSignOut).toHaveBeenCalledWith("user-disabled");
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
    await createSession(sdkFor({ currentUser: null }), async () => {}, {
      hadSavedUser: true,
      onForcedSignOut,
    }).identity();
    await firebase.listener?.(null);
    expect(onForcedSignOut).toHaveBeenCalledWith(null);
  });

  it("says nothing to a visitor who was not signed in, or when the saved user is restored", async () => {
    const onForcedSignOut = vi.fn();
    await createSession(sdkFor({ currentUser: null }), async () => {}, {
      hadSavedUser: false,
      onForcedSignOut,
    }).identity();
    await firebase.listener?.(null);
    await createSession(sdkFor({ currentUser: null }), async () => {}, {
      hadSavedUser: true,
      onForcedSignOut,
    }).identity();
    await firebase.listener?.(fakeUser(async () => "token"));
    await firebase.listener?.(null);
    expect(onForcedSignOut).not.toHaveBeenCalled();
  });
});

describe("session: the server's session cookie", () => {
  const deferred = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  };

  it("tells of a sign-in before the cookie is set, and says when the server has answered the mirror", async () => {
    const answers: Array<{ token: string | null; answer: ReturnType<typeof deferred> }> = [];
    const session = createSession(
      sdkFor({ currentUser: null }),
      (token) => {
        const answer = deferred();
        answers.push({ token, answer });
        return answer.promise;
      },
      { hadSavedUser: true },
    );
    await session.identity();
    let mirroredAtSignIn: Promise<void> | null = null;
    session.subscribe(() => (mirroredAtSignIn = session.mirrored()));
    const signingIn = firebase.listener?.(fakeUser(async (force) => (force ? "fresh" : "token")));
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    let settled = false;
    void mirroredAtSignIn!.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled, "a listener told of the sign-in must be able to wait for the cookie").toBe(false);
    answers[0].answer.resolve();
    await signingIn;
    await mirroredAtSignIn;
    expect(answers[0].token).toBe("token");
  });

  it("mirrors again with a fresh token when asked, after the mirror in flight", async () => {
    const tokens: Array<string | null> = [];
    const auth = { currentUser: null as unknown };
    const session = createSession(
      sdkFor(auth),
      async (token) => {
        tokens.push(token);
      },
      { hadSavedUser: true },
    );
    await session.identity();
    const user = fakeUser(async (force) => (force ? "fresh" : "token"));
    auth.currentUser = user;
    await firebase.listener?.(user);
    await session.remirror();
    expect(tokens).toEqual(["token", "fresh"]);
  });
});

describe("session: the identity SDK loads only when needed", () => {
  it("knows a visitor with no saved session is signed out without loading the SDK, and clears the server's cookie", async () => {
    const before = firebase.loads;
    const tokens: Array<string | null> = [];
    const session = createSession(sdkFor({ currentUser: null }), async (token) => {
      tokens.push(token);
    });
    expect(session.current()).toMatchObject({ ready: true, user: null });
    expect(await session.token(false)).toBeNull();
    await session.mirrored();
    expect(tokens).toEqual([null]);
    expect(firebase.loads, "the SDK is not loaded").toBe(before);
  });

  it("loads the SDK at once when a session was saved, and once only", async () => {
    const before = firebase.loads;
    const session = createSession(sdkFor({ currentUser: null }), async () => {}, { hadSavedUser: true });
    expect(session.current().ready).toBe(false);
    await Promise.all([session.identity(), session.identity()]);
    expect(firebase.loads).toBe(before + 1);
    await firebase.listener?.(fakeUser(async () => "token"));
    expect(session.current().user).not.toBeNull();
  });

  it("follows a sign-in once the SDK is loaded for it", async () => {
    const auth = { currentUser: null as unknown };
    const tokens: Array<string | null> = [];
    const session = createSession(sdkFor(auth), async (token) => {
      tokens.push(token);
    });
    await session.identity();
    // The SDK's first event for a visitor known to be signed out changes nothing.
    await firebase.listener?.(null);
    expect(tokens).toEqual([null]);
    const user = fakeUser(async () => "token");
    auth.currentUser = user;
    await firebase.listener?.(user);
    expect(session.current().user).toBe(user);
    expect(await session.token(false)).toBe("token");
    expect(tokens).toEqual([null, "token"]);
  });
});

describe("session: the ID token is kept fresh (spec §4/§9) and every new one is mirrored", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    firebase.signOut.mockReset();
  });
  afterEach(() => vi.useRealTimers());

  /** A signed-in user whose tokens live an hour; a forced refresh tells the session's listener, as the SDK does. */
  async function signedInFor(failWith: () => string | null) {
    const auth = { currentUser: null as unknown };
    const mirrored: Array<string | null> = [];
    const onForcedSignOut = vi.fn();
    let serial = 0;
    let expiry = Date.now() + 60 * 60_000;
    const user = {
      uid: "u1",
      getIdToken: async (force?: boolean) => {
        if (force) await user.getIdTokenResult(true);
        return `token-${serial}`;
      },
      getIdTokenResult: async (force?: boolean): Promise<{ claims: object; expirationTime: string }> => {
        if (force) {
          const code = failWith();
          if (code) throw authError(code);
          serial++;
          expiry = Date.now() + 60 * 60_000;
          queueMicrotask(() => void firebase.listener?.(user));
        }
        return { claims: {}, expirationTime: new Date(expiry).toUTCString() };
      },
    };
    firebase.signOut.mockImplementation(async () => {
      auth.currentUser = null;
      await firebase.listener?.(null);
    });
    const session = createSession(
      sdkFor(auth),
      async (token) => {
        mirrored.push(token);
      },
      { hadSavedUser: true, onForcedSignOut },
    );
    await session.identity();
    auth.currentUser = user;
    await firebase.listener?.(user);
    return { session, mirrored, onForcedSignOut, auth };
  }

  it("refreshes 5 minutes before expiry and mirrors the new token to the session endpoint", async () => {
    const { mirrored } = await signedInFor(() => null);
    expect(mirrored).toEqual(["token-0"]);
    await vi.advanceTimersByTimeAsync(55 * 60_000 - 1_000);
    expect(mirrored).toEqual(["token-0"]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(mirrored).toEqual(["token-0", "token-1"]);
    await vi.advanceTimersByTimeAsync(55 * 60_000);
    expect(mirrored).toEqual(["token-0", "token-1", "token-2"]);
  });

  it("retries after a network failure with the backoff, and keeps the user signed in meanwhile", async () => {
    let down = true;
    const { session, mirrored } = await signedInFor(() => (down ? "network-request-failed" : null));
    await vi.advanceTimersByTimeAsync(55 * 60_000 + 30_000 + 60_000);
    expect(mirrored).toEqual(["token-0"]);
    expect(session.current().user).not.toBeNull();
    down = false;
    // The third retry is due 120 s after the second.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(mirrored).toEqual(["token-0", "token-1"]);
  });

  it("never sends a token within 30 s of its expiry: the caller gets a fresh one", async () => {
    let down = true;
    const { session } = await signedInFor(() => (down ? "network-request-failed" : null));
    // The proactive refresh kept failing (network) until 20 s before the token's expiry.
    vi.setSystemTime(Date.now() + 60 * 60_000 - 31_000);
    expect(await session.token(false)).toBe("token-0");
    vi.setSystemTime(Date.now() + 11_000);
    down = false;
    expect(await session.token(false)).toBe("token-1");
  });

  it.each(["user-disabled", "user-token-expired"])(
    "signs out and says why when the scheduled refresh fails with %s, and stops refreshing",
    async (code) => {
      let calls = 0;
      const { session, onForcedSignOut } = await signedInFor(() => {
        calls++;
        return code;
      });
      await vi.advanceTimersByTimeAsync(55 * 60_000);
      expect(firebase.signOut).toHaveBeenCalledTimes(1);
      expect(onForcedSignOut).toHaveBeenCalledWith(code);
      expect(session.current().user).toBeNull();
      await vi.advanceTimersByTimeAsync(5 * 60 * 60_000);
      expect(calls, "no refresh after the sign-out").toBe(1);
    },
  );

  it("stops refreshing when the user signs out", async () => {
    let calls = 0;
    const { auth } = await signedInFor(() => {
      calls++;
      return null;
    });
    auth.currentUser = null;
    await firebase.listener?.(null);
    await vi.advanceTimersByTimeAsync(5 * 60 * 60_000);
    expect(calls).toBe(0);
  });
});
