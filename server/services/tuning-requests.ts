/**
 * Tuning requests on the server: who takes which side of a ticket, moving it through its states
 * (contracts/tuning-requests nextState) with the thread entry and the other side told in the same
 * transaction, what the API answers of it, and what payments and the clock do to it: a paid order
 * moves it to `paid`, a refund closes it, a delivery nobody answers is accepted after
 * AUTO_ACCEPT_DAYS.
 */
import { and, asc, count, eq, gt, inArray, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import {
  AUTO_ACCEPT_DAYS,
  actionsFor,
  FINAL_STATES,
  type MapChange,
  nextState,
  PAID_STATES,
  type TuningRequest,
  type TuningRequestActionName,
  type TuningRequestParty,
  type TuningRequestState,
  type TuningRequestSummary,
} from "../../contracts/tuning-requests";
import type { AppContext } from "../context";
import type { Db } from "../db/connection";
import type { Tx } from "../db/handle";
import { dealerProfiles, orders, tuningRequestEvents, tuningRequestFiles, tuningRequests, users } from "../db/schema";
import type { PendingClose } from "../db/schema/tuning-requests";
import { HttpError, notFound } from "../errors";
import type { VerifiedCaller } from "./identity";
import type { Notify } from "./notifications";

type Handle = Db | Tx;
export type RequestRow = typeof tuningRequests.$inferSelect;
type OrderRow = typeof orders.$inferSelect;
export type Actor = "customer" | "dealer" | "admin" | "system";

const DAY_MS = 24 * 60 * 60 * 1000;

export const referenceOf = (row: Pick<RequestRow, "number">) => `TR-${row.number}`;

/** Until when the customer may ask for a free revision: the dealer's days after the first delivery (null before it). */
export const freeRevisionsUntil = (row: Pick<RequestRow, "firstDeliveredAt" | "freeRevisionDays">): Date | null =>
  row.firstDeliveredAt ? new Date(row.firstDeliveredAt.getTime() + row.freeRevisionDays * DAY_MS) : null;

export interface Side {
  /** The side's rights: an admin works a ticket as its dealer does. */
  party: TuningRequestParty;
  actor: Actor;
}

/** The caller's side on this request, or null when it is none of theirs. */
export function sideOf(caller: VerifiedCaller, row: Pick<RequestRow, "customerUid" | "dealerUid">): Side | null {
  if (row.customerUid === caller.uid) return { party: "customer", actor: "customer" };
  if (row.dealerUid === caller.uid) return { party: "dealer", actor: "dealer" };
  if (caller.role === "admin") return { party: "dealer", actor: "admin" };
  return null;
}

/** Requests the caller may see: their own as customer or as dealer; admins every one. */
export const visibleRequestsSql = (caller: VerifiedCaller): SQL | undefined =>
  caller.role === "admin"
    ? undefined
    : or(eq(tuningRequests.customerUid, caller.uid), eq(tuningRequests.dealerUid, caller.uid));

/** The request and the caller's side on it; anyone else is told it does not exist. `lock` takes the row for the transaction. */
export async function requestFor(
  db: Handle,
  caller: VerifiedCaller,
  id: string,
  lock = false,
): Promise<{ row: RequestRow; side: Side }> {
  const query = db.select().from(tuningRequests).where(eq(tuningRequests.id, id));
  const [row] = lock ? await query.for("update") : await query;
  const side = row ? sideOf(caller, row) : null;
  if (!row || !side) throw notFound(`Tuning request ${id}`);
  return { row, side };
}

/** 409 naming the state and who may move it, from the contract's table. */
export function mustMove(
  row: RequestRow,
  action: TuningRequestActionName,
  party: TuningRequestParty,
): TuningRequestState {
  const next = nextState(row.state, action, party);
  if ("refused" in next)
    throw new HttpError(409, "Conflict", next.refused, [{ path: "action", message: next.refused }]);
  return next.to;
}

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

/** The paid order of a request, if it has one. */
export async function paidOrderOf(db: Handle, requestId: string): Promise<OrderRow | null> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.tuningRequestId, requestId), eq(orders.status, "paid")));
  return order ?? null;
}

// ---------------------------------------------------------------------------
// Payments and the clock

