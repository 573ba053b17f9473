/**
 * A dealer's tune files as records: the list each caller may see, creating one with its first
 * version, changing its texts and terms, adding a version, and deleting one nobody bought. Each
 * change is written with its audit row in one transaction; what a caller may do is decided in
 * ./tune-access.
 */
import { and, eq, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  TuneFile,
  tuneFileCreateSchema,
  tuneFileUpdateSchema,
  tuneFileVersionSchema,
} from "../../contracts/tune-files";
import type { Db } from "../db/connection";
import { tuneFilePurchases, tuneFiles, tuneFileVersions, tuneRepositories, users } from "../db/schema";
import { auditChangeTo, changedFields } from "./audit";
import { invalid, notFound } from "./errors";
import type { VerifiedCaller } from "./identity";
import type { Lister } from "./list-pages";
import type { Requester } from "./requester";
import { stillUsed } from "./still-used";
import { accessOf, boughtBy, isAdmin, ownTune, type TuneRow, tuneColumns, tuneRow } from "./tune-access";
import { offeredToSql } from "./tune-offers";
import { tuneToApi } from "./tune-responses";
import type { acceptImage } from "./tune-uploads";

/** An image accepted for a tune (./tune-uploads acceptImage). */
export type AcceptedImage = Awaited<ReturnType<typeof acceptImage>>;

/** What the trail keeps of a tune file: its terms and texts (its versions are named by number). */
export const tuneAudited = (row: typeof tuneFiles.$inferSelect) => ({
  title: row.title,
  description: row.description,
  published: row.published,
  priceCents: row.priceCents,
  currency: row.currency,
  buyerEmails: row.buyerEmails,
  mayView: row.mayView,
  mayDownload: row.mayDownload,
  currentVersion: row.currentVersion,
  repositoryId: row.repositoryId,
});

/** The tune as its dealer (or an admin) sees it after a change. */
export async function ownedTuneToApi(db: Db, id: string, caller: VerifiedCaller): Promise<TuneFile> {
  const row = await tuneRow(db, id);
  return tuneToApi(db, row, accessOf(row, caller, false));
}

/** The tunes the caller may see (all of them for an admin): their own, bought, or offered to them for sale. */
export async function tuneFilePageOf<Page extends { data: TuneRow[] }>(
  db: Db,
  caller: VerifiedCaller,
  list: Lister<TuneRow, Page>,
): Promise<Omit<Page, "data"> & { data: TuneFile[] }> {
  const bought = sql`EXISTS (SELECT 1 FROM ${tuneFilePurchases} WHERE ${tuneFilePurchases.tuneFileId} = ${tuneFiles.id} AND ${tuneFilePurchases.customerUid} = ${caller.uid})`;
  const forSale = sql`(${tuneFiles.published} AND ${offeredToSql(caller)})`;
  return tunePageWithin(
    db,
    caller,
    list,
    isAdmin(caller) ? undefined : or(eq(tuneFiles.dealerUid, caller.uid), bought, forSale),
  );
}

/** A page of tunes within `scope`, each answered with what the caller may do with it. */
export async function tunePageWithin<Page extends { data: TuneRow[] }>(
  db: Db,
  caller: VerifiedCaller,
  list: Lister<TuneRow, Page>,
  scope: SQL | undefined,
): Promise<Omit<Page, "data"> & { data: TuneFile[] }> {
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
    page.data.map((row) => row.id),
  );
  const data = page.data.map((row) => tuneToApi(db, row, accessOf(row, caller, mine.has(row.id)), false));
  return { ...page, data: await Promise.all(data) };
}

/** A new tune file of the caller's with the accepted image as version 1; its id. */
export async function createTuneFile(
  db: Db,
  by: Requester,
  input: z.output<typeof tuneFileCreateSchema>,
  image: AcceptedImage,
): Promise<string> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(tuneFiles)
      .values({
        dealerUid: by.caller.uid,
        firmwareId: image.record.firmwareId,
        title: input.title,
        description: input.description,
      })
      .returning();
    await tx.insert(tuneFileVersions).values({
      tuneFileId: row.id,
      number: 1,
      label: input.version,
      notes: input.notes,
      sha256: image.sha256,
      size: image.size,
      checksums: image.checksums,
      createdBy: by.caller.uid,
    });
    // A dealer's own new tune is theirs; one an admin makes is audited.
    await auditChangeTo(tx, by, by.caller.uid, {
      action: "tune-file.created",
      targetType: "tune-file",
      targetId: row.id,
      after: { ...tuneAudited(row), sha256: image.sha256 },
    });
    return row.id;
  });
}

