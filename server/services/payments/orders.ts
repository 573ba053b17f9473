/**
 * Orders and what the provider's events do to them. An order is made before the provider is
 * asked for a payment and removed again if the provider does not answer, so no half-made order
 * stays. Every state change comes from a verified event, applied in one transaction with the
 * event's id stored under its primary key: a redelivered event changes nothing, and an event
 * arriving after a later state (out of order) is recorded and ignored. A paid order makes the
 * licence and its ledger rows; a refund removes the licence and reverses exactly those rows.
 */
import { and, eq, getTableColumns, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { ORDER_NEXT, type Order, type OrderListItem, type OrderStatus } from "../../../contracts/payments";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/handle";
import { dealerProfiles, ledgerEntries, orders, paymentEvents, tuneFilePurchases, users } from "../../db/schema";
import { invalid, OrderConflict, ProviderUnavailable } from "../errors";
import type { VerifiedCaller } from "../identity";
import type { Lister } from "../list-pages";
import type { Notify } from "../notifications";
import { isAdmin } from "../tune-access";
import { onRequestPaid, onRequestRefunded } from "../tuning-requests";
import { PaymentProviderError } from "./provider";

export type OrderRow = typeof orders.$inferSelect;

export const orderToApi = (row: OrderRow): Order => ({
  id: row.id,
  kind: row.kind,
  customerUid: row.customerUid,
  dealerUid: row.dealerUid,
  tuneFileId: row.tuneFileId,
  vehicleId: row.vehicleId,
  tuningRequestId: row.tuningRequestId,
  title: row.title,
  amountCents: row.amountCents,
  currency: row.currency,
  feeCents: row.feeCents,
  status: row.status,
  provider: row.provider,
  refundReason: row.refundReason,
  paidAt: row.paidAt?.toISOString() ?? null,
  endedAt: row.endedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

/** The platform's fee in minor units: a whole percentage of the price, rounded half up. */
export const platformFee = (amountCents: number, percent: number) => Math.floor((amountCents * percent + 50) / 100);

/** What a verified event asks of an order, read from Stripe's event shapes. */
interface EventEffect {
  to: OrderStatus;
  /** The order named by the event (metadata), else found by the payment's id. */
  orderId: string | null;
  paymentId: string | null;
  /** The amount and currency the event says moved, checked against the order. */
  amountCents: number | null;
  currency: string | null;
}

const str = (value: unknown) => (typeof value === "string" ? value : null);
const num = (value: unknown) => (typeof value === "number" && Number.isInteger(value) ? value : null);

/** The effect of the event types we act on; null for any other type (refused, nothing stored). */
export function effectOf(event: { type: string; data: { object: Record<string, unknown> } }): EventEffect | null {
  const object = event.data.object;
  const metadata = (object.metadata ?? {}) as Record<string, unknown>;
  const base = { orderId: str(metadata.orderId), currency: str(object.currency)?.toUpperCase() ?? null };
  switch (event.type) {
    case "payment_intent.succeeded":
      return {
        ...base,
        to: "paid",
        paymentId: str(object.id),
        amountCents: num(object.amount_received) ?? num(object.amount),
      };
    case "payment_intent.payment_failed":
      return { ...base, to: "failed", paymentId: str(object.id), amountCents: null, currency: null };
    case "payment_intent.canceled":
      return { ...base, to: "expired", paymentId: str(object.id), amountCents: null, currency: null };
    case "charge.refunded":
      return {
        ...base,
        to: "refunded",
        paymentId: str(object.payment_intent),
        amountCents: num(object.amount_refunded),
      };
    default:
      return null;
  }
}

export interface AppliedEvent {
  outcome: "applied" | "duplicate" | "ignored";
  order: OrderRow | null;
}

/**
 * Applies one verified event. Refuses (400, nothing stored) an event for no known order or whose
 * amount or currency differ from the order's; a state the order cannot reach from where it is
 * is stored as ignored.
 */
export async function applyEvent(
  ctx: AppContext,
  event: { id: string; type: string; data: { object: Record<string, unknown> } },
  effect: EventEffect,
): Promise<AppliedEvent> {
  // Most redeliveries are of events long applied: answer those without opening a transaction.
  const [seen] = await ctx.db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(eq(paymentEvents.id, event.id));
  if (seen) return { outcome: "duplicate", order: null };
  return ctx.notifications.transaction(async (tx, notify) => {
    const byId = effect.orderId && /^[0-9a-f-]{36}$/i.test(effect.orderId) ? eq(orders.id, effect.orderId) : undefined;
    const byPayment = effect.paymentId ? eq(orders.paymentId, effect.paymentId) : undefined;
    const where = byId ?? byPayment;
    // Locking the order first serializes deliveries of the same event: the second waits, then finds the first's row.
    const [order] = where ? await tx.select().from(orders).where(where).for("update") : [];
    if (!order)
      throw invalid(
        "Unknown order",
        `the event names no order of ours (${effect.orderId ?? effect.paymentId ?? "none"})`,
      );
    if (effect.paymentId && order.paymentId && effect.paymentId !== order.paymentId)
      throw invalid("Payment mismatch", "the event's payment is not the order's");
    if (effect.amountCents !== null && effect.amountCents !== order.amountCents)
      throw invalid("Amount mismatch", `the event moved ${effect.amountCents}, the order is for ${order.amountCents}`);
    if (effect.currency !== null && effect.currency !== order.currency)
      throw invalid("Currency mismatch", `the event is in ${effect.currency}, the order in ${order.currency}`);
    if (!ORDER_NEXT[order.status].includes(effect.to)) {
      const [fresh] = await tx
        .insert(paymentEvents)
        .values({ id: event.id, type: event.type, orderId: order.id, outcome: `ignored: the order is ${order.status}` })
        .onConflictDoNothing()
        .returning({ id: paymentEvents.id });
      return { outcome: fresh ? "ignored" : "duplicate", order: fresh ? order : null };
    }
    // The event's row and the order's move in one statement: the order moves only if the event is new.
    const now = new Date();
    const moved = await tx.execute(sql`
      WITH fresh AS (
        INSERT INTO ${paymentEvents} (id, type, order_id, outcome) VALUES (${event.id}, ${event.type}, ${order.id}::uuid, 'applied')
        ON CONFLICT DO NOTHING RETURNING id
      )
      UPDATE ${orders} SET status = ${effect.to}, updated_at = ${now}, ${effect.to === "paid" ? sql`paid_at` : sql`ended_at`} = ${now}
      WHERE id = ${order.id}::uuid AND EXISTS (SELECT 1 FROM fresh)
      RETURNING id`);
    // Both drivers (pg and PGlite) answer a raw statement with its rows; the handle's type cannot name which.
    if ((moved as { rows: unknown[] }).rows.length === 0) return { outcome: "duplicate", order: null };
    const changed: OrderRow = {
      ...order,
      status: effect.to,
      updatedAt: now,
      ...(effect.to === "paid" ? { paidAt: now } : { endedAt: now }),
    };
    if (effect.to === "paid") await onPaid(tx, notify, changed, event.id);
    if (effect.to === "refunded") await onRefunded(tx, notify, changed, event.id);
    return { outcome: "applied", order: changed };
  });
}

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;

/** The licence, the customer's payment, the dealer's sale and the platform's fee; both are told. */
async function onPaid(tx: Tx, notify: Notify, order: OrderRow, eventId: string) {
  const row = (userUid: string, kind: "payment" | "sale" | "fee", amountCents: number, description: string) =>
    sql`(${userUid}, ${order.id}::uuid, ${eventId}, ${kind}, ${amountCents}, ${order.currency}, ${description})`;
  const rows = [
    row(order.customerUid, "payment", -order.amountCents, `Paid for ${order.title}`),
    row(order.dealerUid, "sale", order.amountCents, `Sold ${order.title}`),
  ];
  if (order.feeCents > 0) rows.push(row(order.dealerUid, "fee", -order.feeCents, `Platform fee on ${order.title}`));
  // The licence and the ledger rows in one statement: a payment storm is bound by round trips to the database.
  await tx.execute(sql`
    WITH licence AS (
      INSERT INTO ${tuneFilePurchases} (customer_uid, tune_file_id, vehicle_id, order_id)
      SELECT ${order.customerUid}, ${order.tuneFileId}::uuid, ${order.vehicleId}::uuid, ${order.id}::uuid
      WHERE ${order.tuneFileId}::uuid IS NOT NULL AND ${order.vehicleId}::uuid IS NOT NULL
      ON CONFLICT DO NOTHING
    )
    INSERT INTO ${ledgerEntries} (user_uid, order_id, event_id, kind, amount_cents, currency, description)
    VALUES ${sql.join(rows, sql`, `)}
    ON CONFLICT DO NOTHING`);
  const sold = `${money(order.amountCents, order.currency)}, less the platform fee of ${money(order.feeCents, order.currency)}.`;
  if (order.kind === "tuning-request") {
    // The request moves to paid and both sides hear of it there; the receipts say what was paid.
    await onRequestPaid(tx, notify, order);
    await notify({
      recipientUid: order.customerUid,
      kind: "order.paid",
      title: `Paid: ${order.title}`,
      body: `Payment of ${money(order.amountCents, order.currency)} received. The dealer is told to start.`,
      link: order.vehicleId ? `/my-devices/${order.vehicleId}?request=${order.tuningRequestId}` : "/my-devices",
    });
    await notify({
      recipientUid: order.dealerUid,
      kind: "order.paid",
      title: `Sold: ${order.title}`,
      body: sold,
      link: `/tuning-requests/show/${order.tuningRequestId}`,
    });
    return;
  }
  await notify({
    recipientUid: order.customerUid,
    kind: "order.paid",
    title: `${order.title} is licensed for your car`,
    body: `Payment of ${money(order.amountCents, order.currency)} received. Bake and flash it from the car's page.`,
    link: order.vehicleId ? `/my-devices/${order.vehicleId}` : "/my-tunes",
  });
  await notify({
    recipientUid: order.dealerUid,
    kind: "order.paid",
    title: `Sold: ${order.title}`,
    body: sold,
    link: "/my-tunes",
  });
}

/** The licence goes and every row the payment made is reversed; both are told. */
async function onRefunded(tx: Tx, notify: Notify, order: OrderRow, eventId: string) {
  await tx.delete(tuneFilePurchases).where(eq(tuneFilePurchases.orderId, order.id));
  const made = await tx
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.orderId, order.id), sql`${ledgerEntries.kind} IN ('payment', 'sale', 'fee')`));
  const reversal = { payment: "refund", sale: "sale-reversal", fee: "fee-reversal" } as const;
  if (made.length) {
    await tx
      .insert(ledgerEntries)
      .values(
        made.map((entry) => ({
          userUid: entry.userUid,
          orderId: order.id,
          eventId,
          kind: reversal[entry.kind as keyof typeof reversal],
          amountCents: -entry.amountCents,
          currency: entry.currency,
          description: `Refund: ${entry.description}`,
        })),
      )
      .onConflictDoNothing();
  }
  await onRequestRefunded(tx, notify, order);
  const reason = order.refundReason ? ` Reason: ${order.refundReason}` : "";
  await notify({
    recipientUid: order.customerUid,
    kind: "order.refunded",
    title: `Refunded: ${order.title}`,
    body: `${money(order.amountCents, order.currency)} is on its way back; the licence is removed.${reason}`,
    link: "/my-tunes",
  });
  await notify({
    recipientUid: order.dealerUid,
    kind: "order.refunded",
    title: `Refund of ${order.title}`,
    body: `The sale and its fee are reversed.${reason}`,
    link: "/my-tunes",
  });
}

