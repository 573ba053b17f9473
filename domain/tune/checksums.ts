/**
 * Checksum schemes: compute, verify and fix (scheme objects and type ids in
 * contracts/tune-definition.ts).
 *
 * Conventions, applied to every type:
 * - `ranges` ends are inclusive; several ranges are one concatenated stream
 *   (so chained CRCs seed each range with the previous one).
 * - A scheme's own store bytes are never part of its own computation. That is
 *   what Nissan and byte-XOR specify, is a no-op for the usual layout where the
 *   store lies outside the ranges, and keeps any other layout fixable.
 * - Word sums read words from the start of each range: `word16-sum-inverse`
 *   16-bit little-endian words, `subaru-sum32` and `nissan-sum-xor` 32-bit
 *   big-endian words. The store's `endian` only says how results are stored.
 * - Verify reports `stored` and `computed` as upper-case hex of the stored
 *   values, zero-padded to their width; two-value stores (sum and inverse,
 *   sum and XOR) read `0x0001E240/0xFFFE1DBF`.
 *
 * Speed: sums and XORs run over 32-bit words four bytes at a time, keeping a
 * separate total per byte lane (address mod 4), from which every sum type is
 * derived; CRC-32 uses the `crc32` given in the options (the server passes
 * zlib's native one) or the slicing-by-8 table in ./crc32, and the MSB-first
 * CRC a slicing-by-8 table of its own.
 */
import { CHECKSUM_LAYOUT, type ChecksumScheme, type ChecksumType } from "../../contracts/tune-definition";
import { copyImage } from "./bytes";
import { type Crc32, crc32 as tableCrc32 } from "./crc32";
import { hexAddress, TuneError } from "./errors";

export interface ChecksumResult {
  name: string;
  type: ChecksumType;
  valid: boolean;
  /** Hex of the values in the image's store (see module notes). */
  stored: string;
  /** Hex of the values the scheme computes over the image. */
  computed: string;
  storeAddress: number;
}

export interface ChecksumOptions {
  /** The CRC-32 implementation (default: the table version in ./crc32). */
  crc32?: Crc32;
}

