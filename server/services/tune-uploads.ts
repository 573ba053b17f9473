/**
 * Upload acceptance for tune images: a file is checked (firmware identified,
 * checksums verified or, when asked, fixed) before it is adopted into the blob
 * store, so a refused upload leaves nothing behind.
 */
import { readFile } from "node:fs/promises";
import type { AppContext } from "../context";
import { type FirmwareIdentity, requireIdentified } from "./firmware-support/reads";
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
 * use too; 422 naming why when there is none, or when it is not the one expected.
 */
export async function firmwareOfImage(
  ctx: AppContext,
  image: Uint8Array,
  expectedFirmware?: string,
): Promise<FirmwareIdentity> {
  return requireIdentified(await ctx.catalogue.identify(image), expectedFirmware);
}

/**
 * A checked image for a tune: its firmware identified, its checksums verified or (when asked)
 * fixed. The image is verified once, and once more only after a fix changed it.
 */
export async function acceptImage(ctx: AppContext, file: UploadedFile, fix: boolean, expectedFirmware?: string) {
  const image = await imageOf(file);
  const record = await firmwareOfImage(ctx, image, expectedFirmware);
  let results = verifyAll(image, record.checksums);
  let sha256 = file.sha256;
  if (results.some((r) => !r.valid)) {
    if (!fix) refuseFailing(results);
    await fixAll(image, record.checksums);
    results = verifyAll(image, record.checksums);
    sha256 = await ctx.blobs.put(image);
  } else await ctx.blobs.adopt(file.path, file.sha256);
  const checksums = results.map(({ name, type, valid, stored, computed }) => ({ name, type, valid, stored, computed }));
  return { record, sha256, size: image.length, checksums };
}

/** A stock read for a vehicle: identified, and refused when it fails its own checksums (it would poison every bake). Adopted once accepted. */
export async function acceptStockRead(ctx: AppContext, file: UploadedFile) {
  const image = await imageOf(file);
  const record = await firmwareOfImage(ctx, image);
  refuseFailing(verifyAll(image, record.checksums), "the read");
  await ctx.blobs.adopt(file.path, file.sha256);
  return record;
}
