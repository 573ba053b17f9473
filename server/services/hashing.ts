/**
 * Hashes computed with Node's native code. The domain stays free of Node
 * modules, so the server supplies these: SHA-256 for stored and baked images,
 * and zlib's CRC-32 for the checksum schemes (same results as the domain's
 * table version, several times faster on megabyte images).
 */
import { createHash } from "node:crypto";
import zlib from "node:zlib";
import type { Crc32 } from "../../domain/tune";

export const sha256Hex = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

export const nativeCrc32: Crc32 = (data, seed = 0) => zlib.crc32(data, seed);