export interface FixReport {
  /** Passes over the schemes until nothing changed under a scheme already fixed (1 for a well-ordered layout). */
  passes: number;
  /** Names of the schemes whose stored value was rewritten. */
  fixed: string[];
  /** Every scheme after fixing; all valid. */
  results: ChecksumResult[];
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Value widths in bytes, in store order. */
const VALUE_WIDTHS: Record<ChecksumType, number[]> = {
  crc32: [4],
  "crc32-msb": [4],
  "word16-sum-inverse": [4, 4],
  "byte-sum-inverse": [4, 4],
  "subaru-sum32": [4],
  "nissan-sum-xor": [4, 4],
  "byte-sum16": [2],
  "byte-xor": [1],
};

const SUBARU_CONSTANT = 0x5aa5a55a;

interface Prepared {
  scheme: ChecksumScheme;
  /** Ranges minus the scheme's own store, half-open. */
  pieces: Array<[number, number]>;
  /** The declared ranges, half-open: what a write elsewhere must avoid to leave this scheme valid. */
  covers: Array<[number, number]>;
  storeStart: number;
  storeEnd: number;
}

function prepare(scheme: ChecksumScheme, imageLength: number): Prepared {
  const storeStart = scheme.store.address;
  const storeEnd = storeStart + CHECKSUM_LAYOUT[scheme.type].storeSize;
  if (storeEnd > imageLength) {
    throw new TuneError(
      "out_of_bounds",
      `checksum "${scheme.name}" stores at ${hexAddress(storeStart)}, outside the image of ${imageLength} bytes`,
      {
        checksum: scheme.name,
      },
    );
  }
  const pieces: Array<[number, number]> = [];
  const covers: Array<[number, number]> = [];
  for (const [start, last] of scheme.ranges) {
    const end = last + 1;
    if (start > last || end > imageLength) {
      throw new TuneError(
        "out_of_bounds",
        `checksum "${scheme.name}" range ${hexAddress(start)}-${hexAddress(last)} lies outside the image of ${imageLength} bytes`,
        { checksum: scheme.name },
      );
    }
    covers.push([start, end]);
    if (storeEnd <= start || storeStart >= end) {
      pieces.push([start, end]);
    } else {
      if (start < storeStart) pieces.push([start, storeStart]);
      if (storeEnd < end) pieces.push([storeEnd, end]);
    }
  }
  return { scheme, pieces, covers, storeStart, storeEnd };
}

/** A 32-bit view of the image when the fast kernels may use one, else null (byte loops). */
function wordsOf(image: Uint8Array): Uint32Array | null {
  return LITTLE_ENDIAN_HOST && image.byteOffset % 4 === 0
    ? new Uint32Array(image.buffer, image.byteOffset, image.length >>> 2)
    : null;
}

// ---------------------------------------------------------------------------
// Kernels

/** Adds to lanes[k] the sum of the bytes in [start, end) whose address ≡ k (mod 4). */
function addLaneSums(
  image: Uint8Array,
  words: Uint32Array | null,
  start: number,
  end: number,
  lanes: Float64Array,
): void {
  let a = start;
  if (words) {
    for (; a < end && (a & 3) !== 0; a++) lanes[a & 3] += image[a];
    let i = a >>> 2;
    const last = end >>> 2;
    while (i < last) {
      // Two lanes share each accumulator (0|2 and 1|3). 128 words keep both 16-bit halves from
      // carrying and the total below 2^31, so V8 stays on 32-bit integer arithmetic.
      const stop = Math.min(last, i + 128);
      let even = 0;
      let odd = 0;
      for (; i < stop; i++) {
        const w = words[i];
        even = (even + (w & 0x00ff00ff)) | 0;
        odd = (odd + ((w >>> 8) & 0x00ff00ff)) | 0;
      }
      lanes[0] += even & 0xffff;
      lanes[2] += even >>> 16;
      lanes[1] += odd & 0xffff;
      lanes[3] += odd >>> 16;
    }
    a = Math.max(a, last << 2);
  }
  for (; a < end; a++) lanes[a & 3] += image[a];
}

/** XOR of the bytes in [start, end), byte k of the result holding the bytes whose address ≡ k (mod 4). */
function laneXor(image: Uint8Array, words: Uint32Array | null, start: number, end: number): number {
  let x = 0;
  let a = start;
  if (words) {
    for (; a < end && (a & 3) !== 0; a++) x ^= image[a] << ((a & 3) << 3);
    let i = a >>> 2;
    const last = end >>> 2;
    let w0 = 0;
    let w1 = 0;
    for (; i + 1 < last; i += 2) {
      w0 ^= words[i];
      w1 ^= words[i + 1];
    }
    if (i < last) w0 ^= words[i++];
    x ^= w0 ^ w1;
    a = Math.max(a, last << 2);
  }
  for (; a < end; a++) x ^= image[a] << ((a & 3) << 3);
  return x >>> 0;
}

/** `value * 2^shift mod 2^32` without leaving the range where doubles are exact. */
function shiftMod32(value: number, shift: number): number {
  return (value % 2 ** (32 - shift)) * 2 ** shift;
}

/** Sum of big-endian 32-bit words starting at `start`, from that range's lane sums. */
function bigEndianWordSum(lanes: Float64Array, start: number): number {
  let sum = 0;
  for (let k = 0; k < 4; k++) {
    const position = (k - start) & 3; // 0 is the most significant byte of a word
    sum += shiftMod32(lanes[k], 8 * (3 - position));
  }
  return sum % 2 ** 32;
}

/** Big-endian 32-bit XOR of words starting at `start`, from that range's lane XOR. */
function bigEndianWordXor(lanes: number, start: number): number {
  let x = 0;
  for (let k = 0; k < 4; k++) {
    const position = (k - start) & 3;
    x |= ((lanes >>> (8 * k)) & 0xff) << (8 * (3 - position));
  }
  return x >>> 0;
}

// CRC-32, MSB first, poly 0x04C11DB7: table k maps a byte to its effect k bytes further on.
const MSB_TABLES = (() => {
  const t = new Uint32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    t[n] = c >>> 0;
  }
  for (let k = 1; k < 8; k++) {
    for (let n = 0; n < 256; n++) {
      const prev = t[(k - 1) * 256 + n];
      t[k * 256 + n] = ((prev << 8) ^ t[prev >>> 24]) >>> 0;
    }
  }
  return t;
})();

function crc32Msb(image: Uint8Array, start: number, end: number, seed: number): number {
  const t = MSB_TABLES;
  let c = seed | 0;
  let i = start;
  for (; i + 8 <= end; i += 8) {
    const a = c ^ ((image[i] << 24) | (image[i + 1] << 16) | (image[i + 2] << 8) | image[i + 3]);
    const b = (image[i + 4] << 24) | (image[i + 5] << 16) | (image[i + 6] << 8) | image[i + 7];
    c =
      t[1792 + (a >>> 24)] ^
      t[1536 + ((a >>> 16) & 255)] ^
      t[1280 + ((a >>> 8) & 255)] ^
      t[1024 + (a & 255)] ^
      t[768 + (b >>> 24)] ^
      t[512 + ((b >>> 16) & 255)] ^
      t[256 + ((b >>> 8) & 255)] ^
      t[b & 255];
  }
  for (; i < end; i++) c = (c << 8) ^ t[((c >>> 24) ^ image[i]) & 255];
  return c >>> 0;
}

