/**
 * Removes files of the blob store that no record refers to any more: a
 * deleted tune's versions, a replaced stock read, an expired preview bake.
 * Mark and sweep over every column that holds a blob's SHA-256; a file stored
 * within the grace period is kept whatever the records say, because the
 * request that stored it may not have committed its row yet. Flash logs keep
 * a SHA-256 as history, not a file, and do not hold blobs.
 *
 * It also removes request temp files that outlived the request time-out (temp-files.ts): what a
 * process killed mid-upload left behind.
 */

import { rm } from "node:fs/promises";
import { isNotNull, lt } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { AppContext } from "../context";
import {
  bakedTuneFiles,
  dealerProfiles,
  firmwareSupport,
  profileChangeFiles,
  profilePictures,
  supportRequests,
  tuneFileVersions,
  tuningRequestFiles,
  tuningRequests,
  userVehicles,
} from "../db/schema";
import type { JobContext } from "./queue";
import { removeStaleTempFiles, tempFileMaxAgeMs } from "./temp-files";

export const BLOB_GRACE_MS = 60 * 60 * 1000;

const HOLDERS: PgColumn[] = [
  firmwareSupport.stockSha256,
  firmwareSupport.bootloaderSha256,
  supportRequests.readFileSha256,
  userVehicles.stockDumpSha256,
  tuneFileVersions.sha256,
  bakedTuneFiles.sha256,
  bakedTuneFiles.sourceSha256,
  profilePictures.sha256,
  tuningRequests.stockSha256,
  tuningRequestFiles.sha256,
  profileChangeFiles.sha256,
  dealerProfiles.logoSha256,
];

export interface BlobCollection {
  kept: number;
  removed: number;
  removedBytes: number;
  /** Request temp files left by an interrupted process (not counted above). */
  removedTempFiles: number;
}

export async function collectBlobs(
  ctx: Pick<AppContext, "db" | "blobs" | "config">,
  options: { graceMs?: number; tempMaxAgeMs?: number; progress?: JobContext } = {},
): Promise<BlobCollection> {
  const startedAt = Date.now();
  const cutoff = startedAt - (options.graceMs ?? BLOB_GRACE_MS);
  // Expired preview bakes are gone for their users (reads answer 404); their rows go first so their files can follow.
  await ctx.db.delete(bakedTuneFiles).where(lt(bakedTuneFiles.expiresAt, new Date(cutoff)));
  const { blobs, temps } = await ctx.blobs.list();
  options.progress?.setTotal(blobs.length + temps.length);
  const referenced = new Set<string>();
  for (const column of HOLDERS) {
    const rows = await ctx.db.selectDistinct({ sha256: column }).from(column.table).where(isNotNull(column));
    for (const row of rows) referenced.add(row.sha256 as string);
  }
  const result: BlobCollection = { kept: 0, removed: 0, removedBytes: 0, removedTempFiles: 0 };
  for (const blob of blobs) {
    if (referenced.has(blob.sha256) || blob.storedAt > cutoff || !(await ctx.blobs.remove(blob.sha256, startedAt)))
      result.kept += 1;
    else {
      result.removed += 1;
      result.removedBytes += blob.size;
    }
    options.progress?.step();
  }
  for (const temp of temps) {
    if (temp.storedAt <= cutoff) await rm(temp.path, { force: true });
    options.progress?.step();
  }
  const requestTemps = await removeStaleTempFiles(
    ctx.config.dataDir,
    options.tempMaxAgeMs ?? tempFileMaxAgeMs(ctx.config),
    startedAt,
  );
  result.removedTempFiles = requestTemps.removed;
  return result;
}
