/**
 * One live connection to the signed-in user's notification stream
 * (`GET /api/v1/users/{id}/notifications/listen`, Server-Sent Events), shared
 * by everything that shows it: the header bell of every kept-alive page and
 * the notifications page. It is open while something retains it, and a few
 * seconds more, so a change of page (one bell unmounts, the next mounts) keeps
 * the connection. The session cookie authenticates it, since EventSource
 * cannot send a bearer token: so the stream opens only once the session mirror
 * (POST /api/__session) has answered for the sign-in, not beside it, which
 * answered 401 right after a dealer signed in.
 *
 * EventSource reconnects by itself after a dropped connection or a stream the
 * server ended. It gives up when the answer is not a stream (a 401 from a
 * missing or expired cookie, a 5xx) without saying which; then this renews the
 * session cookie, waits, and opens it again once both are done, doubling the
 * wait up to a minute.
 *
 * The same stream carries the account's own events (role changed, disabled, signed out
 * everywhere: `on("account", …)`): a browser opens at most six HTTP/1.1 connections to a host,
 * and a stream of its own per tab left two tabs with none for their API calls.
 */
import { NOTIFICATION_EVENTS, type UnreadEvent } from "../../contracts/listen-streams";

export interface InboxState {
  /** Whose stream this is; null while closed. */
  uid: string | null;
  /** null until the stream has said. */
  unreadCount: number | null;
  /** Goes up with every notification pushed and every (re)connection, when a list may have missed some. */
  revision: number;
}

/** The part of EventSource used here, so tests can hand in their own. */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
}

/** The session cookie that authenticates the stream (src/providers/session.ts). */
export interface SessionCookie {
  /** Settles once the server has answered the mirror of the current sign-in. */
  ready(): Promise<void>;
  /** Mirrors the sign-in again with a fresh token; settles once the server has answered. */
  renew(): Promise<void>;
}

export interface InboxFeedOptions {
  url: (uid: string) => string;
  /** Unset: the stream opens at once and retries without renewing anything. */
  session?: SessionCookie;
  open?: (url: string) => EventSourceLike;
  retryMs?: number;
  maxRetryMs?: number;
  /** How long the stream stays open after the last holder let go. */
  lingerMs?: number;
  /**
   * Event types that must not be lost while nothing listens to them yet: the stream listens to them
   * from the start and keeps what arrives until the first listener of that type takes it. The
   * account stream's listener is code of its own, loaded after the bell has opened the stream, and a
   * "signed out everywhere" sent in that gap was dropped.
   */
  kept?: readonly string[];
}

const CLOSED = 2;
export const NO_INBOX: InboxState = { uid: null, unreadCount: null, revision: 0 };

export class InboxFeed {
  private state: InboxState = NO_INBOX;
  private readonly listeners = new Set<() => void>();
  private holders = 0;
  private source: EventSourceLike | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Waiting for the session cookie before opening. */
  private waiting = false;
  private lingerTimer: ReturnType<typeof setTimeout> | null = null;
  private retryMs: number;
  /** Changes whenever the stream closes, so a holder of a closed stream cannot release a newer one. */
  private generation = 0;
  /** Listeners of the stream's other events, by event name. */
  private readonly handlers = new Map<string, Set<(data: string) => void>>();
  /** Events of a kept type that arrived before any listener of it, oldest first. */
  private readonly unheard = new Map<string, string[]>();

  constructor(private readonly options: InboxFeedOptions) {
    this.retryMs = options.retryMs ?? 1000;
  }

  readonly snapshot = (): InboxState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Calls `listener` with the data of every `type` event of the stream until the returned removal. */
  on(type: string, listener: (data: string) => void): () => void {
    let listeners = this.handlers.get(type);
    if (!listeners) {
      listeners = new Set();
      this.handlers.set(type, listeners);
      if (!this.isKept(type)) this.source?.addEventListener(type, (event) => this.dispatch(type, event.data as string));
    }
    listeners.add(listener);
    const unheard = this.unheard.get(type) ?? [];
    this.unheard.delete(type);
    for (const data of unheard) listener(data);
    return () => listeners.delete(listener);
  }

  private isKept(type: string): boolean {
    return this.options.kept?.includes(type) ?? false;
  }

  private dispatch(type: string, data: string): void {
    const listeners = this.handlers.get(type);
    if (listeners?.size) {
      for (const listener of listeners) listener(data);
    } else if (this.isKept(type)) {
      this.unheard.set(type, [...(this.unheard.get(type) ?? []), data]);
    }
  }

  /** Keeps the stream of `uid` open until the returned release; another user's stream is closed first. */
  retain(uid: string): () => void {
    if (this.state.uid !== uid) {
      this.close();
      this.set({ ...NO_INBOX, uid });
    }
    this.holders += 1;
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    if (!this.source && !this.retryTimer && !this.waiting) this.openAfter(uid, this.options.session?.ready());
    const generation = this.generation;
    let released = false;
    return () => {
      if (released || generation !== this.generation) return;
      released = true;
      this.holders -= 1;
      if (this.holders > 0) return;
      this.lingerTimer = setTimeout(() => {
        this.close();
        this.set(NO_INBOX);
      }, this.options.lingerMs ?? 5000);
    };
  }

  /** Opens the stream once `gate` settles (well or not), unless it was closed or nobody holds it meanwhile. */
  private openAfter(uid: string, gate: Promise<void> | undefined): void {
    if (!gate) {
      this.connect(uid);
      return;
    }
    const generation = this.generation;
    this.waiting = true;
    void gate
      .catch(() => {})
      .then(() => {
        if (generation !== this.generation) return;
        this.waiting = false;
        if (this.holders > 0 && this.state.uid === uid) this.connect(uid);
      });
  }

  private connect(uid: string): void {
    const open = this.options.open ?? ((url) => new EventSource(url, { withCredentials: true }));
    const source = open(this.options.url(uid));
    this.source = source;
    source.onopen = () => {
      this.retryMs = this.options.retryMs ?? 1000;
      this.set({ ...this.state, revision: this.state.revision + 1 });
    };
    source.onerror = () => {
      if (source.readyState !== CLOSED || this.source !== source) return;
      this.source = null;
      const wait = this.retryMs;
      this.retryMs = Math.min(wait * 2, this.options.maxRetryMs ?? 60_000);
      // Most likely a 401: the cookie is renewed during the wait, and the stream opens after both.
      const renewed = this.options.session?.renew();
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        if (this.holders > 0 && this.state.uid === uid) this.openAfter(uid, renewed);
      }, wait);
    };
    source.addEventListener(NOTIFICATION_EVENTS.unread, (event) => {
      const { unreadCount } = JSON.parse(event.data) as UnreadEvent;
      this.set({ ...this.state, unreadCount });
    });
    source.addEventListener(NOTIFICATION_EVENTS.notification, () => {
      this.set({ ...this.state, revision: this.state.revision + 1 });
    });
    const types = new Set([...this.handlers.keys(), ...(this.options.kept ?? [])]);
    for (const type of types) source.addEventListener(type, (event) => this.dispatch(type, event.data as string));
  }

  private close(): void {
    this.source?.close();
    this.source = null;
    // What was kept belongs to the user whose stream this was.
    this.unheard.clear();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.retryTimer = null;
    this.lingerTimer = null;
    this.waiting = false;
    this.holders = 0;
    this.generation += 1;
    this.retryMs = this.options.retryMs ?? 1000;
  }

  private set(state: InboxState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