// ---------------------------------------------------------------------------
// Compute, read, write

/** Sum over the pieces of `perPiece(lanes of the piece, piece start)`, mod 2^32. */
function sumPieces(
  image: Uint8Array,
  words: Uint32Array | null,
  pieces: Array<[number, number]>,
  perPiece: (lanes: Float64Array, start: number) => number,
): number {
  let sum = 0;
  for (const [start, end] of pieces) {
    const lanes = new Float64Array(4);
    addLaneSums(image, words, start, end, lanes);
    sum = (sum + perPiece(lanes, start)) % 2 ** 32;
  }
  return sum;
}

const byteSum = (lanes: Float64Array) => lanes[0] + lanes[1] + lanes[2] + lanes[3];

/** Little-endian 16-bit words from `start`: the bytes at start's parity are the low bytes. */
function littleEndianWord16Sum(lanes: Float64Array, start: number): number {
  const even = lanes[0] + lanes[2];
  const odd = lanes[1] + lanes[3];
  return (start & 1) === 0 ? even + shiftMod32(odd, 8) : odd + shiftMod32(even, 8);
}

function compute(image: Uint8Array, words: Uint32Array | null, prepared: Prepared, crc32: Crc32): number[] {
  const { scheme, pieces } = prepared;
  switch (scheme.type) {
    case "crc32": {
      let crc = 0;
      for (const [start, end] of pieces) crc = crc32(image.subarray(start, end), crc);
      return [crc >>> 0];
    }
    case "crc32-msb": {
      let crc = 0;
      for (const [start, end] of pieces) crc = crc32Msb(image, start, end, crc);
      return [crc];
    }
    case "word16-sum-inverse": {
      const sum = sumPieces(image, words, pieces, littleEndianWord16Sum);
      return [sum, ~sum >>> 0];
    }
    case "byte-sum-inverse": {
      const sum = sumPieces(image, words, pieces, byteSum);
      return [sum, ~sum >>> 0];
    }
    case "subaru-sum32": {
      const sum = sumPieces(image, words, pieces, bigEndianWordSum);
      return [(SUBARU_CONSTANT - sum + 2 ** 32) % 2 ** 32];
    }
    case "nissan-sum-xor": {
      let x = 0;
      for (const [start, end] of pieces) x ^= bigEndianWordXor(laneXor(image, words, start, end), start);
      return [sumPieces(image, words, pieces, bigEndianWordSum), x >>> 0];
    }
    case "byte-sum16":
      return [sumPieces(image, words, pieces, byteSum) % 0x10000];
    case "byte-xor": {
      let x = 0;
      for (const [start, end] of pieces) x ^= laneXor(image, words, start, end);
      return [(x ^ (x >>> 8) ^ (x >>> 16) ^ (x >>> 24)) & 0xff];
    }
  }
}

function readStored(image: Uint8Array, prepared: Prepared): number[] {
  const little = prepared.scheme.store.endian === "little";
  let address = prepared.storeStart;
  return VALUE_WIDTHS[prepared.scheme.type].map((width) => {
    let value = 0;
    for (let i = 0; i < width; i++) value += image[address + (little ? i : width - 1 - i)] * 2 ** (8 * i);
    address += width;
    return value;
  });
}

/** Writes the values into the store; true when any byte changed. */
function writeStored(image: Uint8Array, prepared: Prepared, values: number[]): boolean {
  const little = prepared.scheme.store.endian === "little";
  let address = prepared.storeStart;
  let changed = false;
  VALUE_WIDTHS[prepared.scheme.type].forEach((width, v) => {
    for (let i = 0; i < width; i++) {
      const byte = Math.floor(values[v] / 2 ** (8 * i)) & 0xff;
      const at = address + (little ? i : width - 1 - i);
      if (image[at] !== byte) {
        image[at] = byte;
        changed = true;
      }
    }
    address += width;
  });
  return changed;
}

function formatValues(type: ChecksumType, values: number[]): string {
  return VALUE_WIDTHS[type]
    .map(
      (width, i) =>
        `0x${values[i]
          .toString(16)
          .toUpperCase()
          .padStart(width * 2, "0")}`,
    )
    .join("/");
}

function result(prepared: Prepared, stored: number[], computed: number[]): ChecksumResult {
  const { scheme } = prepared;
  return {
    name: scheme.name,
    type: scheme.type,
    valid: stored.every((value, i) => value === computed[i]),
    stored: formatValues(scheme.type, stored),
    computed: formatValues(scheme.type, computed),
    storeAddress: prepared.storeStart,
  };
}

