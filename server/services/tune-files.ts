/**
 * What the tune-file routes share: inspecting an image (an upload, or a tune
 * with patches applied), reading images from the blob store, and baking for a
 * vehicle (firmware records are read in ./firmware-support/reads, domain refusals
 * mapped once by the error handler, server/errors.ts). The bytes work is all
 * domain/tune; this file only fetches what it needs from the database and the
 * blob store.
 */

import type { z } from "zod";
import type { Patch } from "../../contracts/tune-definition";
import type { Inspection, InspectionChange, inspectPatchSchema, LocalInspection } from "../../contracts/tune-files";
import { type ChecksumResult, diffImages, patchState } from "../../domain/tune";
import type { AppContext } from "../context";
import { forbidden, Refusal } from "./errors";
import {
  definitionOf,
  type FirmwareIdentity,
  type FirmwareRecord,
  firmwareRecord,
  patchesForFirmware,
  patchOf,
} from "./firmware-support/reads";
import { sha256Hex } from "./hashing";
import type { VerifiedCaller } from "./identity";
import { versionRow, visibleTune } from "./tune-access";
import { applyPatches, type BakeResult, bake, verifyAll } from "./tune-engine";

/** Refuses an image whose checksums fail, naming each failing scheme: a failing checksum is reported, never fixed unless the caller asks. */
export function refuseFailingChecksums(image: Uint8Array, record: FirmwareIdentity, what = "the file"): void {
  refuseFailing(verifyAll(image, record.checksums), what);
}

/** refuseFailingChecksums on results already computed, so an upload's image is verified once. */
export function refuseFailing(results: readonly ChecksumResult[], what = "the file"): void {
  const failing = results.filter((r) => !r.valid);
  if (failing.length === 0) return;
  throw new Refusal(
    "unprocessable",
    "Checksum does not verify",
    `${what} fails checksum ${failing.map((r) => `"${r.name}" (stored ${r.stored}, computed ${r.computed})`).join(", ")}. Choose to fix the failing checksums when saving and they are corrected for you (fixChecksums=true through the API), or correct them in your tuning software and upload the file again`,
    failing.map(({ name, type, stored, computed }) => ({
      path: "file",
      message: `checksum "${name}" does not verify`,
      scheme: name,
      type,
      stored,
      computed,
    })),
  );
}

export const sha256Of = (bytes: Uint8Array) => sha256Hex(bytes);

/**
 * The inspection report of an image (contracts/tune-files Inspection).
 * `changes` compares with the firmware's stock file and needs `view`; a
 * caller who may not view a protected tune gets checksums and patch states only.
 */
export async function inspect(
  ctx: AppContext,
  image: Uint8Array,
  options: { record?: FirmwareIdentity | FirmwareRecord | null; view?: boolean; reason?: string | null } = {},
): Promise<Inspection> {
  const notes: string[] = [];
  let record = options.record;
  if (record === undefined) {
    const found = await ctx.catalogue.identify(image);
    record = found.record;
    if (found.reason) notes.push(found.reason);
  } else if (options.reason) notes.push(options.reason);
  const base = { size: image.length, sha256: sha256Of(image) };
  if (!record) return { firmwareId: null, ...base, checksums: [], patches: [], changes: null, notes };
  const checksums = verifyAll(image, record.checksums).map(({ name, type, valid, stored, computed }) => ({
    name,
    type,
    valid,
    stored,
    computed,
  }));
  const patches = (await patchesForFirmware(ctx.db, record.firmwareId)).map((row) => ({
    id: row.id,
    title: row.title,
    state: patchState(image, patchOf(row)).state,
  }));
  let changes: InspectionChange[] | null = null;
  if (options.view === false)
    notes.push("the changes against stock are hidden: the tune's author does not let buyers view them");
  else if (!record.stockSha256) notes.push(`firmware ${record.firmwareId} has no stock file to compare with`);
  else {
    const stock = new Uint8Array(await ctx.blobs.read(record.stockSha256));
    const definition = "definition" in record ? record.definition : await definitionOf(ctx.db, record.firmwareId);
    changes = await diffImages(stock, image, { definition: definition ?? undefined, checksums: record.checksums });
  }
  return { firmwareId: record.firmwareId, ...base, checksums, patches, changes, notes };
}

