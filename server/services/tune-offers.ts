/**
 * Who a published tune is offered to: a tune in one of its dealer's repositories only to that
 * repository's members; any other tune to everyone, or to the customers its dealer listed by
 * email. The same rule as a SQL condition (lists, a dealer's catalogue) and for one tune (the
 * tune's page, an order), so the storefront never shows what the checkout would refuse.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/connection";
import type { Tx } from "../db/handle";
import { repositoryAccess, tuneFiles, tuneRepositories } from "../db/schema";
import type { VerifiedCaller } from "./identity";

type Handle = Tx | Db;

const emailOf = (caller: VerifiedCaller) => (caller.email ?? "").toLowerCase();

/** True for the rows of `tune_files` offered to the caller (published or not: combine with `published`). */
export function offeredToSql(caller: VerifiedCaller): SQL {
  const member = sql`EXISTS (SELECT 1 FROM ${repositoryAccess} WHERE ${repositoryAccess.repositoryId} = ${tuneFiles.repositoryId} AND ${repositoryAccess.userUid} = ${caller.uid})`;
  const listed = sql`(cardinality(${tuneFiles.buyerEmails}) = 0 OR ${emailOf(caller)} = ANY(${tuneFiles.buyerEmails}))`;
  return sql`(CASE WHEN ${tuneFiles.repositoryId} IS NULL THEN ${listed} ELSE ${member} END)`;
}

export interface Offer {
  /** The caller may buy it (when it is published). */
  offered: boolean;
  /** A member of a repository whose dealer gives its tunes to members at no charge. */
  free: boolean;
}

/** The two columns of a tune row the offer depends on (a plain row type: tune-access imports this file). */
type OfferedRow = Pick<typeof tuneFiles.$inferSelect, "repositoryId" | "buyerEmails">;

export async function offerOf(db: Handle, row: OfferedRow, caller: VerifiedCaller): Promise<Offer> {
  if (!row.repositoryId)
    return { offered: row.buyerEmails.length === 0 || row.buyerEmails.includes(emailOf(caller)), free: false };
  const [membership] = await db
    .select({ free: tuneRepositories.freeForMembers })
    .from(repositoryAccess)
    .innerJoin(tuneRepositories, eq(tuneRepositories.id, repositoryAccess.repositoryId))
    .where(and(eq(repositoryAccess.repositoryId, row.repositoryId), eq(repositoryAccess.userUid, caller.uid)));
  return { offered: Boolean(membership), free: membership?.free ?? false };
}