/** Changes a tune's texts, current version or repository (one of its dealer's). */
export async function updateTuneFile(
  db: Db,
  by: Requester,
  id: string,
  body: z.output<typeof tuneFileUpdateSchema>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.select({ id: tuneFiles.id }).from(tuneFiles).where(eq(tuneFiles.id, id)).for("update");
    const owned = await ownTune(tx, id, by.caller);
    if (body.currentVersion !== undefined) {
      const [exists] = await tx
        .select({ id: tuneFileVersions.id })
        .from(tuneFileVersions)
        .where(and(eq(tuneFileVersions.tuneFileId, id), eq(tuneFileVersions.number, body.currentVersion)));
      if (!exists)
        throw invalid("Invalid body", `no version ${body.currentVersion}`, [
          { path: "currentVersion", message: `no version ${body.currentVersion}` },
        ]);
    }
    if (body.repositoryId) {
      const [repository] = await tx
        .select({ id: tuneRepositories.id })
        .from(tuneRepositories)
        .where(and(eq(tuneRepositories.id, body.repositoryId), eq(tuneRepositories.dealerUid, owned.dealerUid)));
      if (!repository)
        throw invalid("Invalid body", `no repository ${body.repositoryId} of the tune's dealer`, [
          { path: "repositoryId", message: "no such repository of the tune's dealer" },
        ]);
    }
    const [updated] = await tx
      .update(tuneFiles)
      .set({ ...body, updatedAt: new Date() })
      .where(eq(tuneFiles.id, id))
      .returning();
    // An admin changing a dealer's tune is audited; the dealer's own edits are not.
    await auditChangeTo(tx, by, owned.dealerUid, {
      action: "tune-file.updated",
      targetType: "tune-file",
      targetId: id,
      ...changedFields(tuneAudited(owned), tuneAudited(updated)),
    });
  });
}

/** Deletes a tune nobody bought: a bought tune is a licence someone paid for, to unpublish instead. */
export async function deleteTuneFile(db: Db, by: Requester, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.select({ id: tuneFiles.id }).from(tuneFiles).where(eq(tuneFiles.id, id)).for("update");
    const row = await ownTune(tx, id, by.caller);
    const buyers = await tx
      .select({ id: tuneFilePurchases.id, vehicleId: tuneFilePurchases.vehicleId })
      .from(tuneFilePurchases)
      .where(eq(tuneFilePurchases.tuneFileId, id))
      .limit(20);
    if (buyers.length)
      throw stillUsed(
        `Tune file "${row.title}"`,
        buyers.map((b) => ({ resource: "purchase", id: b.id, label: `for vehicle ${b.vehicleId}` })),
      );
    await tx.delete(tuneFiles).where(eq(tuneFiles.id, id));
    await auditChangeTo(tx, by, row.dealerUid, {
      action: "tune-file.deleted",
      targetType: "tune-file",
      targetId: id,
      before: tuneAudited(row),
    });
  });
}

/** The accepted image as the tune's next version, which becomes its current one. */
export async function addTuneVersion(
  db: Db,
  by: Requester,
  id: string,
  input: z.output<typeof tuneFileVersionSchema>,
  image: AcceptedImage,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(tuneFiles).where(eq(tuneFiles.id, id)).for("update");
    if (!locked) throw notFound(`Tune file ${id}`);
    const [{ next }] = await tx
      .select({ next: sql<number>`coalesce(max(${tuneFileVersions.number}), 0)::int + 1` })
      .from(tuneFileVersions)
      .where(eq(tuneFileVersions.tuneFileId, id));
    await tx.insert(tuneFileVersions).values({
      tuneFileId: id,
      number: next,
      label: input.version,
      notes: input.notes,
      sha256: image.sha256,
      size: image.size,
      checksums: image.checksums,
      createdBy: by.caller.uid,
    });
    await tx.update(tuneFiles).set({ currentVersion: next, updatedAt: new Date() }).where(eq(tuneFiles.id, id));
    await auditChangeTo(tx, by, locked.dealerUid, {
      action: "tune-file.version-added",
      targetType: "tune-file",
      targetId: id,
      before: { currentVersion: locked.currentVersion },
      after: { currentVersion: next, label: input.version, sha256: image.sha256, size: image.size },
    });
  });
}
