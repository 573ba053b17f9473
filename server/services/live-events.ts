/**
 * The live-event bus: what Topics publish (services/topics.ts) reaches the subscribers on every
 * instance, in the order it was published.
 *
 * - On PGlite one process serves the portal, so events are handed to its subscribers at once.
 * - On PostgreSQL several instances may share the database. An event is written to `live_events`
 *   and its id sent with NOTIFY in the same statement (a notification's payload is capped at
 *   8,000 bytes; a flash session's event can be larger). Every instance LISTENs on its own
 *   connection, reads each announced row and hands it to its subscribers. PostgreSQL delivers
 *   notifications in commit order, and each instance writes its events one after the other, so
 *   subscribers everywhere see one instance's events in the order it published them.
 *
 * An instance whose listening connection drops reconnects and reads the rows written since the
 * last one it delivered, so a restart of PostgreSQL or a killed connection loses no event kept in
 * the table (a quarter of an hour). An event that cannot be written (the database unreachable) is
 * logged and dropped: the change it tells of is already committed, and a stream's client reads
 * the current state when it reconnects.
 */
import type { FastifyBaseLogger } from "fastify";
import pg from "pg";

export type Deliver = (key: string, event: unknown) => void;

export interface LiveEventBus {
  /** Carries `event` to the subscribers of `topic`'s `key` on every instance. */
  publish(topic: string, key: string, event: unknown): void;
  /** Hands this instance's events of `topic` to `deliver`; one per topic. */
  attach(topic: string, deliver: Deliver): void;
  /** Starts listening for other instances' events: once the app is ready, after the migrations. */
  start(): Promise<void>;
  /** Waits for what was published to be written, then stops listening. */
  close(): Promise<void>;
}

/** Routes delivered events to the topic's handler; a subscriber that throws is logged, and the others still hear. */
class Delivery {
  private readonly topics = new Map<string, Deliver>();

  constructor(private readonly log: FastifyBaseLogger) {}

  attach(topic: string, deliver: Deliver): void {
    if (this.topics.has(topic)) throw new Error(`live events: topic ${topic} attached twice`);
    this.topics.set(topic, deliver);
  }

  deliver(topic: string, key: string, event: unknown): void {
    try {
      this.topics.get(topic)?.(key, event);
    } catch (error) {
      this.log.error({ err: error, topic }, "live event subscriber failed");
    }
  }
}

/** One process: events go straight to its subscribers, before publish returns. */
export function inProcessBus(log: FastifyBaseLogger): LiveEventBus {
  const delivery = new Delivery(log);
  return {
    publish: (topic, key, event) => delivery.deliver(topic, key, event),
    attach: (topic, deliver) => delivery.attach(topic, deliver),
    start: async () => {},
    close: async () => {},
  };
}

const CHANNEL = "live_events";
/** How long rows are kept for an instance that lost its connection to catch up from. */
const KEEP_MINUTES = 15;
const PRUNE_EVERY_MS = 60_000;
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;
/** The listening session's name in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = "portal live events";

interface EventRow {
  id: string;
  topic: string;
  key: string;
  payload: unknown;
}

export interface PostgresBusOptions {
  url: string;
  log: FastifyBaseLogger;
}

export interface PostgresBus extends LiveEventBus {
  /** Deletes rows older than the catch-up window; run every minute by each instance. */
  prune(): Promise<number>;
}

export function postgresBus({ url, log }: PostgresBusOptions): PostgresBus {
  const delivery = new Delivery(log);
  const writer = new EventWriter(url, log);
  const listener = new EventListener(url, log, delivery);
  return {
    start: () => listener.start(),
    prune: () => writer.prune(),
    attach: (topic, deliver) => delivery.attach(topic, deliver),
    publish: (topic, key, event) => writer.write(topic, key, event),
    async close() {
      await writer.close();
      await listener.close();
    },
  };
}

/** Writes events on one connection, one statement after the other, so the commit order is the publish order. */
class EventWriter {
  private readonly pool: pg.Pool;
  private written: Promise<void> = Promise.resolve();
  private readonly pruneTimer: NodeJS.Timeout;

