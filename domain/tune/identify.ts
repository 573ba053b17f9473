/**
 * Recognising an image's firmware from its identify rules (every
 * rule `{ address, bytes | text }` must match) and its size.
 */
import type { IdentifyRule } from "../../contracts/tune-definition";
import { bytesEqualAt, bytesToHex, hexToBytes } from "./bytes";
import { hexAddress } from "./errors";

export interface IdentifyMismatch {
  address: number;
  expected: string;
  /** What the image holds there, as hex; empty when the rule runs past the end. */
  found: string;
}

function expectedBytes(rule: IdentifyRule): Uint8Array {
  // Text rules are ASCII, the way software ids are burnt into images.
  return rule.bytes !== undefined
    ? hexToBytes(rule.bytes)
    : Uint8Array.from(rule.text ?? "", (c) => c.charCodeAt(0) & 0xff);
}

/** The rules an image fails (empty when it matches them all). */
export function identifyMismatches(image: Uint8Array, rules: readonly IdentifyRule[]): IdentifyMismatch[] {
  const mismatches: IdentifyMismatch[] = [];
  for (const rule of rules) {
    const expected = expectedBytes(rule);
    if (bytesEqualAt(image, rule.address, expected)) continue;
    const found =
      rule.address < image.length ? image.subarray(rule.address, rule.address + expected.length) : new Uint8Array();
    mismatches.push({
      address: rule.address,
      expected: rule.bytes ?? JSON.stringify(rule.text),
      found: bytesToHex(found),
    });
  }
  return mismatches;
}

export function matchesIdentify(image: Uint8Array, rules: readonly IdentifyRule[]): boolean {
  return identifyMismatches(image, rules).length === 0;
}

export interface IdentifiableFirmware {
  firmwareId: string;
  imageSize: number;
  identify: readonly IdentifyRule[];
}

/**
 * The first firmware whose size and identify rules the image matches, or null.
 * A firmware without rules never matches: size alone would claim every image
 * of that size.
 */
export function identifyFirmware<F extends IdentifiableFirmware>(image: Uint8Array, firmwares: readonly F[]): F | null {
  return (
    firmwares.find(
      (f) => f.imageSize === image.length && f.identify.length > 0 && matchesIdentify(image, f.identify),
    ) ?? null
  );
}

/** One line per failed rule, for refusals. */
export function describeMismatches(mismatches: readonly IdentifyMismatch[]): string {
  return mismatches
    .map((m) => `at ${hexAddress(m.address)} expected ${m.expected}, found ${m.found || "nothing"}`)
    .join("; ");
}
