import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type EventSourceLike, InboxFeed } from "../../../../src/lib/inbox-feed";

class FakeSource implements EventSourceLike {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private readonly handlers = new Map<string, (event: MessageEvent) => void>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.handlers.set(type, listener);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  emit(type: string, data: unknown) {
    this.handlers.get(type)?.(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
  /** What EventSource does when the answer is not a stream (401, 5xx): it gives up. */
  refuse() {
    this.readyState = 2;
    this.onerror?.(new Event("error"));
  }
}

describe("inbox feed", () => {
  let sources: FakeSource[];
  let feed: InboxFeed;

  beforeEach(() => {
    vi.useFakeTimers();
    sources = [];
    feed = new InboxFeed({
      url: (uid) => `/listen/${uid}`,
      open: (url) => {
        const source = new FakeSource(url);
        sources.push(source);
        return source;
      },
      retryMs: 1000,
      maxRetryMs: 4000,
      lingerMs: 5000,
    });
  });
  afterEach(() => vi.useRealTimers());

  it("shares one stream between holders and closes it a while after the last lets go", () => {
    const first = feed.retain("u1");
    const second = feed.retain("u1");
    expect(sources.map((s) => s.url)).toEqual(["/listen/u1"]);
    first();
    first();
    second();
    vi.advanceTimersByTime(4999);
    expect(sources[0].closed, "a holder releasing twice counts once, and the stream lingers").toBe(false);
    vi.advanceTimersByTime(1);
    expect(sources[0].closed).toBe(true);
    expect(feed.snapshot()).toMatchObject({ uid: null, unreadCount: null });
  });

  it("keeps the connection across a change of page: one holder lets go, the next takes it", () => {
    const oldPage = feed.retain("u1");
    sources[0].open();
    sources[0].emit("unread", { unreadCount: 2 });
    oldPage();
    feed.retain("u1");
    vi.advanceTimersByTime(60_000);
    expect(sources).toHaveLength(1);
    expect(sources[0].closed).toBe(false);
    expect(feed.snapshot().unreadCount).toBe(2);
  });

  it("takes the unread count from the stream and counts pushed notifications and reconnections", () => {
    feed.retain("u1");
    const changes = vi.fn();
    feed.subscribe(changes);
    sources[0].open();
    sources[0].emit("unread", { unreadCount: 3 });
    expect(feed.snapshot()).toMatchObject({ uid: "u1", unreadCount: 3, revision: 1 });
    sources[0].emit("notification", { id: "n1", title: "Supported" });
    sources[0].emit("unread", { unreadCount: 4 });
    expect(feed.snapshot()).toMatchObject({ unreadCount: 4, revision: 2 });
    expect(changes).toHaveBeenCalledTimes(4);
  });

  it("opens a refused stream again after a wait that doubles up to the limit, and resets once connected", () => {
    feed.retain("u1");
    sources[0].refuse();
    vi.advanceTimersByTime(999);
    expect(sources).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sources).toHaveLength(2);
    sources[1].refuse();
    vi.advanceTimersByTime(1999);
    expect(sources).toHaveLength(2);
    vi.advanceTimersByTime(1);
    sources[2].refuse();
    vi.advanceTimersByTime(4000);
    sources[3].refuse();
    vi.advanceTimersByTime(4000);
    expect(sources, "the wait stops growing at maxRetryMs").toHaveLength(5);
    sources[4].open();
    sources[4].refuse();
    vi.advanceTimersByTime(1000);
    expect(sources).toHaveLength(6);
  });

  it("leaves a dropped connection to EventSource's own reconnection", () => {
    feed.retain("u1");
    sources[0].readyState = 0;
    sources[0].onerror?.(new Event("error"));
    vi.advanceTimersByTime(60_000);
    expect(sources).toHaveLength(1);
  });

  it("stops retrying once nobody holds the stream", () => {
    const release = feed.retain("u1");
    sources[0].refuse();
    release();
    vi.advanceTimersByTime(5000);
    vi.advanceTimersByTime(60_000);
    expect(sources).toHaveLength(1);
  });

  describe("with the session cookie", () => {
    const deferred = () => {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    };
    const flush = async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
    };
    let mirror: ReturnType<typeof deferred>;
    let renewals: Array<ReturnType<typeof deferred>>;
    let events: string[];

    beforeEach(() => {
      mirror = deferred();
      renewals = [];
      events = [];
      feed = new InboxFeed({
        url: (uid) => `/listen/${uid}`,
        open: (url) => {
          events.push("open stream");
          const source = new FakeSource(url);
          sources.push(source);
          return source;
        },
        session: {
          ready: () => mirror.promise,
          renew: () => {
            events.push("renew cookie");
            const renewal = deferred();
            renewals.push(renewal);
            return renewal.promise;
          },
        },
        retryMs: 1000,
        maxRetryMs: 4000,
        lingerMs: 5000,
      });
    });

    it("opens the stream only once the session mirror has answered after sign-in", async () => {
      feed.retain("u1");
      feed.retain("u1");
      await flush();
      expect(sources, "no stream before the cookie is set: it would answer 401").toHaveLength(0);
      mirror.resolve();
      await flush();
      expect(sources.map((s) => s.url)).toEqual(["/listen/u1"]);
    });

    it("renews the cookie after a refused stream and reconnects only once it is renewed", async () => {
      mirror.resolve();
      feed.retain("u1");
      await flush();
      sources[0].refuse();
      expect(renewals).toHaveLength(1);
      vi.advanceTimersByTime(1000);
      await flush();
      expect(sources, "waits for the renewed cookie").toHaveLength(1);
      renewals[0].resolve();
      await flush();
      expect(sources).toHaveLength(2);
      expect(events).toEqual(["open stream", "renew cookie", "open stream"]);
      sources[1].open();
      expect(feed.snapshot().revision).toBe(1);
    });

    it("does not open a stream for a user who left while the cookie was being set", async () => {
      const release = feed.retain("u1");
      release();
      vi.advanceTimersByTime(5000);
      mirror.resolve();
      await flush();
      expect(sources).toHaveLength(0);
    });
  });

