/**
 * A dealer's published catalogue as the caller may see it: tunes offered to named buyers or to a
 * repository's members only stay with them; the dealer themself and admins see every published tune.
 * A signed-out visitor reads the tunes offered to everyone, in their public shape.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { PublicTuneFile, TuneFile } from "../../../contracts/tune-files";
import type { Db } from "../../db/handle";
import { tuneFiles, users } from "../../db/schema";
import type { VerifiedCaller } from "../identity";
import type { Lister } from "../list-pages";
import { isAdmin, type TuneRow, tuneColumns } from "../tune-access";
import { tunePageWithin } from "../tune-file-records";
import { offeredToSql } from "../tune-offers";
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
  return tunePageWithin(db, caller, list, scope);
}

/** The public part of an approved dealer's catalogue: published tunes sold to anyone (no buyer list, no repository). */
export async function publicDealerTunePage<Page extends { data: TuneRow[] }>(
  db: Db,
  dealerId: string,
  list: Lister<TuneRow, Page>,
): Promise<Omit<Page, "data"> & { data: PublicTuneFile[] }> {
  const row = await visibleProfileRow(db, null, dealerId);
  const scope = and(
    eq(tuneFiles.dealerUid, row.userUid),
    eq(tuneFiles.published, true),
    isNull(tuneFiles.repositoryId),
    sql`cardinality(${tuneFiles.buyerEmails}) = 0`,
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
  return { ...page, data: page.data.map(publicTuneOf) };
}

const publicTuneOf = (row: TuneRow): PublicTuneFile => ({
  id: row.id,
  dealerName: row.dealerName,
  firmwareId: row.firmwareId,
  title: row.title,
  description: row.description,
  priceCents: row.priceCents,
  currency: row.currency as PublicTuneFile["currency"],
  mayView: row.mayView,
  mayDownload: row.mayDownload,
  updatedAt: row.updatedAt.toISOString(),
});
