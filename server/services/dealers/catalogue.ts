/**
 * A dealer's published catalogue as the caller may see it: tunes offered to named buyers or to a
 * repository's members only stay with them; the dealer themself and admins see every published tune.
 */
import { and, eq } from "drizzle-orm";
import type { TuneFile } from "../../../contracts/tune-files";
import type { Db } from "../../db/handle";
import { tuneFiles, users } from "../../db/schema";
import type { VerifiedCaller } from "../identity";
import type { Lister } from "../list-pages";
import { accessOf, boughtBy, isAdmin, type TuneRow, tuneColumns } from "../tune-access";
import { offeredToSql } from "../tune-offers";
import { tuneToApi } from "../tune-responses";
import { visibleProfileRow } from "./profiles";

/** The dealer's published tunes over the list's filter and page; 404 for a dealer the caller may not see. */
export async function dealerTunePage<Page extends { data: TuneRow[] }>(
  db: Db,
  caller: VerifiedCaller,
  dealerId: string,
  list: Lister<TuneRow, Page>,
): Promise<Omit<Page, "data"> & { data: TuneFile[] }> {
  const row = await visibleProfileRow(db, caller, dealerId);
  const scope = and(
    eq(tuneFiles.dealerUid, row.userUid),
    eq(tuneFiles.published, true),
    isAdmin(caller) || caller.uid === row.userUid ? undefined : offeredToSql(caller),
  );
  const page = await list(
    ({ where, orderBy, limit, offset }) =>
      db
        .select(tuneColumns)
        .from(tuneFiles)
        .leftJoin(users, eq(users.uid, tuneFiles.dealerUid))
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    scope,
  );
  const mine = await boughtBy(
    db,
    caller.uid,
    page.data.map((tune) => tune.id),
  );
  return {
    ...page,
    data: await Promise.all(
      page.data.map((tune) => tuneToApi(db, tune, accessOf(tune, caller, mine.has(tune.id)), false)),
    ),
  };
}