  it("switches to another user's stream, and a holder of the old one cannot close the new one", () => {
    const oldHolder = feed.retain("u1");
    sources[0].open();
    sources[0].emit("unread", { unreadCount: 5 });
    feed.retain("u2");
    expect(sources[0].closed).toBe(true);
    expect(sources[1].url).toBe("/listen/u2");
    expect(feed.snapshot(), "nothing of the previous user is shown").toMatchObject({ uid: "u2", unreadCount: null });
    oldHolder();
    expect(sources[1].closed).toBe(false);
  });

  describe("the stream's other events", () => {
    const keeping = () =>
      new InboxFeed({
        url: (uid) => `/listen/${uid}`,
        open: (url) => {
          const source = new FakeSource(url);
          sources.push(source);
          return source;
        },
        kept: ["account"],
      });

    it("hands each event to its listeners, on a stream opened before or after they listen", () => {
      const heard: string[] = [];
      feed.on("account", (data) => heard.push(`before:${data}`));
      feed.retain("u1");
      sources[0].open();
      feed.on("account", (data) => heard.push(`after:${data}`));
      sources[0].emit("account", { reason: "signed-out" });
      expect(heard).toEqual(['before:{"reason":"signed-out"}', 'after:{"reason":"signed-out"}']);
    });

    it("keeps a kept type's events that arrive before anything listens, for the first listener only", () => {
      const keeper = keeping();
      keeper.retain("u1");
      sources[0].open();
      sources[0].emit("account", { reason: "role-changed" });
      sources[0].emit("account", { reason: "signed-out" });
      const first: string[] = [];
      const second: string[] = [];
      keeper.on("account", (data) => first.push(JSON.parse(data).reason));
      keeper.on("account", (data) => second.push(JSON.parse(data).reason));
      expect(first, "in the order they came").toEqual(["role-changed", "signed-out"]);
      expect(second, "handed over once").toEqual([]);
      sources[0].emit("account", { reason: "disabled" });
      expect(first).toEqual(["role-changed", "signed-out", "disabled"]);
      expect(second).toEqual(["disabled"]);
    });

    it("keeps nothing of a type it was not asked to keep", () => {
      const keeper = keeping();
      keeper.retain("u1");
      sources[0].emit("vehicle", { id: "v1" });
      const heard: string[] = [];
      keeper.on("vehicle", (data) => heard.push(data));
      expect(heard).toEqual([]);
    });

    it("keeps events again once the last listener has gone", () => {
      const keeper = keeping();
      keeper.retain("u1");
      const stop = keeper.on("account", () => {});
      stop();
      sources[0].emit("account", { reason: "deleted" });
      const heard: string[] = [];
      keeper.on("account", (data) => heard.push(JSON.parse(data).reason));
      expect(heard).toEqual(["deleted"]);
    });

    it("does not hand one user's kept events to the next user's listener", () => {
      const keeper = keeping();
      keeper.retain("u1");
      sources[0].emit("account", { reason: "signed-out" });
      keeper.retain("u2");
      const heard: string[] = [];
      keeper.on("account", (data) => heard.push(data));
      expect(heard).toEqual([]);
    });
  });
});
