/** Bakes of a tune onto a vehicle's stock read, kept or temporary. */
import type { AppContext } from "../context";
import type { Db } from "../db/connection";
import type { Tx } from "../db/handle";
import { bakedTuneFiles } from "../db/schema";
import { HttpError } from "../errors";
import { type FirmwareRecord, firmwareRecord } from "./firmware-records";
import type { VehicleRow } from "./tune-access";
import type { bakeFromBlobs } from "./tune-files";

/** Temp bakes live a day: long enough to preview and flash, short enough not to pile up. */
export const TEMP_BAKE_MS = 24 * 60 * 60 * 1000;

/** The vehicle's stock read and its firmware record; 409 when there is none yet. */
export function dumpOf(db: Db, vehicle: VehicleRow): { sha256: string; record: Promise<FirmwareRecord> } {
  if (!vehicle.stockDumpSha256 || !vehicle.firmwareId) {
    throw new HttpError(
      409,
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
