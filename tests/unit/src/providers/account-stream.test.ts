import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AccountStreamEvent } from "../../../../contracts/account";
import { openAccountStream } from "../../../../src/providers/account-stream";
import type { Session } from "../../../../src/providers/session";
import { openSessionStream } from "../../../../src/providers/session-stream";

// The stream loads the event's schema with its first event (a dynamic import); loaded here first, so
// that an event is handled within the tests' one-task flush as it is in a browser after the first.
await import("../../../../contracts/account");

/** The browser's EventSource as the stream uses it: the test delivers events and errors by hand. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = FakeEventSource.OPEN;
  onerror: (() => void) | null = null;
  onopen: (() => void) | null = null;
  private readonly listeners = new Map<string, Array<(event: { data: string }) => void>>();
  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(name: string, listener: (event: { data: string }) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  emit(name: string, data: unknown) {
    for (const listener of this.listeners.get(name) ?? [])
      listener({ data: typeof data === "string" ? data : JSON.stringify(data) });
  }
}

/** The SDK and the app's reactions, recorded in order. */
function fakeApp(options: { customTokenFails?: boolean } = {}) {
  const calls: string[] = [];
  const actions = {
    signInWithCustomToken: vi.fn(async (token: string) => {
      calls.push(`sign in with ${token}`);
      if (options.customTokenFails) throw Object.assign(new Error("invalid"), { code: "auth/invalid-custom-token" });
    }),
    signOut: vi.fn(async (message: string) => {
      calls.push(`sign out: ${message}`);
    }),
    notify: vi.fn((message: string) => {
      calls.push(`toast: ${message}`);
    }),
  };
  const session = { mirrored: () => Promise.resolve(), remirror: () => Promise.resolve() } as unknown as Session;
  return { calls, actions, session };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

async function opened(app: ReturnType<typeof fakeApp>, uid = "user-1") {
  const close = openAccountStream(app.session, uid, app.actions);
  await flush();
  const source = FakeEventSource.opened.at(-1)!;
  return { close, source };
}

describe("account stream: the app reacts to what happened to the account", () => {
  beforeEach(() => {
    FakeEventSource.opened = [];
    vi.stubGlobal("EventSource", FakeEventSource);
    vi.spyOn(console, "warn").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("opens the user's own stream with the session cookie", async () => {
    const { source } = await opened(fakeApp(), "abc");
    expect(source.url).toBe("/api/v1/users/abc/notifications/listen");
    expect(source.init).toEqual({ withCredentials: true });
  });

  it.each(["role-changed", "dealer-status-changed"] as const)(
    "on %s signs in with the custom token, then shows the message",
    async (reason) => {
      const app = fakeApp();
      const { source } = await opened(app);
      source.emit("account", {
        reason,
        message: "Your dealer role was suspended.",
        role: "customer",
        customToken: "ct-1",
      } satisfies AccountStreamEvent);
      await flush();
      expect(app.calls).toEqual(["sign in with ct-1", "toast: Your dealer role was suspended."]);
    },
  );

  it("signs out with the message when signing in with the custom token fails", async () => {
    const app = fakeApp({ customTokenFails: true });
    const { source } = await opened(app);
    source.emit("account", {
      reason: "role-changed",
      message: "You are an administrator now.",
      role: "admin",
      customToken: "ct-bad",
    });
    await flush();
    expect(app.calls).toEqual(["sign in with ct-bad", "sign out: You are an administrator now."]);
    expect(app.actions.notify).not.toHaveBeenCalled();
  });

  it("signs out with the message when a role change comes without a token (the revoked session cannot refresh)", async () => {
    const app = fakeApp();
    const { source } = await opened(app);
    source.emit("account", { reason: "role-changed", message: "Your role changed.", role: "dealer" });
    await flush();
    expect(app.calls).toEqual(["sign out: Your role changed."]);
  });

  it.each(["disabled", "signed-out", "deleted"] as const)(
    "on %s signs out at once with the message",
    async (reason) => {
      const app = fakeApp();
      const { source } = await opened(app);
      source.emit("account", { reason, message: `Account ${reason} by an administrator.` });
      await flush();
      expect(app.calls).toEqual([`sign out: Account ${reason} by an administrator.`]);
      expect(app.actions.signInWithCustomToken).not.toHaveBeenCalled();
    },
  );

  it("handles events one after another: a sign-out waits for the sign-in of the event before", async () => {
    const app = fakeApp();
    let finish!: () => void;
    app.actions.signInWithCustomToken.mockImplementation(async (token: string) => {
      app.calls.push(`sign in with ${token}`);
      await new Promise<void>((resolve) => (finish = resolve));
      app.calls.push("signed in");
    });
    const { source } = await opened(app);
    source.emit("account", {
      reason: "dealer-status-changed",
      message: "Suspended.",
      role: "customer",
      customToken: "ct-2",
    });
    source.emit("account", { reason: "disabled", message: "Disabled." });
    await flush();
    expect(app.calls).toEqual(["sign in with ct-2"]);
    finish();
    await flush();
    expect(app.calls).toEqual(["sign in with ct-2", "signed in", "toast: Suspended.", "sign out: Disabled."]);
  });

  it("ignores events of another name or of an unknown shape", async () => {
    const app = fakeApp();
    const { source } = await opened(app);
    source.emit("account", { reason: "promoted", message: "?" });
    source.emit("account", "not json");
    source.emit("account", { reason: "disabled", message: "x", extra: true });
    source.emit("notification", { reason: "disabled", message: "x" });
    await flush();
    expect(app.calls).toEqual([]);
  });

  it("lets the stream go when asked (signed out, or another user): closed once nothing else holds it", async () => {
    vi.useFakeTimers();
    try {
      const app = fakeApp();
      const close = openAccountStream(app.session, "user-1", app.actions);
      await vi.advanceTimersByTimeAsync(0);
      const source = FakeEventSource.opened.at(-1)!;
      close();
      expect(source.readyState, "kept a moment for the next page's holder").toBe(FakeEventSource.OPEN);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(source.readyState).toBe(FakeEventSource.CLOSED);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("session stream: a stream the server refuses is retried with a fresh cookie, less and less often", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.opened = [];
    vi.stubGlobal("EventSource", FakeEventSource);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("waits 3 s, 6 s, 12 s … up to 60 s between refusals, and 3 s again after a connection opened", async () => {
    const remirror = vi.fn(() => Promise.resolve());
    const session = { mirrored: () => Promise.resolve(), remirror } as unknown as Session;
    const close = openSessionStream(session, "user-vehicles/v1/listen", {});
    await vi.advanceTimersByTimeAsync(0);
    const opensAt: number[] = [];
    const start = Date.now();
    for (let refusal = 0; refusal < 7; refusal++) {
      const source = FakeEventSource.opened.at(-1)!;
      source.readyState = FakeEventSource.CLOSED;
      source.onerror?.();
      const before = FakeEventSource.opened.length;
      while (FakeEventSource.opened.length === before) await vi.advanceTimersByTimeAsync(1_000);
      opensAt.push((Date.now() - start) / 1000);
    }
    expect(opensAt.map((at, index) => at - (index === 0 ? 0 : opensAt[index - 1]))).toEqual([3, 6, 12, 24, 48, 60, 60]);
    expect(remirror).toHaveBeenCalledTimes(7);

    const source = FakeEventSource.opened.at(-1)!;
    source.onopen?.();
    source.readyState = FakeEventSource.CLOSED;
    source.onerror?.();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(FakeEventSource.opened.length).toBe(9);
    close();
  });
});
