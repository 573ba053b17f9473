/**
 * Custom tuning requests (contracts/tuning-requests.ts): the ticket, its thread (every transition,
 * message and assignment with who and when) and the files exchanged on it. The car's identity
 * and stock read are copied onto the ticket when it is made, so the dealer works from what the
 * customer asked about even if the car is read again later. Revisions are versions of the
 * request's own tune file (schema/tune-files.ts), licensed to the car as they are delivered; the
 * order that pays a request points at it (schema/payments.ts).
 */
import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, serial, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { type MapChange, type Questionnaire, TUNING_REQUEST_STATES } from "../../../contracts/tuning-requests";
import { tuneFiles } from "./tune-files";
import { userVehicles } from "./user-vehicles";
import { users } from "./users";

const actors = ["customer", "dealer", "admin", "system"] as const;

export interface PendingClose {
  to: "cancelled" | "not-possible";
  actor: (typeof actors)[number];
  actorUid: string | null;
  reason: string;
}

export const tuningRequests = pgTable(
  "tuning_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Counted, so people can name a ticket on the phone (TR-1042). */
    number: serial("number").notNull().unique(),
    customerUid: text("customer_uid")
      .notNull()
      .references(() => users.uid),
    dealerUid: text("dealer_uid")
      .notNull()
      .references(() => users.uid),
    vehicleId: uuid("vehicle_id").references(() => userVehicles.id, { onDelete: "set null" }),
    vehicleName: text("vehicle_name").notNull(),
    vin: text("vin"),
    ecuSerial: text("ecu_serial"),
    softwareId: text("software_id"),
    firmwareId: text("firmware_id").notNull(),
    stockSha256: text("stock_sha256").notNull(),
    stockSize: bigint("stock_size", { mode: "number" }).notNull(),
    questionnaire: jsonb("questionnaire").$type<Questionnaire>().notNull(),
    logIds: uuid("log_ids").array().notNull().default(sql`'{}'::uuid[]`),
    state: text("state", { enum: TUNING_REQUEST_STATES }).notNull().default("submitted"),
    /** Who on the dealer's team works it, by name (a dealer is one account; its staff are named here). */
    assignee: text("assignee"),
    quotePriceCents: integer("quote_price_cents"),
    quoteCurrency: text("quote_currency"),
    quoteExpectedDays: integer("quote_expected_days"),
    quotedAt: timestamp("quoted_at", { withTimezone: true }),
    /** When the work is promised: the quote's days from the quote, then from payment (contracts' `dueAt`). */
    dueAt: timestamp("due_at", { withTimezone: true }),
    /**
     * When the dealer was told the ticket is due within a day, and that it is late: each notice is
     * sent by the update that sets its column from null, so two sweeps at once send it once.
     */
    dueSoonNotifiedAt: timestamp("due_soon_notified_at", { withTimezone: true }),
    lateNotifiedAt: timestamp("late_notified_at", { withTimezone: true }),
    /** The tune file whose versions are the revisions, made at the first delivery. */
    tuneFileId: uuid("tune_file_id").references(() => tuneFiles.id, { onDelete: "set null" }),
    revisions: integer("revisions").notNull().default(0),
    /** The dealer's setting when the request was quoted. */
    freeRevisionDays: integer("free_revision_days").notNull(),
    firstDeliveredAt: timestamp("first_delivered_at", { withTimezone: true }),
    lastDeliveredAt: timestamp("last_delivered_at", { withTimezone: true }),
    lastCustomerActionAt: timestamp("last_customer_action_at", { withTimezone: true }).notNull().defaultNow(),
    customerReadAt: timestamp("customer_read_at", { withTimezone: true }),
    dealerReadAt: timestamp("dealer_read_at", { withTimezone: true }),
    closedReason: text("closed_reason"),
    /**
     * A close after payment waits for its refund: the side that asked, the state and the reason, so
     * whichever comes first — the route once the provider took the refund, or the provider's refund
     * event — closes the request as asked, and the other finds it closed.
     */
    pendingClose: jsonb("pending_close").$type<PendingClose | null>(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("tuning_requests_dealer_idx").on(t.dealerUid, t.state, t.updatedAt, t.id),
    index("tuning_requests_customer_idx").on(t.customerUid, t.createdAt, t.id),
    index("tuning_requests_vehicle_idx").on(t.vehicleId),
    // The sweep that accepts silent deliveries reads only these.
    index("tuning_requests_delivered_idx").on(t.lastDeliveredAt).where(sql`${t.state} = 'delivered'`),
    // The sweep of due and late tickets reads only those whose work is owed.
    index("tuning_requests_owed_due_idx").on(t.dueAt).where(sql`${t.state} in ('paid', 'in-progress')`),
    // The queue sorted by due date.
    index("tuning_requests_dealer_due_idx").on(t.dealerUid, t.dueAt, t.id),
  ],
);

export const tuningRequestEvents = pgTable(
  "tuning_request_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => tuningRequests.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorUid: text("actor_uid"),
    actor: text("actor", { enum: actors }).notNull(),
    kind: text("kind", { enum: ["submitted", "transition", "message", "assignment", "revision", "payment"] }).notNull(),
    fromState: text("from_state", { enum: TUNING_REQUEST_STATES }),
    toState: text("to_state", { enum: TUNING_REQUEST_STATES }),
    text: text("text").notNull().default(""),
    logIds: uuid("log_ids").array().notNull().default(sql`'{}'::uuid[]`),
    fileIds: uuid("file_ids").array().notNull().default(sql`'{}'::uuid[]`),
  },
  (t) => [index("tuning_request_events_request_idx").on(t.requestId, t.at, t.id)],
);

export const tuningRequestFiles = pgTable(
  "tuning_request_files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => tuningRequests.id, { onDelete: "cascade" }),
    vehicleId: uuid("vehicle_id").references(() => userVehicles.id, { onDelete: "set null" }),
    kind: text("kind", { enum: ["stock-read", "revision", "attachment"] }).notNull(),
    name: text("name").notNull(),
    sha256: text("sha256").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    senderUid: text("sender_uid").notNull(),
    sender: text("sender", { enum: ["customer", "dealer", "admin"] }).notNull(),
    revision: integer("revision"),
    note: text("note").notNull().default(""),
    changesFromStock: jsonb("changes_from_stock").$type<MapChange[]>(),
    changesFromPrevious: jsonb("changes_from_previous").$type<MapChange[]>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("tuning_request_files_request_idx").on(t.requestId, t.createdAt),
    index("tuning_request_files_vehicle_idx").on(t.vehicleId, t.createdAt),
  ],
);
