/**
 * What the tune-file routes share: turning the domain's refusals into HTTP
 * answers, finding an image's firmware record, inspecting an image, and
 * baking for a vehicle. The bytes work is all domain/tune; this file
 * only fetches what it needs from the database and the blob store.
 */
import { eq, inArray, sql } from "drizzle-orm";
import type { Inspection, InspectionChange } from "../../contracts/tune-files";
import type { ChecksumScheme, IdentifyRule, Patch, TuneDefinition, TuneItem } from "../../contracts/tune-definition";
import type { AppContext } from "../context";
import type { Db } from "../db/connection";
import { firmwareSupport, tuneFilePatches } from "../db/schema";
import { TuneError, diffImages, identifyFirmware, patchState } from "../../domain/tune";
import { sha256Hex } from "./hashing";
import { type BakeResult, bake, verifyAll } from "./tune-engine";
import { HttpError } from "../errors";

/** What identifying, verifying, patching and baking an image need of its firmware record. */
export interface FirmwareIdentity {
  firmwareId: string;
  imageSize: number;
  identify: IdentifyRule[];
  checksums: ChecksumScheme[];
  stockSha256: string | null;
}

export interface FirmwareRecord extends FirmwareIdentity {
  definition: TuneDefinition | null;
}

/** Refusals of the domain by kind: a patch clash is a conflict with the image, the rest is input the client can fix. */
const STATUS: Record<TuneError["code"], number> = {
  out_of_bounds: 400,
  invalid_value: 400,
  round_trip: 400,
  xdf_invalid: 400,
  patch_overlap: 400,
  patch_conflict: 409,
  patch_firmware: 422,
  image_mismatch: 422,
  checksum_invalid: 422,
  checksum_unstable: 422,
};

const TITLES: Record<TuneError["code"], string> = {
  out_of_bounds: "Out of bounds",
  invalid_value: "Invalid value",
  round_trip: "Value does not round-trip",
  xdf_invalid: "Invalid XDF",
  patch_overlap: "Patches overlap",
  patch_conflict: "Patch conflict",
  patch_firmware: "Patch is for another firmware",
  image_mismatch: "Wrong image",
  checksum_invalid: "Checksum does not verify",
  checksum_unstable: "Checksums do not settle",
};

export function tuneHttpError(error: TuneError): HttpError {
  return new HttpError(STATUS[error.code], TITLES[error.code], error.message, { code: error.code, ...error.details });
}

/** Runs domain code; a TuneError becomes its 4xx, anything else stays a 500. */
export async function domain<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TuneError) throw tuneHttpError(error);
    throw error;
  }
}

export const identityColumns = {
  firmwareId: firmwareSupport.firmwareId,
  imageSize: firmwareSupport.imageSize,
  identify: firmwareSupport.identify,
  checksums: firmwareSupport.checksums,
  stockSha256: firmwareSupport.stockSha256,
};
const recordColumns = { ...identityColumns, definition: firmwareSupport.definition };

// Stored documents were validated by the catalogue's PUT with the same contract schemas.
const asRecord = (row: Record<string, unknown>) => row as unknown as FirmwareRecord;
const asIdentity = (row: Record<string, unknown>) => row as unknown as FirmwareIdentity;

/** A firmware's map definition: read only where items are needed, since a definition of thousands of items costs more to load than an image costs to patch. */
export async function definitionOf(db: Reader, firmwareId: string): Promise<TuneDefinition | null> {
  const [row] = await db.select({ definition: firmwareSupport.definition }).from(firmwareSupport).where(eq(firmwareSupport.firmwareId, firmwareId));
  return (row?.definition as TuneDefinition | null | undefined) ?? null;
}

/** Reads with the app's connection or inside a transaction (a catalogue write may be holding the row). */
type Reader = Pick<Db, "select">;

const unknownFirmware = (firmwareId: string) =>
  new HttpError(422, "Unknown firmware", `No firmware record for ${firmwareId}`, [{ path: "firmwareId", message: `no firmware record for ${firmwareId}` }]);

