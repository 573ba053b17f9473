/**
 * Server-Sent Events responses (text/event-stream) that cannot hold the
 * server open: every stream is ended in `preClose`, so `app.close()` (graceful
 * shutdown) finishes while browsers are listening. Streams also end after
 * `maxLifetimeMs`; the browser's EventSource reconnects by itself, and the
 * reconnect is authenticated again, so a revoked session stops hearing.
 */
import { PassThrough } from "node:stream";
import type { FastifyInstance, FastifyReply } from "fastify";

export interface EventStream {
  /** One event; dropped once the stream has ended. */
  send(event: string, data: unknown): void;
  /** Called once when the stream ends, whoever ended it. */
  onClose(callback: () => void): void;
}

export interface EventStreamOptions {
  /** A comment line this often keeps proxies and load balancers from dropping an idle stream. */
  heartbeatMs?: number;
  maxLifetimeMs?: number;
  /** How long the browser waits before reconnecting. */
  retryMs?: number;
}

export class EventStreams {
  private readonly open = new Set<PassThrough>();
  private readonly heartbeatMs: number;
  private readonly maxLifetimeMs: number;
  private readonly retryMs: number;

  constructor(app: FastifyInstance, options: EventStreamOptions = {}) {
    this.heartbeatMs = options.heartbeatMs ?? 25_000;
    this.maxLifetimeMs = options.maxLifetimeMs ?? 10 * 60_000;
    this.retryMs = options.retryMs ?? 3_000;
    app.addHook("preClose", async () => this.closeAll());
  }

  /**
   * The route's `handlerTimeout`: a stream answers for its whole lifetime, so the server-wide
   * request time-out (which would cut it off with a 503) is replaced by the lifetime and a margin.
   */
  get handlerTimeoutMs(): number {
    return this.maxLifetimeMs + 60_000;
  }

  get size(): number {
    return this.open.size;
  }

  closeAll(): void {
    for (const body of this.open) body.end();
  }

  /** Answers the request with an event stream; the route returns `reply` after this. */
  start(reply: FastifyReply): EventStream {
    const body = new PassThrough();
    const closeCallbacks: Array<() => void> = [];
    this.open.add(body);
    const heartbeat = setInterval(() => body.write(": keep-alive\n\n"), this.heartbeatMs);
    const lifetime = setTimeout(() => body.end(), this.maxLifetimeMs);
    let closed = false;
    const finish = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      clearTimeout(lifetime);
      this.open.delete(body);
      if (!body.writableEnded) body.end();
      for (const callback of closeCallbacks) callback();
    };
    body.on("finish", finish);
    // The browser went away (tab closed, navigation, network): stop working for it.
    reply.raw.on("close", finish);

    body.write(`retry: ${this.retryMs}\n\n`);
    void reply
      .status(200)
      .header("content-type", "text/event-stream; charset=utf-8")
      // Proxies that buffer responses (nginx) would hold events back.
      .header("x-accel-buffering", "no")
      .send(body);
    return {
      send(event, data) {
        if (closed || body.writableEnded) return;
        body.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      },
      onClose(callback) {
        if (closed) callback();
        else closeCallbacks.push(callback);
      },
    };
  }
}