/** The values a scheme computes over an image (one number per stored value). */
export function computeChecksum(image: Uint8Array, scheme: ChecksumScheme, options: ChecksumOptions = {}): number[] {
  return compute(image, wordsOf(image), prepare(scheme, image.length), options.crc32 ?? tableCrc32);
}

/** Checks every scheme against its store, in the order given. */
export function verifyAll(
  image: Uint8Array,
  schemes: readonly ChecksumScheme[],
  options: ChecksumOptions = {},
): ChecksumResult[] {
  const crc32 = options.crc32 ?? tableCrc32;
  // A misaligned view (a slice of a pooled buffer) would send the kernels down the byte loops; one copy is cheaper.
  const source = wordsOf(image) || image.length < 4096 ? image : copyImage(image);
  const words = wordsOf(source);
  return schemes.map((scheme) => {
    const prepared = prepare(scheme, source.length);
    return result(prepared, readStored(source, prepared), compute(source, words, prepared, crc32));
  });
}

// ---------------------------------------------------------------------------
// Fixing

function overlaps(ranges: Array<[number, number]>, start: number, end: number): boolean {
  return ranges.some(([a, b]) => start < b && end > a);
}

/**
 * Inner before outer: a scheme whose store lies inside another's ranges is
 * fixed first. Kahn's algorithm, ties in the given order; schemes caught in a
 * cycle keep their given order and are left to the repeat-until-stable loop.
 */
function fixOrder(prepared: Prepared[]): Prepared[] {
  const n = prepared.length;
  const after: number[][] = prepared.map(() => []);
  const pending = new Array<number>(n).fill(0);
  for (let inner = 0; inner < n; inner++) {
    for (let outer = 0; outer < n; outer++) {
      if (inner !== outer && overlaps(prepared[outer].covers, prepared[inner].storeStart, prepared[inner].storeEnd)) {
        after[inner].push(outer);
        pending[outer]++;
      }
    }
  }
  const order: number[] = [];
  const done = new Array<boolean>(n).fill(false);
  for (let progress = true; progress; ) {
    progress = false;
    for (let i = 0; i < n; i++) {
      if (done[i] || pending[i] > 0) continue;
      done[i] = true;
      order.push(i);
      for (const outer of after[i]) pending[outer]--;
      progress = true;
      break;
    }
  }
  for (let i = 0; i < n; i++) if (!done[i]) order.push(i);
  return order.map((i) => prepared[i]);
}

export interface FixOptions extends ChecksumOptions {
  /** Upper bound on passes before giving up on a layout that never settles. */
  maxPasses?: number;
}

/**
 * Rewrites every store so that every scheme verifies, in place. Inner schemes
 * go first; a pass is repeated only when a store write landed inside a scheme
 * already fixed in that pass, and a layout that is still moving after
 * `maxPasses` is refused (the image may then hold partly rewritten stores:
 * callers fix a copy they are prepared to throw away).
 */
export function fixAll(image: Uint8Array, schemes: readonly ChecksumScheme[], options: FixOptions = {}): FixReport {
  const maxPasses = options.maxPasses ?? 8;
  const crc32 = options.crc32 ?? tableCrc32;
  const aligned = wordsOf(image) !== null || image.length < 4096;
  const work = aligned ? image : copyImage(image);
  const words = wordsOf(work);
  const prepared = schemes.map((scheme) => prepare(scheme, work.length));
  const order = fixOrder(prepared);
  const fixed = new Set<string>();
  const latest = new Map<Prepared, ChecksumResult>();
  let unsettled = new Set<Prepared>();

  for (let pass = 1; pass <= maxPasses; pass++) {
    unsettled = new Set<Prepared>();
    order.forEach((current, position) => {
      const computed = compute(work, words, current, crc32);
      if (writeStored(work, current, computed)) {
        fixed.add(current.scheme.name);
        for (let earlier = 0; earlier < position; earlier++) {
          if (overlaps(order[earlier].covers, current.storeStart, current.storeEnd)) unsettled.add(order[earlier]);
        }
      }
      latest.set(current, result(current, computed, computed));
    });
    if (unsettled.size === 0) {
      if (!aligned) image.set(work);
      return { passes: pass, fixed: [...fixed], results: prepared.map((p) => latest.get(p)!) };
    }
  }
  const names = [...unsettled].map((p) => p.scheme.name);
  throw new TuneError(
    "checksum_unstable",
    `checksums did not settle after ${maxPasses} passes: ${names.join(", ")} kept changing because another checksum's store lies in their ranges and theirs in its`,
    { checksums: names },
  );
}
