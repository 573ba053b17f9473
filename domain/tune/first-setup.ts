/**
 * A new firmware record's first setup from its stock read: the strings that
 * could identify the image (part numbers and software ids burnt in as ASCII,
 * each with its offset) and which of the known checksum schemes verify on it.
 */
import type { ChecksumScheme } from "../../contracts/tune-definition";
import { type ChecksumOptions, verifyAll } from "./checksums";

export interface IdentifyCandidate {
  offset: number;
  text: string;
  /** What the string looks like: a Bosch software id (`103…`), a Bosch hardware number (`0261…`) or another part number. */
  kind: "software-id" | "hardware-number" | "part-number";
}

export interface CandidateOptions {
  /** Shortest string offered (default 8). */
  minLength?: number;
  /** Longest string offered (default 24); longer runs are calibration text or tables, not ids. */
  maxLength?: number;
  /** Most candidates answered, in image order (default 40). */
  limit?: number;
}

const PRINTABLE_MIN = 0x20;
const PRINTABLE_MAX = 0x7e;
/** Bosch numbers run together in the ident block ("0261207143" + "1037360857"): each is offered alone. */
const BOSCH = /(0261\d{6})|(103\d{7})/g;
const TOKEN = /[A-Za-z0-9][A-Za-z0-9.-]*/g;

/** Filler and test patterns (`22222222`, `1234567890`) are in every image and identify none. */
function isFiller(token: string): boolean {
  if (new Set(token).size < 4) return true;
  return /0123456|1234567|abcdef/i.test(token);
}

function looksLikeId(token: string, minLength: number, maxLength: number): boolean {
  if (token.length < minLength || token.length > maxLength) return false;
  // Ids are printed in capitals and digits; lower case or a decimal point is text or a number in a table.
  if (!/^[A-Z0-9-]+$/.test(token)) return false;
  const digits = token.replace(/\D/g, "").length;
  // An id is mostly digits, with letters for the variant (8D0907551M); words and labels are not ids.
  return digits >= 4 && digits * 2 >= token.length && !isFiller(token);
}

function kindOf(text: string): IdentifyCandidate["kind"] {
  if (/^0261\d{6}$/.test(text)) return "hardware-number";
  if (/^103\d{7}$/.test(text)) return "software-id";
  return "part-number";
}

/** The ids a run of printable text holds: Bosch numbers found inside it, else the token itself. */
function tokensOf(run: string, minLength: number, maxLength: number): Array<{ at: number; text: string }> {
  const found: Array<{ at: number; text: string }> = [];
  for (const token of run.matchAll(TOKEN)) {
    const text = token[0].replace(/[.-]+$/, "");
    const bosch = [...text.matchAll(BOSCH)].filter((m) => !isFiller(m[0]));
    if (bosch.length > 0 && text.length > 10) {
      for (const m of bosch) found.push({ at: token.index + m.index, text: m[0] });
    } else if (looksLikeId(text, minLength, maxLength)) {
      found.push({ at: token.index, text });
    }
  }
  return found;
}

/**
 * Runs of printable ASCII that look like part numbers or software ids, each
 * with its offset, in image order; a text seen twice is offered once (where
 * it first occurs).
 */
export function findIdentifyCandidates(image: Uint8Array, options: CandidateOptions = {}): IdentifyCandidate[] {
  const { minLength = 8, maxLength = 24, limit = 40 } = options;
  const seen = new Set<string>();
  const candidates: IdentifyCandidate[] = [];
  let start = -1;
  for (let i = 0; i <= image.length && candidates.length < limit; i++) {
    const printable = i < image.length && image[i] >= PRINTABLE_MIN && image[i] <= PRINTABLE_MAX;
    if (printable) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i - start >= Math.min(minLength, 8)) {
      const run = String.fromCharCode(...image.subarray(start, i).subarray(0, 4096));
      for (const { at, text } of tokensOf(run, minLength, maxLength)) {
        if (seen.has(text)) continue;
        seen.add(text);
        candidates.push({ offset: start + at, text, kind: kindOf(text) });
        if (candidates.length >= limit) break;
      }
    }
    start = -1;
  }
  return candidates;
}

export interface SchemeTrial {
  scheme: ChecksumScheme;
  /** True when the scheme's stored value matches what it computes over the image. */
  verifies: boolean;
  /** Why it could not be tried (its ranges or store reach past the image); absent when tried. */
  unusable?: string;
}

/** Which schemes verify on a stock read; one reaching past the image is reported unusable, not thrown. */
export function trySchemes(
  image: Uint8Array,
  schemes: readonly ChecksumScheme[],
  options: ChecksumOptions = {},
): SchemeTrial[] {
  return schemes.map((scheme) => {
    const end = Math.max(scheme.store.address + scheme.store.size, ...scheme.ranges.map(([, e]) => e + 1));
    if (end > image.length)
      return { scheme, verifies: false, unusable: `reaches 0x${(end - 1).toString(16).toUpperCase()}, past the image` };
    const [result] = verifyAll(image, [scheme], options);
    return { scheme, verifies: result.valid };
  });
}