const providerSilent =
  (what: string) =>
  (error: unknown): never => {
    if (error instanceof PaymentProviderError)
      throw new ProviderUnavailable(`${what}: the payment provider did not answer; try again in a moment`);
    throw error;
  };

/**
 * Asks the provider to refund a paid order in full, keeping the reason the customer is told; the
 * provider's refund event does the rest (the ledger reversed, the licence removed). The same key
 * on a retry refunds once. 503 when the provider does not answer.
 */
export async function requestRefund(
  ctx: AppContext,
  order: OrderRow,
  reason: string,
  audit?: (tx: Tx) => Promise<void>,
): Promise<void> {
  if (!order.paymentId) return;
  // The reason is stored (and, when asked, the audit row written) before the provider is asked.
  await ctx.db.transaction(async (tx) => {
    await tx.update(orders).set({ refundReason: reason, updatedAt: new Date() }).where(eq(orders.id, order.id));
    await audit?.(tx);
  });
  await ctx.payments
    .refund(
      {
        paymentId: order.paymentId,
        orderId: order.id,
        amountCents: order.amountCents,
        currency: order.currency,
        transferred: order.destination !== null,
      },
      `refund-${order.id}`,
    )
    .catch(providerSilent("the refund was not made"));
}

/** Asks the provider to cancel an unpaid order's payment; its event expires the order. 503 when the provider does not answer. */
export async function requestCancel(ctx: AppContext, order: OrderRow): Promise<void> {
  if (!order.paymentId) return;
  await ctx.payments
    .cancelPayment(
      { paymentId: order.paymentId, orderId: order.id, amountCents: order.amountCents, currency: order.currency },
      `cancel-${order.id}`,
    )
    .catch(providerSilent("nothing was cancelled"));
}

