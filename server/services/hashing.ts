/**
 * Hashes computed with Node's native code. The domain stays free of Node
 * modules, so the server supplies these: SHA-256 for stored and baked images,
 * and zlib's CRC-32 for the checksum schemes (same results as the domain's
 * table version, several times faster on megabyte images).
 */
import { createHash } from "node:crypto";
import { Transform } from "node:stream";
import zlib from "node:zlib";
import type { Crc32 } from "../../domain/tune";

export const sha256Hex = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

export const nativeCrc32: Crc32 = (data, seed = 0) => zlib.crc32(data, seed);

/** A stream stage that passes bytes on unchanged, hashing and counting them: `result()` once they have all gone through. */
export function hashingTap(): { tap: Transform; result: () => { sha256: string; size: number } } {
  const hash = createHash("sha256");
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  return { tap, result: () => ({ sha256: hash.digest("hex"), size }) };
}