  constructor(
    url: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.pool = new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 30_000 });
    this.pool.on("error", (error) => log.warn({ err: error }, "live events: idle writer connection dropped"));
    this.pruneTimer = setInterval(
      () => void this.prune().catch((error) => log.warn({ err: error }, "live events: pruning failed")),
      PRUNE_EVERY_MS,
    );
    this.pruneTimer.unref();
  }

  write(topic: string, key: string, event: unknown): void {
    const payload = JSON.stringify(event);
    this.written = this.written.then(async () => {
      try {
        await this.pool.query(
          `with event as (insert into live_events (topic, key, payload) values ($1, $2, $3::jsonb) returning id)
           select pg_notify('${CHANNEL}', id::text) from event`,
          [topic, key, payload],
        );
      } catch (error) {
        this.log.error({ err: error, topic }, "live events: an event could not be written and is lost");
      }
    });
  }

  async prune(): Promise<number> {
    const result = await this.pool.query(
      `delete from live_events where created_at < now() - interval '${KEEP_MINUTES} minutes'`,
    );
    return result.rowCount ?? 0;
  }

  async close(): Promise<void> {
    clearInterval(this.pruneTimer);
    await this.written;
    await this.pool.end();
  }
}

/**
 * LISTENs on a connection of its own and hands each announced row on, one at a time in the order
 * the notifications came; reconnects when the connection drops and then reads what it missed.
 */
class EventListener {
  private client: pg.Client | null = null;
  private delivered: Promise<void> = Promise.resolve();
  /** The highest id handed on: where a reconnected listener resumes. */
  private lastId = 0;
  private connectedBefore = false;
  private closing = false;
  private retryMs = RECONNECT_FIRST_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly seen = new RecentIds();

  constructor(
    private readonly url: string,
    private readonly log: FastifyBaseLogger,
    private readonly delivery: Delivery,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: LISTENER_APPLICATION_NAME });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      client.end().catch(() => {});
      if (this.closing) return;
      this.log.warn({ err: error }, "live events: listening connection lost; reconnecting");
      this.reconnectSoon();
    };
    client.on("error", onLost);
    client.on("end", () => onLost());
    client.on("notification", (message) => {
      if (message.channel === CHANNEL && message.payload) this.readInTurn(client, "id = $1", [message.payload]);
    });
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    this.client = client;
    this.retryMs = RECONNECT_FIRST_MS;
    if (this.connectedBefore) {
      // Back after a drop: hand on what was written meanwhile, oldest first.
      this.readInTurn(client, "id > $1 order by id", [this.lastId]);
      return;
    }
    // First connection: what was written before this instance listened was for others.
    this.connectedBefore = true;
    const [row] = (await client.query<{ id: string }>("select coalesce(max(id), 0)::text as id from live_events")).rows;
    this.lastId = Number(row.id);
  }

  private readInTurn(client: pg.Client, where: string, values: unknown[]): void {
    this.delivered = this.delivered
      .then(async () => {
        const { rows } = await client.query<EventRow>(
          `select id::text, topic, key, payload from live_events where ${where}`,
          values,
        );
        for (const row of rows) this.hand(row);
      })
      .catch((error) => this.log.warn({ err: error }, "live events: reading an event failed"));
  }

  private hand(row: EventRow): void {
    if (!this.seen.add(row.id)) return;
    this.lastId = Math.max(this.lastId, Number(row.id));
    this.delivery.deliver(row.topic, row.key, row.payload);
  }

  private reconnectSoon(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.start().catch((error) => {
        this.log.warn({ err: error }, "live events: reconnecting failed");
        this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
        this.reconnectSoon();
      });
    }, this.retryMs);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.retryTimer);
    await this.delivered;
    await this.client?.end().catch(() => {});
  }
}

/** The ids handed on lately, so that a row read twice (a notification and a catch-up) is handed on once. */
class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly keep = 10_000) {}

  /** false when `id` was seen already. */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.keep) this.ids.delete(this.ids.values().next().value as string);
    return true;
  }
}
