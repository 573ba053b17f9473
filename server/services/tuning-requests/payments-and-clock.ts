/**
 * What payments and the clock do to a tuning request: a paid order moves it to `paid`, a refund
 * closes it, a delivery nobody answers is accepted after AUTO_ACCEPT_DAYS (due dates and their
 * notices are in due-dates.ts).
 */
import { and, eq, lt } from "drizzle-orm";
import { AUTO_ACCEPT_DAYS, PAID_STATES } from "../../../contracts/tuning-requests";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/handle";
import { tuningRequests } from "../../db/schema";
import type { Notify } from "../notifications";
import { dueFrom } from "./due-dates";
import { announceChange, closePaid, moveRequest } from "./moves";
import { DAY_MS, type OrderRow } from "./sides";

/** A paid order for a quoted request: the request is paid (the dealer may start). */
export async function onRequestPaid(tx: Tx, notify: Notify, order: OrderRow): Promise<void> {
  if (!order.tuningRequestId) return;
  const [row] = await tx
    .select()
    .from(tuningRequests)
    .where(eq(tuningRequests.id, order.tuningRequestId))
    .for("update");
  if (row?.state !== "quoted") return;
  const now = new Date();
  await moveRequest(tx, notify, row, {
    to: "paid",
    at: now,
    // The dealer starts when paid: the quote's days count from the payment.
    set: row.quoteExpectedDays === null ? {} : dueFrom(now, row.quoteExpectedDays),
    actor: "customer",
    actorUid: order.customerUid,
    title: "paid: the work can start",
    text: `Paid ${(order.amountCents / 100).toFixed(2)} ${order.currency}`,
  });
}

/**
 * A refunded order: its revisions' licence went with it (services/payments/orders), and a request
 * still open is closed — a cancellation or "not possible" after payment has closed it already;
 * this covers a refund made at the provider directly.
 */
export async function onRequestRefunded(tx: Tx, notify: Notify, order: OrderRow): Promise<void> {
  if (!order.tuningRequestId) return;
  const [row] = await tx
    .select()
    .from(tuningRequests)
    .where(eq(tuningRequests.id, order.tuningRequestId))
    .for("update");
  if (!row || !PAID_STATES.includes(row.state)) return;
  await closePaid(
    tx,
    notify,
    row,
    row.pendingClose ?? {
      to: "cancelled",
      actor: "system",
      actorUid: null,
      reason: order.refundReason ?? "the payment was refunded",
    },
  );
}

/**
 * Delivered requests nobody answered for AUTO_ACCEPT_DAYS are accepted for the customer; both
 * sides are told. `now` is the clock (tests move it). Returns the ids moved.
 */
export async function acceptSilentDeliveries(ctx: AppContext, now = new Date()): Promise<string[]> {
  const due = new Date(now.getTime() - AUTO_ACCEPT_DAYS * DAY_MS);
  const candidates = await ctx.db
    .select({ id: tuningRequests.id })
    .from(tuningRequests)
    .where(and(eq(tuningRequests.state, "delivered"), lt(tuningRequests.lastDeliveredAt, due)))
    .limit(500);
  const moved: string[] = [];
  for (const { id } of candidates) {
    await ctx.notifications.transaction(async (tx, notify) => {
      const [row] = await tx.select().from(tuningRequests).where(eq(tuningRequests.id, id)).for("update");
      // Checked again under the lock: the customer may have answered since the list was read.
      if (row?.state !== "delivered" || !row.lastDeliveredAt || row.lastDeliveredAt >= due) return;
      await moveRequest(tx, notify, row, {
        to: "accepted",
        actor: "system",
        actorUid: null,
        text: `Accepted for the customer: no word for ${AUTO_ACCEPT_DAYS} days after revision ${row.revisions} was delivered`,
        title: `accepted after ${AUTO_ACCEPT_DAYS} days without a word`,
        at: now,
      });
      moved.push(id);
    });
  }
  for (const id of moved) announceChange(ctx, id);
  return moved;
}
