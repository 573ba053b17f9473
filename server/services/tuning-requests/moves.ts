/**
 * Moving a tuning request: the thread entry and the other side told in the same transaction as
 * the state, and the closing of a paid request once its refund is taken.
 */
import { eq } from "drizzle-orm";
import { FINAL_STATES, type TuningRequestState } from "../../../contracts/tuning-requests";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/handle";
import { tuningRequestEvents, tuningRequests } from "../../db/schema";
import type { PendingClose } from "../../db/schema/tuning-requests";
import type { Notify } from "../notifications";
import { type Actor, type RequestRow, referenceOf } from "./sides";

export interface ThreadEntry {
  kind: "submitted" | "transition" | "message" | "assignment" | "revision" | "payment";
  actor: Actor;
  actorUid: string | null;
  from?: TuningRequestState | null;
  to?: TuningRequestState | null;
  text?: string;
  logIds?: string[];
  fileIds?: string[];
  at?: Date;
}

export async function addToThread(tx: Tx, requestId: string, entry: ThreadEntry): Promise<void> {
  await tx.insert(tuningRequestEvents).values({
    requestId,
    actor: entry.actor,
    actorUid: entry.actorUid,
    kind: entry.kind,
    fromState: entry.from ?? null,
    toState: entry.to ?? null,
    text: entry.text ?? "",
    logIds: entry.logIds ?? [],
    fileIds: entry.fileIds ?? [],
    ...(entry.at && { at: entry.at }),
  });
}

/** Tells the other side (both, when an admin or the clock acted) what happened, linking to where each follows the ticket. */
export async function tellOthers(
  notify: Notify,
  row: RequestRow,
  actor: Actor,
  message: { title: string; body?: string; kind?: "tuning-request.changed" | "tuning-request.message" },
) {
  const kind = message.kind ?? "tuning-request.changed";
  const title = `${referenceOf(row)}: ${message.title}`;
  if (actor !== "customer") {
    await notify({
      recipientUid: row.customerUid,
      kind,
      title,
      body: message.body,
      link: row.vehicleId ? `/my-devices/${row.vehicleId}?request=${row.id}` : "/my-devices",
    });
  }
  if (actor !== "dealer")
    await notify({
      recipientUid: row.dealerUid,
      kind,
      title,
      body: message.body,
      link: `/tuning-requests/show/${row.id}`,
    });
}

const STATE_WORDS: Record<TuningRequestState, string> = {
  submitted: "asked for",
  quoted: "quoted",
  paid: "paid",
  "in-progress": "in progress",
  delivered: "delivered",
  "revision-requested": "a revision was asked for",
  accepted: "accepted",
  "not-possible": "not possible",
  cancelled: "cancelled",
};

export interface Move {
  to: TuningRequestState;
  actor: Actor;
  actorUid: string | null;
  text?: string;
  logIds?: string[];
  fileIds?: string[];
  /** Other columns the move sets (the quote, the revision count, the closing reason…). */
  set?: Partial<typeof tuningRequests.$inferInsert>;
  /** The notification's title, when the state's name does not say enough. */
  title?: string;
  at?: Date;
}

/** Moves the request (locked by the caller) and records it in the thread; the other side is told. */
export async function moveRequest(tx: Tx, notify: Notify, row: RequestRow, move: Move): Promise<RequestRow> {
  const now = move.at ?? new Date();
  const closing = FINAL_STATES.includes(move.to);
  const [moved] = await tx
    .update(tuningRequests)
    .set({
      state: move.to,
      updatedAt: now,
      ...(move.actor === "customer" && { lastCustomerActionAt: now }),
      ...(closing && { closedAt: now }),
      ...move.set,
    })
    .where(eq(tuningRequests.id, row.id))
    .returning();
  await addToThread(tx, row.id, {
    kind: "transition",
    actor: move.actor,
    actorUid: move.actorUid,
    from: row.state,
    to: move.to,
    text: move.text,
    logIds: move.logIds,
    fileIds: move.fileIds,
    at: now,
  });
  await tellOthers(notify, moved, move.actor, { title: move.title ?? STATE_WORDS[move.to], body: move.text });
  return moved;
}

/** Closes a paid request as asked (its refund was taken): cancelled, or not possible. */
export async function closePaid(tx: Tx, notify: Notify, row: RequestRow, close: PendingClose): Promise<RequestRow> {
  return moveRequest(tx, notify, row, {
    to: close.to,
    actor: close.actor,
    actorUid: close.actorUid,
    text: close.reason,
    set: { closedReason: close.reason, pendingClose: null },
    title: `${close.to === "not-possible" ? "not possible" : "cancelled"}: the payment is refunded`,
  });
}

/** Tells whoever follows the ticket (its event stream) that it changed. */
export const announceChange = (ctx: AppContext, id: string) => ctx.tuningRequestEvents.publish(id, { type: "changed" });
