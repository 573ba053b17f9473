/**
 * Upload acceptance for tune images: a file is checked (firmware identified,
 * checksums verified or, when asked, fixed) before it is adopted into the blob
 * store, so a refused upload leaves nothing behind.
 */
import { readFile } from "node:fs/promises";
import type { AppContext } from "../context";
import { fixAll, verifyAll } from "./tune-engine";
import type { UploadedFile } from "../http/uploads";
import { refuseFailingChecksums } from "./tune-files";
import { domain } from "../http/domain-errors";
import { requireFirmware } from "./firmware-records";

/** An uploaded file's bytes. */
export async function imageOf(file: UploadedFile): Promise<Uint8Array> {
  const buffer = await readFile(file.path);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** A checked image for a tune: its firmware identified, its checksums verified or (when asked) fixed. */
export async function acceptImage(ctx: AppContext, file: UploadedFile, fix: boolean, expectedFirmware?: string) {
  const image = await imageOf(file);
  const record = await requireFirmware(ctx.db, image, expectedFirmware);
  if (!fix) refuseFailingChecksums(image, record);
  let sha256 = file.sha256;
  if (fix && verifyAll(image, record.checksums).some((r) => !r.valid)) {
    await domain(() => fixAll(image, record.checksums));
    sha256 = await ctx.blobs.put(image);
  } else await ctx.blobs.adopt(file.path, file.sha256);
  const checksums = verifyAll(image, record.checksums).map(({ name, type, valid, stored, computed }) => ({ name, type, valid, stored, computed }));
  return { record, sha256, size: image.length, checksums };
}

/** A stock read for a vehicle: identified, and refused when it fails its own checksums (it would poison every bake). Adopted once accepted. */
export async function acceptStockRead(ctx: AppContext, file: UploadedFile) {
  const image = await imageOf(file);
  const record = await requireFirmware(ctx.db, image);
  refuseFailingChecksums(image, record, "the read");
  await ctx.blobs.adopt(file.path, file.sha256);
  return record;
}
