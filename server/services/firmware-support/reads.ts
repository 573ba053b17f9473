/**
 * Firmware records as the tune-file routes and the catalogue cache read them:
 * identity columns, definitions, identifying an image among the records of its
 * size, and stored patches.
 */
import { eq, inArray, sql } from "drizzle-orm";
import type { ChecksumScheme, IdentifyRule, Patch, TuneDefinition, TuneItem } from "../../../contracts/tune-definition";
import { identifyFirmware, imageSizeText } from "../../../domain/tune";
import type { Db } from "../../db/connection";
import { firmwareSupport, tuneFilePatches } from "../../db/schema";
import { invalid, Refusal } from "../errors";

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
  const [row] = await db
    .select({ definition: firmwareSupport.definition })
    .from(firmwareSupport)
    .where(eq(firmwareSupport.firmwareId, firmwareId));
  return (row?.definition as TuneDefinition | null | undefined) ?? null;
}

/** Reads with the app's connection or inside a transaction (a catalogue write may be holding the row). */
type Reader = Pick<Db, "select">;

const unknownFirmware = (firmwareId: string) =>
  new Refusal("unprocessable", "Unknown firmware", `No firmware record for ${firmwareId}`, [
    { path: "firmwareId", message: `no firmware record for ${firmwareId}` },
  ]);

/** One item of a firmware's definition, picked out by the database: the tune viewer asks for one map at a time of definitions with thousands. */
export async function definitionItem(db: Reader, firmwareId: string, itemId: string): Promise<TuneItem | null> {
  const [row] = await db
    .select({
      item: sql<TuneItem | null>`(SELECT item FROM jsonb_array_elements(${firmwareSupport.definition}->'items') AS item WHERE item->>'id' = ${itemId} LIMIT 1)`,
    })
    .from(firmwareSupport)
    .where(eq(firmwareSupport.firmwareId, firmwareId));
  return row?.item ?? null;
}

/** A firmware's record without its definition. */
export async function firmwareIdentity(db: Reader, firmwareId: string): Promise<FirmwareIdentity> {
  const [row] = await db
    .select(identityColumns)
    .from(firmwareSupport)
    .where(eq(firmwareSupport.firmwareId, firmwareId));
  if (!row) throw unknownFirmware(firmwareId);
  return asIdentity(row);
}

export async function firmwareRecord(db: Reader, firmwareId: string): Promise<FirmwareRecord> {
  const [row] = await db.select(recordColumns).from(firmwareSupport).where(eq(firmwareSupport.firmwareId, firmwareId));
  if (!row) throw unknownFirmware(firmwareId);
  return asRecord(row);
}

export interface Identification {
  record: FirmwareIdentity | null;
  reason: string | null;
}

/**
 * The firmware record, among the records of the image's size, whose identify rules match the
 * image, or the reason none does: a size no record has (a truncated or padded read) and a size
 * that exists but whose rules do not match are told apart, because the first is a bad read and
 * the second a firmware we do not support. Images are identified through the catalogue cache
 * (./cache.ts), which keeps the candidates of each size.
 */
export async function identifyAmong(
  db: Db,
  image: Uint8Array,
  candidates: readonly FirmwareIdentity[],
): Promise<Identification> {
  if (candidates.length === 0) {
    const sizes = await db
      .selectDistinct({ size: firmwareSupport.imageSize })
      .from(firmwareSupport)
      .orderBy(firmwareSupport.imageSize)
      .limit(20);
    return {
      record: null,
      reason: `the file is ${image.length} bytes and no firmware record has images of that size${sizes.length ? ` (known sizes: ${sizes.map((s) => s.size).join(", ")})` : ""}; is the read truncated?`,
    };
  }
  const record = identifyFirmware(image, candidates);
  return record
    ? { record, reason: null }
    : {
        record: null,
        reason: `no firmware record of ${image.length} bytes matches this image's identify bytes: unknown firmware`,
      };
}

/**
 * What an upload must be, in the terms of what it is for: `of` names it in a sentence ("This
 * request", "This tune file", "This car's read").
 */
export interface ExpectedFirmware {
  firmwareId: string;
  of: string;
}

/**
 * The 422 for an image whose size is not its expected firmware's, told before identification
 * because a wrong size is the commonest mistake (the wrong car's file, a padded or cut read) and
 * the uploader knows the request or tune, not the catalogue's list of sizes.
 */
export function refuseWrongSize(expected: ExpectedFirmware, record: FirmwareIdentity, size: number): void {
  if (size === record.imageSize) return;
  const message = `${expected.of} is for ${record.firmwareId} (${imageSizeText(record.imageSize)}); this file is ${imageSizeText(size)}`;
  throw new Refusal("unprocessable", "Wrong size", message, [{ path: "file", message }]);
}

/** An identification's record, or the 422 naming why there is none or why it is not the one expected. */
export function requireIdentified({ record, reason }: Identification, expected?: string): FirmwareIdentity {
  if (!record) throw new Refusal("unprocessable", "Unknown firmware", reason!, [{ path: "file", message: reason! }]);
  if (expected && record.firmwareId !== expected) {
    const message = `the file is firmware ${record.firmwareId}, not ${expected}`;
    throw new Refusal("unprocessable", "Wrong firmware", message, [{ path: "file", message }]);
  }
  return record;
}

export type PatchRow = typeof tuneFilePatches.$inferSelect;

/**
 * A stored row as the domain's patch. Not parsed again: PUT and the XDF import
 * stored the contract's normalised output, and parsing 1,000 entries per
 * request would cost more than applying them.
 */
export const patchOf = (row: PatchRow): Patch => ({
  id: row.id,
  title: row.title,
  description: row.description,
  firmwareIds: row.firmwareIds,
  entries: row.entries,
});

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
  const rows = await db
    .select()
    .from(tuneFilePatches)
    .where(inArray(tuneFilePatches.id, [...ids]));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length) {
    const message = `no tune-file patch ${unknown.join(", ")}`;
    throw invalid("Invalid body", message, [{ path, message }]);
  }
  return ids.map((id) => patchOf(byId.get(id)!));
}
