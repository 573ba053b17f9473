import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Live events on their way to every instance's open streams, on PostgreSQL only
 * (server/services/live-events.ts): each is written here and its id sent with NOTIFY, since a
 * notification's payload is capped at 8,000 bytes and a flash session's event can be larger. The
 * ids also let an instance whose listening connection dropped read what it missed. Kept for a
 * quarter of an hour, then pruned; on PGlite, events stay in the one process and this table
 * stays empty.
 */
export const liveEvents = pgTable(
  "live_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** Which stream family: notifications, vehicle, tuning-request, account. */
    topic: text("topic").notNull(),
    /** Whose stream within it: a user's uid, a vehicle's or a ticket's id. */
    key: text("key").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("live_events_created_idx").on(t.createdAt)],
);
