/**
 * The catalogue of byte patches: reading, saving (admins; a patch must fit every firmware it names)
 * and deleting one no kept bake uses, which firmware and tunes a patch fits, and applying patches
 * to an image. Each change is audited in its transaction.
 */
import { and, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import type { z } from "zod";
import type { tuneFilePatchInputSchema } from "../../contracts/tune-files";
import { patchState } from "../../domain/tune";
import type { AppContext } from "../context";
import type { Db } from "../db/connection";
import { bakedTuneFiles, tuneFilePatches, tuneFiles } from "../db/schema";
import { actorFrom, changedFields, writeAudit } from "./audit";
import { notFound } from "./errors";
import { firmwareRecord, type PatchRow, patchOf, requireIdentified } from "./firmware-support/reads";
import type { VerifiedCaller } from "./identity";
import type { Lister } from "./list-pages";
import { checkPatchAgainstFirmware } from "./patch-fit";
import { stillUsed } from "./still-used";
import { isAdmin, versionRow } from "./tune-access";
import { applyPatches } from "./tune-engine";
import { readImage, refuseFailingChecksums } from "./tune-files";

/** Who asks, as the audit trail names them. */
type Asker = Parameters<typeof actorFrom>[0];

/** What the trail keeps of a patch: all of it (a patch is a few bytes per entry). */
const patchAudited = (row: PatchRow) => ({
  title: row.title,
  description: row.description,
  firmwareIds: row.firmwareIds,
  entries: row.entries,
});

export async function patchPageOf<Page extends { data: PatchRow[] }>(db: Db, list: Lister<PatchRow, Page>) {
  return list(({ where, orderBy, limit, offset }) =>
    db
      .select()
      .from(tuneFilePatches)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset),
  );
}

export async function patchRowOf(db: Db, id: string): Promise<PatchRow> {
  const [row] = await db.select().from(tuneFilePatches).where(eq(tuneFilePatches.id, id));
  if (!row) throw notFound(`Tune-file patch ${id}`);
  return row;
}

/** Creates a patch, or updates the one `input.id` names; it must fit every firmware it names. */
export async function savePatch(
  ctx: AppContext,
  by: Asker,
  input: z.output<typeof tuneFilePatchInputSchema>,
): Promise<PatchRow> {
  return ctx.db.transaction(async (tx) => {
    await checkPatchAgainstFirmware(ctx, tx, input);
    const values = {
      title: input.title,
      description: input.description,
      firmwareIds: input.firmwareIds,
      entries: input.entries,
    };
    if (input.id) {
      const [current] = await tx.select().from(tuneFilePatches).where(eq(tuneFilePatches.id, input.id)).for("update");
      if (!current) throw notFound(`Tune-file patch ${input.id}`);
      const [updated] = await tx
        .update(tuneFilePatches)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(tuneFilePatches.id, input.id))
        .returning();
      await writeAudit(tx, actorFrom(by), {
        action: "tune-file-patch.updated",
        targetType: "tune-file-patch",
        targetId: updated.id,
        ...changedFields(patchAudited(current), patchAudited(updated)),
      });
      return updated;
    }
    const [created] = await tx.insert(tuneFilePatches).values(values).returning();
    await writeAudit(tx, actorFrom(by), {
      action: "tune-file-patch.created",
      targetType: "tune-file-patch",
      targetId: created.id,
      after: patchAudited(created),
    });
    return created;
  });
}

/** Deletes a patch: kept bakes would lose it at the next rebake; expired previews do not count. */
export async function deletePatch(db: Db, by: Asker, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(tuneFilePatches).where(eq(tuneFilePatches.id, id)).for("update");
    if (!row) throw notFound(`Tune-file patch ${id}`);
    const bakes = await tx
      .select({ id: bakedTuneFiles.id, vehicleId: bakedTuneFiles.vehicleId })
      .from(bakedTuneFiles)
      .where(
        and(
          sql`${bakedTuneFiles.patchIds} @> ARRAY[${id}]::uuid[]`,
          or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date())),
        ),
      )
      .limit(20);
    if (bakes.length)
      throw stillUsed(
        `Patch "${row.title}"`,
        bakes.map((b) => ({ resource: "baked tune file", id: b.id, label: `for vehicle ${b.vehicleId}` })),
      );
    await tx.delete(tuneFilePatches).where(eq(tuneFilePatches.id, id));
    await writeAudit(tx, actorFrom(by), {
      action: "tune-file-patch.deleted",
      targetType: "tune-file-patch",
      targetId: id,
      before: patchAudited(row),
    });
  });
}

/** The patch's state on each firmware's stock file it names, and on the caller's tunes of those firmware (every tune for an admin). */
export async function patchCompatibility(ctx: AppContext, caller: VerifiedCaller, id: string) {
  const { db } = ctx;
  const row = await patchRowOf(db, id);
  const patch = patchOf(row);
  const firmware = [];
  for (const firmwareId of row.firmwareIds) {
    const record = await firmwareRecord(db, firmwareId).catch(() => null);
    firmware.push({
      firmwareId,
      known: record !== null,
      stockState: record?.stockSha256 ? patchState(await readImage(ctx, record.stockSha256), patch).state : null,
    });
  }
  const tunes = await db
    .select()
    .from(tuneFiles)
    .where(
      and(
        inArray(tuneFiles.firmwareId, row.firmwareIds),
        isAdmin(caller) ? undefined : eq(tuneFiles.dealerUid, caller.uid),
      ),
    )
    .orderBy(tuneFiles.title)
    .limit(100);
  const tuneStates = [];
  for (const tune of tunes) {
    const version = await versionRow(db, tune.id, tune.currentVersion);
    tuneStates.push({
      id: tune.id,
      title: tune.title,
      firmwareId: tune.firmwareId,
      version: version.number,
      state: patchState(await readImage(ctx, version.sha256), patch).state,
    });
  }
  return { firmware, tuneFiles: tuneStates };
}

/**
 * Applies patches to an image (in place) and reports its checksums after they are fixed. An
 * image whose checksums already fail is refused unless `fixChecksums`: patching must not hide a
 * bad read.
 */
export async function patchImage(ctx: AppContext, image: Uint8Array, patchIds: string[], fixChecksums: boolean) {
  const record = requireIdentified(await ctx.catalogue.identify(image));
  if (!fixChecksums) refuseFailingChecksums(image, record);
  const patches = await ctx.catalogue.patches(patchIds);
  const outcome = await applyPatches(image, patches, {
    firmwareId: record.firmwareId,
    checksums: record.checksums,
    inPlace: true,
  });
  const fix = outcome.checksums!;
  const report = {
    firmwareId: record.firmwareId,
    size: outcome.image.length,
    patches: outcome.patches,
    fixed: fix.fixed,
    checksums: fix.results.map(({ name, type, valid, stored, computed }) => ({ name, type, valid, stored, computed })),
  };
  return { image: outcome.image, report };
}