/** Reads a blob as a fresh Uint8Array (the domain's in-place writes must not touch a shared buffer). */
export async function readImage(ctx: AppContext, sha256: string): Promise<Uint8Array> {
  const buffer = await ctx.blobs.read(sha256);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/**
 * Images the tune viewer reads again and again (one map at a time, of the
 * tune and its base), kept by SHA-256: blobs never change under their hash.
 * Shared, so for reading only; bounded by bytes, least recently used first out.
 */
const sharedImages = new Map<string, Promise<Uint8Array>>();
/** Sizes of the images read so far; one still being read has none and is not evicted. */
const sharedSizes = new Map<string, number>();
const SHARED_LIMIT_BYTES = 64 * 1024 * 1024;

function evictShared(): void {
  let total = 0;
  for (const size of sharedSizes.values()) total += size;
  for (const key of sharedImages.keys()) {
    if (total <= SHARED_LIMIT_BYTES) break;
    const size = sharedSizes.get(key);
    if (size === undefined) continue;
    sharedImages.delete(key);
    sharedSizes.delete(key);
    total -= size;
  }
}

export function readImageShared(ctx: AppContext, sha256: string): Promise<Uint8Array> {
  const cached = sharedImages.get(sha256);
  if (cached) {
    // Most recently used goes last: eviction walks from the front.
    sharedImages.delete(sha256);
    sharedImages.set(sha256, cached);
    return cached;
  }
  const reading = readImage(ctx, sha256).then(
    (image) => {
      if (sharedImages.get(sha256) === reading) {
        sharedSizes.set(sha256, image.length);
        evictShared();
      }
      return image;
    },
    (error: unknown) => {
      sharedImages.delete(sha256);
      throw error;
    },
  );
  sharedImages.set(sha256, reading);
  return reading;
}

export interface BakeSources {
  record: FirmwareIdentity;
  dumpSha256: string;
  /** A tune version's blob (by SHA-256), carried over its firmware's stock file; or a supplied image (direct bake). */
  tune: string | Uint8Array;
  direct: boolean;
  patches: readonly Patch[];
}

/** Bakes from stored blobs; a direct bake carries the supplied image over the vehicle's own dump. */
export async function bakeFromBlobs(ctx: AppContext, sources: BakeSources): Promise<BakeResult> {
  const { record } = sources;
  const stockDump = await readImage(ctx, sources.dumpSha256);
  const tuneImage = typeof sources.tune === "string" ? await readImage(ctx, sources.tune) : sources.tune;
  let tuneStock = stockDump;
  if (!sources.direct) {
    if (!record.stockSha256) {
      throw new Refusal(
        "unprocessable",
        "No stock file",
        `Firmware ${record.firmwareId} has no stock file, so the tune's changes cannot be told from its base; an admin uploads it in firmware support`,
      );
    }
    tuneStock = await readImage(ctx, record.stockSha256);
  }
  return bake({ stockDump, tuneImage, tuneStock, patches: sources.patches, firmware: record });
}

/** An uploaded image's inspection; with `withDefinition`, the identified firmware's definition too: whoever holds an image may see its maps. */
export async function inspectUpload(ctx: AppContext, image: Uint8Array, withDefinition: boolean) {
  const report: LocalInspection = await inspect(ctx, image);
  if (withDefinition) report.definition = report.firmwareId ? await definitionOf(ctx.db, report.firmwareId) : null;
  return report;
}

/** The inspection of a tune (a version of it) with patches applied, for its owner or a buyer to preview. */
export async function previewPatches(
  ctx: AppContext,
  caller: VerifiedCaller,
  body: z.output<typeof inspectPatchSchema>,
) {
  const { db } = ctx;
  const { row, access } = await visibleTune(db, body.tuneFileId, caller);
  if (!access.owner && !access.bought) throw forbidden("Buy the tune first to preview patches on it");
  const version = await versionRow(db, row.id, body.version ?? row.currentVersion);
  const record = await firmwareRecord(db, row.firmwareId);
  const patches = await ctx.catalogue.patches(body.patchIds);
  const image = await readImage(ctx, version.sha256);
  const outcome = await applyPatches(image, patches, {
    firmwareId: record.firmwareId,
    checksums: record.checksums,
    inPlace: true,
  });
  const report = await inspect(ctx, outcome.image, { record, view: access.view });
  return { ...report, applied: outcome.patches, fixed: outcome.checksums?.fixed ?? [] };
}