/** Removes an order the provider never took (it did not answer): no half-made order stays. */
export async function dropUnpaidOrder(ctx: AppContext, orderId: string) {
  await ctx.db
    .delete(orders)
    .where(and(eq(orders.id, orderId), eq(orders.status, "created"), isNull(orders.paymentId)));
}

export const conflictOrder = (message: string, path = "tuneFileId") => new OrderConflict(message, path);

/** The order's two parties, joined under their own names. */
const buyer = alias(users, "buyer");
const seller = alias(users, "seller");

type OrderListRow = OrderRow & { customerName: string | null; dealerName: string | null };

/** A customer's purchases and a dealer's sales (admins: every order), with both parties' names. */
export async function orderPageOf<Page extends { data: OrderListRow[] }>(
  ctx: AppContext,
  caller: VerifiedCaller,
  list: Lister<OrderListRow, Page>,
): Promise<Omit<Page, "data"> & { data: OrderListItem[] }> {
  const { db } = ctx;
  const scope = isAdmin(caller) ? undefined : or(eq(orders.customerUid, caller.uid), eq(orders.dealerUid, caller.uid));
  const page = await list(
    ({ where, orderBy, limit, offset }) =>
      db
        .select({
          ...getTableColumns(orders),
          customerName: sql<string | null>`coalesce(${buyer.displayName}, ${buyer.email})`,
          dealerName: sql<string | null>`coalesce(${dealerProfiles.businessName}, ${seller.displayName})`,
        })
        .from(orders)
        .leftJoin(buyer, eq(buyer.uid, orders.customerUid))
        .leftJoin(seller, eq(seller.uid, orders.dealerUid))
        .leftJoin(dealerProfiles, eq(dealerProfiles.userUid, orders.dealerUid))
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    scope,
  );
  return {
    ...page,
    data: page.data.map(
      (row): OrderListItem => ({ ...orderToApi(row), customerName: row.customerName, dealerName: row.dealerName }),
    ),
  };
}
