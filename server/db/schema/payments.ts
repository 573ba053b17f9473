/**
 * Money: orders (one per checkout of a tune for a car), the payment provider's events as they
 * were applied (each once: the event id is the key, written in the transaction of its effect),
 * and the ledger every user reads (one row per money movement of one event, signed from the
 * user's side, summing to what the order moved).
 */
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { LEDGER_KINDS, ORDER_KINDS, ORDER_STATUSES } from "../../../contracts/payments";
import { tuneFiles } from "./tune-files";
import { tuningRequests } from "./tuning-requests";
import { userVehicles } from "./user-vehicles";
import { users } from "./users";

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: ORDER_KINDS }).notNull(),
    customerUid: text("customer_uid")
      .notNull()
      .references(() => users.uid),
    dealerUid: text("dealer_uid")
      .notNull()
      .references(() => users.uid),
    tuneFileId: uuid("tune_file_id").references(() => tuneFiles.id, { onDelete: "set null" }),
    vehicleId: uuid("vehicle_id").references(() => userVehicles.id, { onDelete: "set null" }),
    /** A custom tune's order: the tuning request it pays (schema/tuning-requests.ts). */
    tuningRequestId: uuid("tuning_request_id").references(() => tuningRequests.id, { onDelete: "set null" }),
    /** What is sold, kept as it was when ordered (the tune may change later). */
    title: text("title").notNull(),
    /** Minor units (cents): no float ever holds money. */
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    feeCents: integer("fee_cents").notNull(),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("created"),
    provider: text("provider", { enum: ["sandbox", "stripe"] }).notNull(),
    /** The dealer's payout account the charge goes to (a destination charge); a refund reverses that transfer. */
    destination: text("destination"),
    /** The provider's payment (a PaymentIntent id): events name the order by it and by metadata. */
    paymentId: text("payment_id"),
    refundReason: text("refund_reason"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One open checkout per tune and car (a declined one is still open: the customer tries another
    // card on it): a second click or tab gets the same order, and nobody pays twice for one licence.
    uniqueIndex("orders_open_key").on(t.tuneFileId, t.vehicleId).where(sql`${t.status} IN ('created', 'failed')`),
    // One open checkout per tuning request, and one paid order: a request is paid once.
    uniqueIndex("orders_open_request_key")
      .on(t.tuningRequestId)
      .where(sql`${t.status} IN ('created', 'failed', 'paid')`),
    uniqueIndex("orders_payment_key").on(t.paymentId),
    index("orders_customer_idx").on(t.customerUid, t.createdAt),
    index("orders_dealer_idx").on(t.dealerUid, t.createdAt),
  ],
);

export const paymentEvents = pgTable("payment_events", {
  /** The provider's event id: a redelivered event finds its row and changes nothing. */
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
  /** What the event did: "applied", or why it changed nothing ("out of order: the order is refunded"). */
  outcome: text("outcome").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userUid: text("user_uid")
      .notNull()
      .references(() => users.uid),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    eventId: text("event_id").notNull(),
    kind: text("kind", { enum: LEDGER_KINDS }).notNull(),
    /** Signed from the user's side: money in is positive. */
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    description: text("description").notNull(),
    /** The admin who made an adjustment (kind `adjustment`); null for the provider's movements. */
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("ledger_entries_user_idx").on(t.userUid, t.createdAt, t.id),
    uniqueIndex("ledger_entries_event_key").on(t.eventId, t.userUid, t.kind),
  ],
);

/**
 * A dealer's payout account at the provider (a Stripe connected account; in the sandbox, one the
 * sandbox made). Its state follows the provider's `account.updated` events; a priced tune is
 * sold only by a dealer whose account takes charges.
 */
export const connectedAccounts = pgTable("connected_accounts", {
  userUid: text("user_uid")
    .primaryKey()
    .references(() => users.uid),
  provider: text("provider", { enum: ["sandbox", "stripe"] }).notNull(),
  accountId: text("account_id").notNull().unique(),
  chargesEnabled: boolean("charges_enabled").notNull().default(false),
  payoutsEnabled: boolean("payouts_enabled").notNull().default(false),
  /** What the provider still needs from the dealer (its `requirements.currently_due`). */
  requirementsDue: text("requirements_due").array().notNull().default(sql`'{}'::text[]`),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
