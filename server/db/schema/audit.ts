import { sql } from "drizzle-orm";
import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per change an admin (or a dealer, to someone else's data) made, written by the server in
 * the transaction of the change. Append-only: a trigger (migration `audit-trail`) refuses UPDATE,
 * DELETE and TRUNCATE, so not even a bug in our own code can rewrite what happened.
 * No foreign keys: the trail outlives what it names (a deleted catalogue record, an anonymised user).
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** Null for the server's own jobs. */
    actorUid: text("actor_uid"),
    actorRole: text("actor_role").notNull(),
    /** "<resource>.<verb>", e.g. "user.role-changed", "supported-vehicle.updated". */
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    /** The user the change concerns (the account changed, a dealer's profile's owner…), for the user's audit. */
    subjectUid: text("subject_uid"),
    before: jsonb("before"),
    after: jsonb("after"),
    requestId: text("request_id"),
  },
  (table) => [
    index("audit_events_at_idx").on(table.at.desc(), table.id.desc()),
    index("audit_events_subject_idx").on(table.subjectUid, table.at.desc()),
    index("audit_events_actor_idx").on(table.actorUid, table.at.desc()),
    index("audit_events_target_idx").on(table.targetType, table.targetId),
    index("audit_events_action_idx").on(sql`${table.action} text_pattern_ops`),
  ],
);