/** One item of a firmware's definition, picked out by the database: the tune viewer asks for one map at a time of definitions with thousands. */
export async function definitionItem(db: Reader, firmwareId: string, itemId: string): Promise<TuneItem | null> {
  const [row] = await db
    .select({ item: sql<TuneItem | null>`(SELECT item FROM jsonb_array_elements(${firmwareSupport.definition}->'items') AS item WHERE item->>'id' = ${itemId} LIMIT 1)` })
    .from(firmwareSupport)
    .where(eq(firmwareSupport.firmwareId, firmwareId));
  return row?.item ?? null;
}

/** A firmware's record without its definition. */
export async function firmwareIdentity(db: Reader, firmwareId: string): Promise<FirmwareIdentity> {
  const [row] = await db.select(identityColumns).from(firmwareSupport).where(eq(firmwareSupport.firmwareId, firmwareId));
  if (!row) throw unknownFirmware(firmwareId);
  return asIdentity(row);
}

export async function firmwareRecord(db: Reader, firmwareId: string): Promise<FirmwareRecord> {
  const [row] = await db.select(recordColumns).from(firmwareSupport).where(eq(firmwareSupport.firmwareId, firmwareId));
  if (!row) throw unknownFirmware(firmwareId);
  return asRecord(row);
}

/**
 * The firmware record whose size and identify rules match the image, or the
 * reason none does: a size no record has (a truncated or padded read) and a
 * size that exists but whose rules do not match are told apart, because the
 * first is a bad read and the second a firmware we do not support.
 */
export async function identifyImage(db: Db, image: Uint8Array): Promise<Identification> {
  const candidates = (await db.select(identityColumns).from(firmwareSupport).where(eq(firmwareSupport.imageSize, image.length))).map(asIdentity);
  return identifyAmong(db, image, candidates);
}

export interface Identification {
  record: FirmwareIdentity | null;
  reason: string | null;
}

/** identifyImage with the records of the image's size already read. */
export async function identifyAmong(db: Db, image: Uint8Array, candidates: readonly FirmwareIdentity[]): Promise<Identification> {
  if (candidates.length === 0) {
    const sizes = await db.selectDistinct({ size: firmwareSupport.imageSize }).from(firmwareSupport).orderBy(firmwareSupport.imageSize).limit(20);
    return {
      record: null,
      reason: `the file is ${image.length} bytes and no firmware record has images of that size${sizes.length ? ` (known sizes: ${sizes.map((s) => s.size).join(", ")})` : ""}; is the read truncated?`,
    };
  }
  const record = identifyFirmware(image, candidates);
  return record ? { record, reason: null } : { record: null, reason: `no firmware record of ${image.length} bytes matches this image's identify bytes: unknown firmware` };
}

/** identifyImage, refusing an image without a record with 422 naming why. */
export async function requireFirmware(db: Db, image: Uint8Array, expected?: string): Promise<FirmwareIdentity> {
  return requireIdentified(await identifyImage(db, image), expected);
}

/** An identification's record, or the 422 naming why there is none or why it is not the one expected. */
export function requireIdentified({ record, reason }: Identification, expected?: string): FirmwareIdentity {
  if (!record) throw new HttpError(422, "Unknown firmware", reason!, [{ path: "file", message: reason! }]);
  if (expected && record.firmwareId !== expected) {
    const message = `the file is firmware ${record.firmwareId}, not ${expected}`;
    throw new HttpError(422, "Wrong firmware", message, [{ path: "file", message }]);
  }
  return record;
}

