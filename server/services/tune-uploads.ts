/**
 * Upload acceptance for tune images: a file is checked (firmware identified,
 * checksums verified or, when asked, fixed) before it is adopted into the blob
 * store, so a refused upload leaves nothing behind.
 */
import { readFile } from "node:fs/promises";
import type { AppContext } from "../context";
import {
  type ExpectedFirmware,
  type FirmwareIdentity,
  firmwareIdentity,
  refuseWrongSize,
  requireIdentified,
} from "./firmware-support/reads";
import { fixAll, verifyAll } from "./tune-engine";
import { refuseFailing } from "./tune-files";
import type { UploadedFile } from "./uploaded-file";

/** An uploaded file's bytes. */
export async function imageOf(file: UploadedFile): Promise<Uint8Array> {
  const buffer = await readFile(file.path);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/**
 * The firmware record an image belongs to, through the catalogue cache that /inspect and /apply
 * use too; 422 naming why when there is none, or when it is not the one expected (a wrong size
 * told in the terms of what the file is for).
 */
export async function firmwareOfImage(
  ctx: AppContext,
  image: Uint8Array,
  expected?: ExpectedFirmware,
): Promise<FirmwareIdentity> {
  if (expected) refuseWrongSize(expected, await firmwareIdentity(ctx.db, expected.firmwareId), image.length);
  return requireIdentified(await ctx.catalogue.identify(image), expected?.firmwareId);
}

/**
 * An image checked for a tune without keeping it: its firmware identified, its checksums verified
 * or (when asked) fixed in the bytes returned. The image is verified once, and once more only
 * after a fix changed it.
 */
export async function checkImage(ctx: AppContext, file: UploadedFile, fix: boolean, expected?: ExpectedFirmware) {
  const image = await imageOf(file);
  const record = await firmwareOfImage(ctx, image, expected);
  let results = verifyAll(image, record.checksums);
  const fixed = results.some((r) => !r.valid);
  if (fixed) {
    if (!fix) refuseFailing(results);
    await fixAll(image, record.checksums);
    results = verifyAll(image, record.checksums);
  }
  const checksums = results.map(({ name, type, valid, stored, computed }) => ({ name, type, valid, stored, computed }));
  return { record, image, fixed, size: image.length, checksums };
}

/** A checked image (checkImage) kept in the blob store: the upload itself, or the fixed bytes. */
export async function acceptImage(ctx: AppContext, file: UploadedFile, fix: boolean, expected?: ExpectedFirmware) {
  const { record, image, fixed, size, checksums } = await checkImage(ctx, file, fix, expected);
  const sha256 = fixed ? await ctx.blobs.put(image) : file.sha256;
  if (!fixed) await ctx.blobs.adopt(file.path, file.sha256);
  return { record, sha256, size, checksums };
}

/** A stock read for a vehicle: identified, and refused when it fails its own checksums (it would poison every bake). Adopted once accepted. */
export async function acceptStockRead(ctx: AppContext, file: UploadedFile) {
  const image = await imageOf(file);
  const record = await firmwareOfImage(ctx, image);
  refuseFailing(verifyAll(image, record.checksums), "the read");
  await ctx.blobs.adopt(file.path, file.sha256);
  return record;
}
