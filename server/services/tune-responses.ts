/** The API shapes of tune files, their versions and patches, bakes and vehicles, shared by the routes that answer them. */
import type { BakedTuneFile, TuneFile, TuneFilePatch, TuneFileVersion, VehicleTunes } from "../../contracts/tune-files";
import type { Db } from "../db/connection";
import type { tuneFilePatches } from "../db/schema";
import type { VerifiedCaller } from "./identity";
import { type BakedRow, bakeAccess, type TuneRow, type VehicleRow, type VersionRow, versionsOf } from "./tune-access";

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export const versionToApi = (row: VersionRow): TuneFileVersion => ({
  number: row.number,
  label: row.label,
  notes: row.notes,
  sha256: row.sha256,
  size: row.size,
  checksums: row.checksums as TuneFileVersion["checksums"],
  createdAt: row.createdAt.toISOString(),
});

export const patchToApi = (row: typeof tuneFilePatches.$inferSelect): TuneFilePatch => ({
  id: row.id,
  title: row.title,
  description: row.description,
  firmwareIds: row.firmwareIds,
  entries: row.entries,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Owners and admins get the versions with the detail; lists and buyers do not. */
export async function tuneToApi(db: Db, row: TuneRow, access: TuneFile["access"], detail = true): Promise<TuneFile> {
  const versions = detail && access.owner ? (await versionsOf(db, row.id)).map(versionToApi) : undefined;
  return {
    id: row.id,
    dealerUid: row.dealerUid,
    dealerName: row.dealerName,
    firmwareId: row.firmwareId,
    title: row.title,
    description: row.description,
    currentVersion: row.currentVersion,
    published: row.published,
    priceCents: row.priceCents,
    currency: row.currency as TuneFile["currency"],
    // Who else may buy is the dealer's list, not something to show other customers.
    buyerEmails: access.owner ? row.buyerEmails : [],
    mayView: row.mayView,
    mayDownload: row.mayDownload,
    repositoryId: row.repositoryId,
    access,
    ...(versions && { versions }),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function bakedToApi(db: Db, row: BakedRow, caller: VerifiedCaller): Promise<BakedTuneFile> {
  const access = await bakeAccess(db, row, caller);
  const report = row.report as Record<string, unknown>;
  // Without view rights the carried ranges would show where the tune differs from stock.
  const shown = access.view
    ? report
    : {
        firmwareId: report.firmwareId,
        patches: report.patches,
        fixPasses: report.fixPasses,
        checksums: report.checksums,
      };
  return {
    id: row.id,
    vehicleId: row.vehicleId,
    firmwareId: row.firmwareId,
    tuneFileId: row.tuneFileId,
    tuneVersion: row.tuneVersion,
    patchIds: row.patchIds,
    sha256: row.sha256,
    size: row.size,
    slot: row.slot,
    expiresAt: iso(row.expiresAt),
    report: shown,
    download: access.download,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const vehicleToApi = (vehicle: VehicleRow): VehicleTunes["vehicle"] => ({
  id: vehicle.id,
  name: vehicle.name,
  vin: vehicle.vin,
  firmwareId: vehicle.firmwareId,
  stockDump: vehicle.stockDumpSha256
    ? { sha256: vehicle.stockDumpSha256, size: vehicle.stockDumpSize!, slot: vehicle.stockDumpSlot }
    : null,
});