/** Refuses an image whose checksums fail, naming each failing scheme (issue 6: reported, never fixed unless asked). */
export function refuseFailingChecksums(image: Uint8Array, record: FirmwareIdentity, what = "the file"): void {
  const failing = verifyAll(image, record.checksums).filter((r) => !r.valid);
  if (failing.length === 0) return;
  throw new HttpError(
    422,
    "Checksum does not verify",
    `${what} fails checksum ${failing.map((r) => `"${r.name}" (stored ${r.stored}, computed ${r.computed})`).join(", ")}; send fixChecksums=true to have them fixed`,
    failing.map(({ name, type, stored, computed }) => ({ path: "file", message: `checksum "${name}" does not verify`, scheme: name, type, stored, computed })),
  );
}

export type PatchRow = typeof tuneFilePatches.$inferSelect;

/**
 * A stored row as the domain's patch. Not parsed again: PUT and the XDF import
 * stored the contract's normalised output, and parsing 1,000 entries per
 * request would cost more than applying them.
 */
export const patchOf = (row: PatchRow): Patch => ({ id: row.id, title: row.title, description: row.description, firmwareIds: row.firmwareIds, entries: row.entries });

export async function patchesForFirmware(db: Db, firmwareId: string): Promise<PatchRow[]> {
  return db
    .select()
    .from(tuneFilePatches)
    .where(sql`${tuneFilePatches.firmwareIds} @> ARRAY[${firmwareId}]::text[]`)
    .orderBy(tuneFilePatches.title, tuneFilePatches.id)
    .limit(500);
}

/** The patches named, in the order named; an unknown id is a 400 naming it. */
export async function patchesById(db: Db, ids: readonly string[], path = "patchIds"): Promise<Patch[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(tuneFilePatches).where(inArray(tuneFilePatches.id, [...ids]));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length) {
    const message = `no tune-file patch ${unknown.join(", ")}`;
    throw new HttpError(400, "Invalid body", message, [{ path, message }]);
  }
  return ids.map((id) => patchOf(byId.get(id)!));
}

export const sha256Of = (bytes: Uint8Array) => sha256Hex(bytes);

/**
 * The inspection report of an image (contracts/tune-files Inspection).
 * `changes` compares with the firmware's stock file and needs `view`; a
 * caller who may not view a protected tune gets checksums and patch states only.
 */
export async function inspect(ctx: AppContext, image: Uint8Array, options: { record?: FirmwareIdentity | FirmwareRecord | null; view?: boolean; reason?: string | null } = {}): Promise<Inspection> {
  const notes: string[] = [];
  let record = options.record;
  if (record === undefined) {
    const found = await ctx.catalogue.identify(image);
    record = found.record;
    if (found.reason) notes.push(found.reason);
  } else if (options.reason) notes.push(options.reason);
  const base = { size: image.length, sha256: sha256Of(image) };
  if (!record) return { firmwareId: null, ...base, checksums: [], patches: [], changes: null, notes };
  const checksums = verifyAll(image, record.checksums).map(({ name, type, valid, stored, computed }) => ({ name, type, valid, stored, computed }));
  const patches = (await patchesForFirmware(ctx.db, record.firmwareId)).map((row) => ({ id: row.id, title: row.title, state: patchState(image, patchOf(row)).state }));
  let changes: InspectionChange[] | null = null;
  if (options.view === false) notes.push("the changes against stock are hidden: the tune's author does not let buyers view them");
  else if (!record.stockSha256) notes.push(`firmware ${record.firmwareId} has no stock file to compare with`);
  else {
    const stock = new Uint8Array(await ctx.blobs.read(record.stockSha256));
    const definition = "definition" in record ? record.definition : await definitionOf(ctx.db, record.firmwareId);
    changes = await domain(() => diffImages(stock, image, { definition: definition ?? undefined, checksums: record.checksums }));
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
      throw new HttpError(422, "No stock file", `Firmware ${record.firmwareId} has no stock file, so the tune's changes cannot be told from its base; an admin uploads it in firmware support`);
    }
    tuneStock = await readImage(ctx, record.stockSha256);
  }
  return domain(() => bake({ stockDump, tuneImage, tuneStock, patches: sources.patches, firmware: record }));
}