/** A paid order for a quoted request: the request is paid (the dealer may start). */
export async function onRequestPaid(tx: Tx, notify: Notify, order: OrderRow): Promise<void> {
  if (!order.tuningRequestId) return;
  const [row] = await tx
    .select()
    .from(tuningRequests)
    .where(eq(tuningRequests.id, order.tuningRequestId))
    .for("update");
  if (row?.state !== "quoted") return;
  await moveRequest(tx, notify, row, {
    to: "paid",
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
  for (const id of moved) ctx.tuningRequestEvents.publish(id, { type: "changed" });
  return moved;
}

// ---------------------------------------------------------------------------
// Answers

/** Summaries with names, the dealer's profile id and the caller's unread messages, in the rows' order. */
export async function summariesOf(
  db: Handle,
  rows: RequestRow[],
  caller: VerifiedCaller,
): Promise<TuningRequestSummary[]> {
  if (rows.length === 0) return [];
  const uids = [...new Set(rows.flatMap((row) => [row.customerUid, row.dealerUid]))];
  const people = await db
    .select({
      uid: users.uid,
      name: sql<string | null>`coalesce(${dealerProfiles.businessName}, ${users.displayName}, ${users.email})`,
      dealerId: dealerProfiles.id,
    })
    .from(users)
    .leftJoin(dealerProfiles, eq(dealerProfiles.userUid, users.uid))
    .where(inArray(users.uid, uids));
  const person = new Map(people.map((p) => [p.uid, p]));
  // Unread, in one query: messages and deliveries from the other side after the caller last read the thread (admins read no side's).
  const counted = await db
    .select({ id: tuningRequests.id, n: count() })
    .from(tuningRequestEvents)
    .innerJoin(tuningRequests, eq(tuningRequests.id, tuningRequestEvents.requestId))
    .where(
      and(
        inArray(
          tuningRequests.id,
          rows.map((row) => row.id),
        ),
        inArray(tuningRequestEvents.kind, ["message", "revision"]),
        or(
          and(
            eq(tuningRequests.customerUid, caller.uid),
            inArray(tuningRequestEvents.actor, ["dealer", "admin"]),
            or(isNull(tuningRequests.customerReadAt), gt(tuningRequestEvents.at, tuningRequests.customerReadAt)),
          ),
          and(
            eq(tuningRequests.dealerUid, caller.uid),
            eq(tuningRequestEvents.actor, "customer"),
            or(isNull(tuningRequests.dealerReadAt), gt(tuningRequestEvents.at, tuningRequests.dealerReadAt)),
          ),
        ),
      ),
    )
    .groupBy(tuningRequests.id);
  const unread = new Map(counted.map((row) => [row.id, row.n]));
  return rows.map((row) => ({
    id: row.id,
    reference: referenceOf(row),
    state: row.state,
    customerUid: row.customerUid,
    customerName: person.get(row.customerUid)?.name ?? null,
    dealerUid: row.dealerUid,
    dealerId: person.get(row.dealerUid)?.dealerId ?? null,
    dealerName: person.get(row.dealerUid)?.name ?? null,
    vehicleId: row.vehicleId,
    vehicleName: row.vehicleName,
    firmwareId: row.firmwareId,
    assignee: row.assignee,
    quote:
      row.quotePriceCents !== null && row.quoteCurrency && row.quoteExpectedDays !== null && row.quotedAt
        ? {
            priceCents: row.quotePriceCents,
            currency: row.quoteCurrency as "EUR",
            expectedDays: row.quoteExpectedDays,
            quotedAt: row.quotedAt.toISOString(),
          }
        : null,
    revisions: row.revisions,
    lastCustomerActionAt: row.lastCustomerActionAt.toISOString(),
    unread: unread.get(row.id) ?? 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

/** The whole ticket for one of its sides: thread, files, revisions with their changes (within the dealer's protection) and what the caller may do. */
export async function ticketOf(
  db: Handle,
  row: RequestRow,
  caller: VerifiedCaller,
  mayView: boolean,
): Promise<TuningRequest> {
  const side = sideOf(caller, row)!;
  const [summary] = await summariesOf(db, [row], caller);
  const events = await db
    .select()
    .from(tuningRequestEvents)
    .where(eq(tuningRequestEvents.requestId, row.id))
    .orderBy(asc(tuningRequestEvents.at), asc(tuningRequestEvents.id));
  const files = await db
    .select()
    .from(tuningRequestFiles)
    .where(eq(tuningRequestFiles.requestId, row.id))
    .orderBy(asc(tuningRequestFiles.createdAt), asc(tuningRequestFiles.id));
  const order = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.tuningRequestId, row.id), inArray(orders.status, ["paid", "refunded"])))
    .limit(1);
  const hidden = (changes: MapChange[] | null) => (mayView || side.party === "dealer" ? changes : null);
  // The table's moves for the caller's side (after payment the dealer's cancel is `cancel-paid`), and what is always open.
  const actions = [
    ...actionsFor(row.state, side.party),
    "message",
    ...(side.party === "dealer" && !FINAL_STATES.includes(row.state) ? ["assign"] : []),
  ];
  return {
    ...summary,
    questionnaire: row.questionnaire,
    logIds: row.logIds,
    vehicle: {
      vin: row.vin,
      ecuSerial: row.ecuSerial,
      softwareId: row.softwareId,
      stockSha256: row.stockSha256,
      stockSize: row.stockSize,
    },
    orderId: order[0]?.id ?? null,
    tuneFileId: row.tuneFileId,
    freeRevisionDays: row.freeRevisionDays,
    freeRevisionsUntil: freeRevisionsUntil(row)?.toISOString() ?? null,
    autoAcceptAt:
      row.state === "delivered" && row.lastDeliveredAt
        ? new Date(row.lastDeliveredAt.getTime() + AUTO_ACCEPT_DAYS * DAY_MS).toISOString()
        : null,
    closedReason: row.closedReason,
    actions,
    revisionList: files
      .filter((file) => file.kind === "revision" && file.revision !== null)
      .map((file) => ({
        number: file.revision!,
        fileId: file.id,
        tuneFileId: row.tuneFileId ?? "",
        sha256: file.sha256,
        size: file.size,
        note: file.note,
        changesFromStock: hidden(file.changesFromStock),
        changesFromPrevious: file.revision === 1 ? null : hidden(file.changesFromPrevious),
        deliveredAt: file.createdAt.toISOString(),
      })),
    events: events.map((event) => ({
      id: event.id,
      at: event.at.toISOString(),
      actorUid: event.actorUid,
      actor: event.actor,
      kind: event.kind,
      from: event.fromState,
      to: event.toState,
      text: event.text,
      logIds: event.logIds,
      fileIds: event.fileIds,
    })),
    files: files.map(fileToApi),
  };
}

export const fileToApi = (file: typeof tuningRequestFiles.$inferSelect) => ({
  id: file.id,
  requestId: file.requestId,
  kind: file.kind,
  name: file.name,
  size: file.size,
  sha256: file.sha256,
  senderUid: file.senderUid,
  sender: file.sender,
  revision: file.revision,
  createdAt: file.createdAt.toISOString(),
});
