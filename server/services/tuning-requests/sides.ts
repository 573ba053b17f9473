/**
 * Who takes which side of a tuning request and what each side may reach: the request for a
 * caller (anyone else is told it does not exist), the move the contract's table allows, and the
 * request's paid order. Every other module of the tickets starts from these.
 */
import { and, eq, or, type SQL } from "drizzle-orm";
import {
  nextState,
  type TuningRequestActionName,
  type TuningRequestParty,
  type TuningRequestState,
} from "../../../contracts/tuning-requests";
import type { Db } from "../../db/connection";
import type { Tx } from "../../db/handle";
import { orders, tuningRequests } from "../../db/schema";
import { conflict, notFound } from "../errors";
import type { VerifiedCaller } from "../identity";

export type Handle = Db | Tx;
export type RequestRow = typeof tuningRequests.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type Actor = "customer" | "dealer" | "admin" | "system";

export const DAY_MS = 24 * 60 * 60 * 1000;

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
  if ("refused" in next) throw conflict(next.refused, [{ path: "action", message: next.refused }]);
  return next.to;
}

/** The paid order of a request, if it has one. */
export async function paidOrderOf(db: Handle, requestId: string): Promise<OrderRow | null> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.tuningRequestId, requestId), eq(orders.status, "paid")));
  return order ?? null;
}
