/**
 * The domain's tune functions as the server runs them: with the native
 * CRC-32, and baked images hashed. Server code imports these rather than the
 * domain's own where a checksum is computed.
 */

import type { ChecksumScheme, Patch } from "../../contracts/tune-definition";
import * as tune from "../../domain/tune";
import { nativeCrc32, sha256Hex } from "./hashing";

const native = { crc32: nativeCrc32 };

export const computeChecksum = (image: Uint8Array, scheme: ChecksumScheme) =>
  tune.computeChecksum(image, scheme, native);

export const verifyAll = (image: Uint8Array, schemes: readonly ChecksumScheme[]) =>
  tune.verifyAll(image, schemes, native);

export const fixAll = (image: Uint8Array, schemes: readonly ChecksumScheme[], options: tune.FixOptions = {}) =>
  tune.fixAll(image, schemes, { ...native, ...options });

export const applyPatches = (image: Uint8Array, patches: readonly Patch[], options: tune.PatchOptions = {}) =>
  tune.applyPatches(image, patches, { ...native, ...options });

export const removePatch = (image: Uint8Array, patch: Patch, options: tune.PatchOptions = {}) =>
  tune.removePatch(image, patch, { ...native, ...options });

export interface BakeResult extends tune.BakeResult {
  /** SHA-256 of the baked image, hex. */
  sha256: string;
}

export function bake(input: tune.BakeInput): BakeResult {
  const result = tune.bake({ ...native, ...input });
  return { ...result, sha256: sha256Hex(result.image) };
}
