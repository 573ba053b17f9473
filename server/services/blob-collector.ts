/**
 * Removes files of the blob stores that no record refers to any more: a deleted tune's versions,
 * a replaced stock read, an expired preview bake, a data log's file a crash left without its row.
 * Mark and sweep over every column that holds a blob's SHA-256, per store; a file stored within
 * the grace period is kept whatever the records say, because the request that stored it may not
 * have committed its row yet. Flash logs keep a SHA-256 as history, not a file, and do not hold
 * blobs.
 *
 * It also removes what an interrupted process left: in each store, writes it began (`put-*` temp
 * files on disk, unfinished multipart uploads in a bucket) older than the grace period, and the
 * request temp files that outlived the request time-out (temp-files.ts).
 */

import { isNotNull, lt } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { AppContext } from "../context";
import type { Db } from "../db/handle";
import {
  bakedTuneFiles,
  dataLogs,
  dealerProfiles,
  firmwareSupport,
  formatRequests,
  profileChangeFiles,
  profilePictures,
  supportRequests,
  tuneFileVersions,
  tuningRequestFiles,
  tuningRequests,
  userVehicles,
} from "../db/schema";
import type { BlobStore, StoredBlob } from "./blob-store";
import type { JobContext } from "./queue";
import { removeStaleTempFiles, tempFileMaxAgeMs } from "./temp-files";

export const BLOB_GRACE_MS = 60 * 60 * 1000;

/** What holds a file of `ctx.blobs`. */
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

/** What holds a file of `ctx.dataLogBlobs`: a log (its upload and its columnar form) or a format request. */
const DATA_LOG_HOLDERS: PgColumn[] = [dataLogs.fileSha256, dataLogs.columnsSha256, formatRequests.fileSha256];

/** Each store with the columns that hold its files: what a backup copies, what the collector keeps. */
export const STORE_HOLDERS = { blobs: HOLDERS, dataLogBlobs: DATA_LOG_HOLDERS } as const;

export interface BlobCollection {
  kept: number;
  removed: number;
  removedBytes: number;
  /** Writes into a store an interrupted process began: temp files on disk, multipart uploads in a bucket. */
  removedLeftovers: number;
  /** Request temp files left by an interrupted process (not counted above). */
  removedTempFiles: number;
}

export interface CollectOptions {
  graceMs?: number;
  tempMaxAgeMs?: number;
  progress?: JobContext;
  /** The clock, which tests move instead of waiting. */
  now?: () => number;
}

/** The hashes the holders' rows refer to. */
export async function referencedBy(db: Db, holders: PgColumn[]): Promise<Set<string>> {
  const referenced = new Set<string>();
  for (const column of holders) {
    const rows = await db.selectDistinct({ sha256: column }).from(column.table).where(isNotNull(column));
    for (const row of rows) referenced.add(row.sha256 as string);
  }
  return referenced;
}

/** Removes the listed blobs no holder refers to and stored before the cutoff, counting into `result`. */
async function sweep(
  store: BlobStore,
  blobs: StoredBlob[],
  referenced: Set<string>,
  times: { cutoff: number; startedAt: number },
  result: BlobCollection,
  progress?: JobContext,
) {
  for (const blob of blobs) {
    if (
      referenced.has(blob.sha256) ||
      blob.storedAt > times.cutoff ||
      !(await store.remove(blob.sha256, times.startedAt))
    )
      result.kept += 1;
    else {
      result.removed += 1;
      result.removedBytes += blob.size;
    }
    progress?.step();
  }
  result.removedLeftovers += await store.removeLeftovers(times.cutoff);
}

export async function collectBlobs(
  ctx: Pick<AppContext, "db" | "blobs" | "dataLogBlobs" | "config">,
  options: CollectOptions = {},
): Promise<BlobCollection> {
  const startedAt = (options.now ?? Date.now)();
  const cutoff = startedAt - (options.graceMs ?? BLOB_GRACE_MS);
  // Expired preview bakes are gone for their users (reads answer 404); their rows go first so their files can follow.
  await ctx.db.delete(bakedTuneFiles).where(lt(bakedTuneFiles.expiresAt, new Date(cutoff)));
  const stores = [
    { store: ctx.blobs, holders: STORE_HOLDERS.blobs },
    { store: ctx.dataLogBlobs, holders: STORE_HOLDERS.dataLogBlobs },
  ];
  // Listed before the references are read: a blob whose row commits in between is then seen as held.
  const listed = [];
  for (const { store } of stores) listed.push(await store.list());
  options.progress?.setTotal(listed.reduce((total, blobs) => total + blobs.length, 0));
  const result: BlobCollection = { kept: 0, removed: 0, removedBytes: 0, removedLeftovers: 0, removedTempFiles: 0 };
  for (const [i, { store, holders }] of stores.entries()) {
    const referenced = await referencedBy(ctx.db, holders);
    await sweep(store, listed[i], referenced, { cutoff, startedAt }, result, options.progress);
  }
  const requestTemps = await removeStaleTempFiles(
    ctx.config.dataDir,
    options.tempMaxAgeMs ?? tempFileMaxAgeMs(ctx.config),
    startedAt,
  );
  result.removedTempFiles = requestTemps.removed;
  return result;
}
