/**
 * A dealer's published catalogue as the caller may see it: tunes offered to named buyers or to a
 * repository's members only stay with them; the dealer themself and admins see every published tune.
 */
import { and, eq } from "drizzle-orm";
import type { TuneFile } from "../../../contracts/tune-files";
import type { Db } from "../../db/handle";
import { tuneFiles } from "../../db/schema";
import type { VerifiedCaller } from "../identity";
import type { Lister } from "../list-pages";
import { isAdmin, type TuneRow } from "../tune-access";
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
