/**
 * One action on a tuning request by one of its sides: a transition the contract's table allows
 * (409 naming the state and who may), a message, an assignment or "read". What must happen at the
 * payment provider happens first (a refund, an open checkout cancelled); the move then checks the
 * state again under its lock.
 */
import { and, eq, inArray } from "drizzle-orm";
import { PAID_STATES, type TuningRequest, type TuningRequestPatchBody } from "../../../contracts/tuning-requests";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/handle";
import { dealerProfiles, orders, tuningRequests } from "../../db/schema";
import { conflict, forbidden } from "../errors";
import type { VerifiedCaller } from "../identity";
import type { Notify } from "../notifications";
import { requestCancel, requestRefund } from "../payments/orders";
import { ticketFor } from "./answers";
import { ownLogs } from "./asking";
import { dueFrom } from "./due-dates";
import { addToThread, announceChange, closePaid, moveRequest, tellOthers } from "./moves";
import { freeRevisionsUntil, mustMove, paidOrderOf, type RequestRow, requestFor, type Side } from "./sides";
import { auditMove, type RequestOrigin } from "./trail";

type Closing = Extract<TuningRequestPatchBody, { action: "cancel" | "decline" }>;

/** Who acts and when: what every entry of one action shares. */
interface Act {
  side: Side;
  who: { actor: Side["actor"]; actorUid: string };
  now: Date;
}

/** Open checkouts of the request (created, or failed and payable again). */
const openCheckoutsOf = (ctx: AppContext, row: RequestRow) =>
  ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.tuningRequestId, row.id), inArray(orders.status, ["created", "failed"])));

/** An unpaid checkout still open on the request is cancelled at the provider first, so nobody pays a closed request. */
async function closeOpenCheckout(ctx: AppContext, row: RequestRow): Promise<void> {
  for (const order of await openCheckoutsOf(ctx, row)) await requestCancel(ctx, order);
}

/**
 * A paid request cancelled or declined: closed by the refund (the provider's event reverses the
 * ledger and removes the revisions' licence). The event may arrive before this answer (the
 * sandbox's does) or after (Stripe's).
 */
async function closeWithRefund(
  ctx: AppContext,
  caller: VerifiedCaller,
  before: RequestRow,
  side: Side,
  body: Closing,
  origin: RequestOrigin,
): Promise<RequestRow> {
  const { db } = ctx;
  const to = mustMove(
    before,
    body.action === "decline" ? "decline" : side.party === "dealer" ? "cancel-paid" : "cancel",
    side.party,
  );
  const close = {
    to: to as "cancelled" | "not-possible",
    actor: side.actor,
    actorUid: caller.uid,
    reason: body.reason,
  };
  await db.update(tuningRequests).set({ pendingClose: close }).where(eq(tuningRequests.id, before.id));
  try {
    const order = await paidOrderOf(db, before.id);
    if (order) await requestRefund(ctx, order, body.reason);
  } catch (error) {
    await db.update(tuningRequests).set({ pendingClose: null }).where(eq(tuningRequests.id, before.id));
    throw error;
  }
  return ctx.notifications.transaction(async (tx, notify) => {
    const { row: locked } = await requestFor(tx, caller, before.id, true);
    const closed = PAID_STATES.includes(locked.state) ? await closePaid(tx, notify, locked, close) : locked;
    // Against the state before the refund: the provider's event may have closed it already.
    await auditMove(tx, origin, side, body.action, before, closed, body.reason);
    return closed;
  });
}

/** The checks before the transaction: the move is allowed, no checkout is open for a new quote, the logs are the caller's. */
async function prepare(
  ctx: AppContext,
  caller: VerifiedCaller,
  before: RequestRow,
  side: Side,
  body: TuningRequestPatchBody,
): Promise<string[]> {
  if (body.action === "cancel" || body.action === "decline") {
    mustMove(before, body.action, side.party);
    await closeOpenCheckout(ctx, before);
  }
  if (body.action === "quote") {
    mustMove(before, "quote", side.party);
    const [open] = await openCheckoutsOf(ctx, before);
    if (open)
      throw conflict("the customer is paying the current quote: cancel the request instead of changing it", [
        { path: "action", message: "a checkout of the current quote is open" },
      ]);
  }
  return body.action === "request-revision" ? ownLogs(ctx, caller, body.logIds) : [];
}

/** Does the action and answers the ticket after it. */
export async function actOnRequest(
  ctx: AppContext,
  caller: VerifiedCaller,
  id: string,
  body: TuningRequestPatchBody,
  origin: RequestOrigin,
): Promise<TuningRequest> {
  const { row: before, side } = await requestFor(ctx.db, caller, id);
  const paidClose = (body.action === "cancel" || body.action === "decline") && PAID_STATES.includes(before.state);
  const row = paidClose
    ? await closeWithRefund(ctx, caller, before, side, body as Closing, origin)
    : await moveUnpaid(ctx, caller, before, side, body, origin);
  announceChange(ctx, row.id);
  return ticketFor(ctx.db, row, caller);
}

async function moveUnpaid(
  ctx: AppContext,
  caller: VerifiedCaller,
  before: RequestRow,
  side: Side,
  body: TuningRequestPatchBody,
  origin: RequestOrigin,
): Promise<RequestRow> {
  const logIds = await prepare(ctx, caller, before, side, body);
  return ctx.notifications.transaction(async (tx, notify) => {
    const { row: locked } = await requestFor(tx, caller, before.id, true);
    const act: Act = { side, who: { actor: side.actor, actorUid: caller.uid }, now: new Date() };
    const moved = await actUnderLock(tx, notify, locked, act, body, logIds);
    const said = "reason" in body ? body.reason : "note" in body ? body.note : "text" in body ? body.text : undefined;
    await auditMove(tx, origin, side, body.action, locked, moved, said);
    return moved;
  });
}

