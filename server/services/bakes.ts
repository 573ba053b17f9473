/** Bakes of a tune onto a vehicle's stock read, kept or temporary; the stock read they start from. */
import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Db } from "../db/connection";
import type { Tx } from "../db/handle";
import { bakedTuneFiles, tuneFilePurchases, userVehicles } from "../db/schema";
import { auditChangeTo } from "./audit";
import { forbidden, notFound, Refusal } from "./errors";
import { type FirmwareRecord, firmwareRecord } from "./firmware-support/reads";
import type { VerifiedCaller } from "./identity";
import type { Requester } from "./requester";
import { bakedRow, isAdmin, type VehicleRow, vehicleFor } from "./tune-access";
import type { bakeFromBlobs } from "./tune-files";

/** Temp bakes live a day: long enough to preview and flash, short enough not to pile up. */
export const TEMP_BAKE_MS = 24 * 60 * 60 * 1000;

/** The vehicle's stock read and its firmware record; 409 when there is none yet. */
export function dumpOf(db: Db, vehicle: VehicleRow): { sha256: string; record: Promise<FirmwareRecord> } {
  if (!vehicle.stockDumpSha256 || !vehicle.firmwareId) {
    throw new Refusal(
      "conflict",
      "No stock read",
      `Vehicle ${vehicle.name} has no stock read yet; upload one with upload-tune-dump first`,
    );
  }
  return { sha256: vehicle.stockDumpSha256, record: firmwareRecord(db, vehicle.firmwareId) };
}

export async function storeBake(
  ctx: AppContext,
  values: Omit<typeof bakedTuneFiles.$inferInsert, "sha256" | "size" | "report">,
  result: Awaited<ReturnType<typeof bakeFromBlobs>>,
  audit?: (tx: Tx, row: typeof bakedTuneFiles.$inferSelect) => Promise<void>,
) {
  await ctx.blobs.put(result.image);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(bakedTuneFiles)
      .values({
        ...values,
        sha256: result.sha256,
        size: result.image.length,
        report: result.report as unknown as Record<string, unknown>,
      })
      .returning();
    await audit?.(tx, row);
    return row;
  });
}

/**
 * Replaces the vehicle's stock read with an accepted upload (its firmware, blob and slot), audited
 * when someone other than the owner does it.
 */
export async function replaceStockRead(
  db: Db,
  request: { caller: VerifiedCaller | null; id: string },
  vehicle: VehicleRow,
  file: { sha256: string; size: number },
  firmwareId: string,
  slot: number,
) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(userVehicles)
      .set({
        firmwareId,
        stockDumpSha256: file.sha256,
        stockDumpSize: file.size,
        stockDumpSlot: slot,
        stockDumpUploadedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(userVehicles.id, vehicle.id))
      .returning();
    await auditChangeTo(tx, request, vehicle.ownerUid, {
      action: "vehicle.stock-read-replaced",
      targetType: "vehicle",
      targetId: vehicle.id,
      before: {
        firmwareId: vehicle.firmwareId,
        stockDumpSha256: vehicle.stockDumpSha256,
        stockDumpSlot: vehicle.stockDumpSlot,
      },
      after: {
        firmwareId: row.firmwareId,
        stockDumpSha256: row.stockDumpSha256,
        stockDumpSlot: row.stockDumpSlot,
      },
    });
    return row;
  });
}

/** Whether the tune was bought for the vehicle. */
export async function boughtFor(db: Db, tuneFileId: string, vehicleId: string): Promise<boolean> {
  const [purchase] = await db
    .select({ id: tuneFilePurchases.id })
    .from(tuneFilePurchases)
    .where(and(eq(tuneFilePurchases.tuneFileId, tuneFileId), eq(tuneFilePurchases.vehicleId, vehicleId)));
  return purchase !== undefined;
}

/** The ids of the tunes bought for the vehicle. */
export async function tunesBoughtFor(db: Db, vehicleId: string) {
  return db
    .select({ tuneFileId: tuneFilePurchases.tuneFileId })
    .from(tuneFilePurchases)
    .where(eq(tuneFilePurchases.vehicleId, vehicleId));
}

/** The vehicle's kept bakes and unexpired temporary ones, newest first (at most 100). */
export async function liveBakesOf(db: Db, vehicleId: string) {
  return db
    .select()
    .from(bakedTuneFiles)
    .where(
      and(
        eq(bakedTuneFiles.vehicleId, vehicleId),
        or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date())),
      ),
    )
    .orderBy(desc(bakedTuneFiles.createdAt))
    .limit(100);
}

/** Deletes a bake: the owner's bakes are theirs; a dealer who manages the car deletes only the bakes they made. */
export async function deleteBake(db: Db, by: Requester, id: string): Promise<void> {
  const { caller } = by;
  const row = await bakedRow(db, id);
  const { owner, vehicle } = await vehicleFor(db, row.vehicleId, caller).catch(() => {
    throw notFound(`Baked tune file ${row.id}`);
  });
  if (!owner && !isAdmin(caller) && row.createdBy !== caller.uid)
    throw forbidden("Only the vehicle's owner, an admin or whoever made the bake may delete it");
  const vehicleOwner = vehicle.ownerUid;
  await db.transaction(async (tx) => {
    await tx.delete(bakedTuneFiles).where(eq(bakedTuneFiles.id, row.id));
    await auditChangeTo(tx, by, vehicleOwner, {
      action: "baked-tune-file.deleted",
      targetType: "baked-tune-file",
      targetId: row.id,
      before: {
        vehicleId: row.vehicleId,
        tuneFileId: row.tuneFileId,
        tuneVersion: row.tuneVersion,
        sha256: row.sha256,
        createdBy: row.createdBy,
      },
    });
  });
}
