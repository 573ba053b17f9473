/**
 * A vehicle's side of tuning: baking a bought tune (a temporary preview) or a dealer's supplied
 * image (kept) onto the car's stock read, each bake on someone else's car audited, and the tunes
 * bought for the car with its live bakes.
 */
import type { BakedTuneFile, VehicleTunes } from "../../contracts/tune-files";
import type { AppContext } from "../context";
import type { Tx } from "../db/handle";
import type { bakedTuneFiles } from "../db/schema";
import { auditChangeTo } from "./audit";
import { boughtFor, dumpOf, liveBakesOf, storeBake, TEMP_BAKE_MS, tunesBoughtFor } from "./bakes";
import { FirmwareRefusal, forbidden, invalid } from "./errors";
import type { VerifiedCaller } from "./identity";
import { accessOf, isAdmin, tuneRow, type VehicleRow, vehicleFor, versionRow } from "./tune-access";
import { bakeFromBlobs } from "./tune-files";
import { bakedToApi, tuneToApi, vehicleToApi } from "./tune-responses";
import { firmwareOfImage, imageOf } from "./tune-uploads";
import type { UploadedFile } from "./uploaded-file";

/** Who asks, for the audit trail: the caller and the request's id. */
type Requester = { caller: VerifiedCaller; id: string };

/** A bake made on someone else's car (its dealer, an admin): one audit row in the bake's transaction. */
const auditBake = (request: Requester, vehicle: VehicleRow) => (tx: Tx, row: typeof bakedTuneFiles.$inferSelect) =>
  auditChangeTo(tx, request, vehicle.ownerUid, {
    action: "baked-tune-file.created",
    targetType: "baked-tune-file",
    targetId: row.id,
    after: {
      vehicleId: vehicle.id,
      tuneFileId: row.tuneFileId,
      tuneVersion: row.tuneVersion,
      patchIds: row.patchIds,
      sha256: row.sha256,
      temporary: row.expiresAt !== null,
    },
  });

/**
 * Bakes the tune's current version (with the patches named) onto the stock read, into `slot`, as
 * a preview that expires: for a tune bought for the car, or by the tune's dealer or an admin.
 */
export async function bakeBoughtTune(
  ctx: AppContext,
  request: Requester,
  vehicleId: string,
  slot: number,
  body: { tuneFileId: string; patchIds: string[] },
): Promise<BakedTuneFile> {
  const { db } = ctx;
  const { caller } = request;
  const { vehicle } = await vehicleFor(db, vehicleId, caller);
  const dump = dumpOf(db, vehicle);
  const tune = await tuneRow(db, body.tuneFileId).catch(() => {
    throw invalid("Invalid body", `no tune file ${body.tuneFileId}`, [
      { path: "tuneFileId", message: "no such tune file" },
    ]);
  });
  const isOwnerDealer = isAdmin(caller) || tune.dealerUid === caller.uid;
  if (!isOwnerDealer) {
    if (!(await boughtFor(db, tune.id, vehicle.id)))
      throw forbidden(`Tune "${tune.title}" was not bought for vehicle ${vehicle.name}`);
  }
  const record = await dump.record;
  if (tune.firmwareId !== record.firmwareId) {
    const message = `the tune is for ${tune.firmwareId}; the vehicle runs ${record.firmwareId}`;
    throw new FirmwareRefusal("Wrong firmware", message, "tuneFileId");
  }
  const version = await versionRow(db, tune.id, tune.currentVersion);
  const patches = await ctx.catalogue.patches(body.patchIds);
  const result = await bakeFromBlobs(ctx, {
    record,
    dumpSha256: dump.sha256,
    tune: version.sha256,
    direct: false,
    patches,
  });
  const row = await storeBake(
    ctx,
    {
      vehicleId: vehicle.id,
      firmwareId: record.firmwareId,
      tuneFileId: tune.id,
      tuneVersion: version.number,
      patchIds: body.patchIds,
      slot,
      expiresAt: new Date(Date.now() + TEMP_BAKE_MS),
      createdBy: caller.uid,
    },
    result,
    auditBake(request, vehicle),
  );
  return bakedToApi(db, row, caller);
}

/**
 * Bakes a dealer's supplied image (for the car's firmware, with the patches named) onto the stock
 * read; the image is kept only once the bake succeeded, so rebake-all starts again from it.
 * `vehicle` and `dump` are found before the upload is read.
 */
export async function bakeSuppliedImage(
  ctx: AppContext,
  request: Requester,
  vehicle: VehicleRow,
  dump: ReturnType<typeof dumpOf>,
  file: UploadedFile,
  patchIds: string[],
): Promise<BakedTuneFile> {
  const record = await dump.record;
  const supplied = await imageOf(file);
  await firmwareOfImage(ctx, supplied, { firmwareId: record.firmwareId, of: "This car's read" });
  const patches = await ctx.catalogue.patches(patchIds);
  const result = await bakeFromBlobs(ctx, {
    record,
    dumpSha256: dump.sha256,
    tune: supplied,
    direct: true,
    patches,
  });
  await ctx.blobs.adopt(file.path, file.sha256);
  const row = await storeBake(
    ctx,
    {
      vehicleId: vehicle.id,
      firmwareId: record.firmwareId,
      sourceSha256: file.sha256,
      patchIds,
      createdBy: request.caller.uid,
    },
    result,
    auditBake(request, vehicle),
  );
  return bakedToApi(ctx.db, row, request.caller);
}

/** The tunes bought for a car the caller reaches, and its live bakes. */
export async function vehicleTunesOf(
  ctx: AppContext,
  caller: VerifiedCaller,
  vehicleId: string,
): Promise<VehicleTunes> {
  const { db } = ctx;
  const { vehicle } = await vehicleFor(db, vehicleId, caller);
  const purchases = await tunesBoughtFor(db, vehicle.id);
  const bought = [];
  for (const { tuneFileId } of purchases) {
    const row = await tuneRow(db, tuneFileId);
    // Bought for this vehicle: its owner holds the licence, whoever else is looking.
    bought.push(await tuneToApi(db, row, accessOf(row, caller, true), false));
  }
  const baked = await liveBakesOf(db, vehicle.id);
  return {
    vehicle: vehicleToApi(vehicle),
    bought,
    baked: await Promise.all(baked.map((row) => bakedToApi(db, row, caller))),
  };
}