async function actUnderLock(
  tx: Tx,
  notify: Notify,
  row: RequestRow,
  act: Act,
  body: TuningRequestPatchBody,
  logIds: string[],
): Promise<RequestRow> {
  const { side, who } = act;
  switch (body.action) {
    case "quote":
      return quote(tx, notify, row, act, body);
    case "decline":
    case "cancel": {
      // Before payment only (a paid request is closed by its refund, above).
      const to = mustMove(row, body.action === "decline" ? "decline" : "cancel", side.party);
      return moveRequest(tx, notify, row, {
        ...who,
        to,
        text: body.reason,
        set: { closedReason: body.reason },
        title: to === "not-possible" ? "not possible" : "cancelled",
      });
    }
    case "start":
      return moveRequest(tx, notify, row, {
        ...who,
        to: mustMove(row, "start", side.party),
        text: body.note,
        title: "work started",
      });
    case "request-revision":
      return requestRevision(tx, notify, row, act, body.note, logIds);
    case "accept":
      return moveRequest(tx, notify, row, {
        ...who,
        to: mustMove(row, "accept", side.party),
        text: body.note,
        title: `revision ${row.revisions} accepted`,
      });
    case "message":
      return message(tx, notify, row, act, body.text);
    case "assign":
      return assign(tx, row, act, body.assignee);
    case "read":
      return markRead(tx, row, act);
  }
}

async function quote(
  tx: Tx,
  notify: Notify,
  row: RequestRow,
  { side, who, now }: Act,
  body: Extract<TuningRequestPatchBody, { action: "quote" }>,
): Promise<RequestRow> {
  const to = mustMove(row, "quote", side.party);
  const [dealer] = await tx
    .select({ days: dealerProfiles.freeRevisionDays })
    .from(dealerProfiles)
    .where(eq(dealerProfiles.userUid, row.dealerUid));
  const price = `${(body.priceCents / 100).toFixed(2)} ${body.currency}`;
  return moveRequest(tx, notify, row, {
    to,
    ...who,
    text: [`${price}, ready in ${body.expectedDays} day${body.expectedDays === 1 ? "" : "s"}`, body.note]
      .filter(Boolean)
      .join(". "),
    title: `quoted ${price}`,
    set: {
      quotePriceCents: body.priceCents,
      quoteCurrency: body.currency,
      quoteExpectedDays: body.expectedDays,
      quotedAt: now,
      // A new quote promises anew: its days count from now until the customer pays.
      ...dueFrom(now, body.expectedDays),
      freeRevisionDays: dealer?.days ?? row.freeRevisionDays,
    },
  });
}

async function requestRevision(
  tx: Tx,
  notify: Notify,
  row: RequestRow,
  { side, who, now }: Act,
  note: string | undefined,
  logIds: string[],
): Promise<RequestRow> {
  const to = mustMove(row, "request-revision", side.party);
  const until = freeRevisionsUntil(row);
  if (until && now > until) {
    const message = `free revisions ended on ${until.toISOString().slice(0, 10)} (${row.freeRevisionDays} days after the first delivery): accept this revision, or ask the dealer for a new request`;
    throw conflict(message, [{ path: "action", message }]);
  }
  return moveRequest(tx, notify, row, {
    ...who,
    to,
    text: note,
    logIds,
    title: `revision ${row.revisions + 1} asked for`,
  });
}

async function message(tx: Tx, notify: Notify, row: RequestRow, act: Act, text: string): Promise<RequestRow> {
  await addToThread(tx, row.id, { kind: "message", ...act.who, text, at: act.now });
  await tellOthers(notify, row, act.side.actor, {
    kind: "tuning-request.message",
    title: `message from the ${act.side.actor}`,
    body: text.slice(0, 200),
  });
  return touch(tx, row, act.side, act.now);
}

async function assign(tx: Tx, row: RequestRow, { side, who, now }: Act, assignee: string | null): Promise<RequestRow> {
  if (side.party !== "dealer") throw forbidden("Only the dealer assigns the request");
  await addToThread(tx, row.id, {
    kind: "assignment",
    ...who,
    text: assignee ? `Assigned to ${assignee}` : "Unassigned",
    at: now,
  });
  const [assigned] = await tx
    .update(tuningRequests)
    .set({ assignee, updatedAt: now })
    .where(eq(tuningRequests.id, row.id))
    .returning();
  return assigned;
}

async function markRead(tx: Tx, row: RequestRow, { side, now }: Act): Promise<RequestRow> {
  if (side.actor === "admin") return row;
  const [read] = await tx
    .update(tuningRequests)
    .set(side.party === "customer" ? { customerReadAt: now } : { dealerReadAt: now })
    .where(eq(tuningRequests.id, row.id))
    .returning();
  return read;
}

/** A message or file changes the ticket's age (and the customer's last action); the sender has read what came before. */
export async function touch(tx: Tx, row: RequestRow, side: Side, now: Date): Promise<RequestRow> {
  const [touched] = await tx
    .update(tuningRequests)
    .set({
      updatedAt: now,
      ...(side.actor === "customer" && { lastCustomerActionAt: now, customerReadAt: now }),
      ...(side.actor === "dealer" && { dealerReadAt: now }),
    })
    .where(eq(tuningRequests.id, row.id))
    .returning();
  return touched;
}
