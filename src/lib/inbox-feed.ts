/**
 * One live connection to the signed-in user's notification stream
 * (`GET /api/v1/users/{id}/notifications/listen`, Server-Sent Events), shared
 * by everything that shows it: the header bell of every kept-alive page and
 * the notifications page. It is open while something retains it, and a few
 * seconds more, so a change of page (one bell unmounts, the next mounts) keeps
 * the connection. The session cookie authenticates it, since EventSource
 * cannot send a bearer token.
 *
 * EventSource reconnects by itself after a dropped connection or a stream the
 * server ended. It gives up when the answer is not a stream (a 401 while the
 * session cookie is still being set after sign-in, a 5xx); then this waits and
 * opens it again, doubling the wait up to a minute.
 */
import { NOTIFICATION_EVENTS, type UnreadEvent } from "../../contracts/notifications";

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

export interface InboxFeedOptions {
  url: (uid: string) => string;
  open?: (url: string) => EventSourceLike;
  retryMs?: number;
  maxRetryMs?: number;
  /** How long the stream stays open after the last holder let go. */
  lingerMs?: number;
}

const CLOSED = 2;
export const NO_INBOX: InboxState = { uid: null, unreadCount: null, revision: 0 };

export class InboxFeed {
  private state: InboxState = NO_INBOX;
  private readonly listeners = new Set<() => void>();
  private holders = 0;
  private source: EventSourceLike | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private lingerTimer: ReturnType<typeof setTimeout> | null = null;
  private retryMs: number;
  /** Changes whenever the stream closes, so a holder of a closed stream cannot release a newer one. */
  private generation = 0;

  constructor(private readonly options: InboxFeedOptions) {
    this.retryMs = options.retryMs ?? 1000;
  }

  readonly snapshot = (): InboxState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Keeps the stream of `uid` open until the returned release; another user's stream is closed first. */
  retain(uid: string): () => void {
    if (this.state.uid !== uid) {
      this.close();
      this.set({ ...NO_INBOX, uid });
    }
    this.holders += 1;
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    if (!this.source && !this.retryTimer) this.connect(uid);
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
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        if (this.holders > 0 && this.state.uid === uid) this.connect(uid);
      }, wait);
    };
    source.addEventListener(NOTIFICATION_EVENTS.unread, (event) => {
      const { unreadCount } = JSON.parse(event.data) as UnreadEvent;
      this.set({ ...this.state, unreadCount });
    });
    source.addEventListener(NOTIFICATION_EVENTS.notification, () => {
      this.set({ ...this.state, revision: this.state.revision + 1 });
    });
  }

  private close(): void {
    this.source?.close();
    this.source = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.retryTimer = null;
    this.lingerTimer = null;
    this.holders = 0;
    this.generation += 1;
    this.retryMs = this.options.retryMs ?? 1000;
  }

  private set(state: InboxState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
