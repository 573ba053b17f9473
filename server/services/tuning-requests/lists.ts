/**
 * Lists of tuning requests: the caller's queue (their own as customer or dealer, every one for
 * admins) and a car's requests for whoever may see the car. The route's list runner applies the
 * filters, sort and page; the rows become summaries here.
 */
import { and, eq, type SQL } from "drizzle-orm";
import type { TuningRequestSummary } from "../../../contracts/tuning-requests";
import type { AppContext } from "../../context";
import { tuningRequests } from "../../db/schema";
import type { VerifiedCaller } from "../identity";
import type { Lister } from "../list-pages";
import { isAdmin, vehicleFor } from "../tune-access";
import { summariesOf } from "./answers";
import { type RequestRow, visibleRequestsSql } from "./sides";

type Summaries<Page> = Omit<Page, "data"> & { data: TuningRequestSummary[] };

async function pageOf<Page extends { data: RequestRow[] }>(
  ctx: AppContext,
  caller: VerifiedCaller,
  list: Lister<RequestRow, Page>,
  scope: SQL | undefined,
): Promise<Summaries<Page>> {
  const { db } = ctx;
  const page = await list(
    ({ where, orderBy, limit, offset }) =>
      db
        .select()
        .from(tuningRequests)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    scope,
  );
  return { ...page, data: await summariesOf(db, page.data, caller) };
}

/** The requests the caller may see. */
export const requestPageOf = <Page extends { data: RequestRow[] }>(
  ctx: AppContext,
  caller: VerifiedCaller,
  list: Lister<RequestRow, Page>,
): Promise<Summaries<Page>> => pageOf(ctx, caller, list, visibleRequestsSql(caller));

/** A car's requests: its owner (and admins) all of them, a dealer theirs. */
export async function vehicleRequestPageOf<Page extends { data: RequestRow[] }>(
  ctx: AppContext,
  caller: VerifiedCaller,
  vehicleId: string,
  list: Lister<RequestRow, Page>,
): Promise<Summaries<Page>> {
  const { vehicle, owner } = await vehicleFor(ctx.db, vehicleId, caller);
  const scope = and(
    eq(tuningRequests.vehicleId, vehicle.id),
    owner || isAdmin(caller) ? undefined : eq(tuningRequests.dealerUid, caller.uid),
  );
  return pageOf(ctx, caller, list, scope);
}
