/**
 * Compact, exact storage of a log's numbers. Loggers print every channel with a fixed number of
 * decimals, so a column whose values are all `k / 10^decimals` for integers k in a narrow range is
 * kept as small unsigned integer codes: value = (base + code) / 10^decimals. That is the printed
 * number, so nothing is lost, in 1 or 2 bytes a sample instead of Float32's 4. A column that does
 * not fit keeps its floats.
 *
 * The largest code of each integer type stands for a gap (NaN). The mapping from code to value is
 * increasing, so a reader can find minima, maxima and time positions on the codes themselves and
 * decode only the points it shows.
 */

export type ColumnEncoding =
  | { type: "f32" }
  | { type: "f64" }
  | { type: "u8" | "u16" | "u32"; base: number; decimals: number };

export type ColumnCodes = Uint8Array | Uint16Array | Uint32Array | Float32Array | Float64Array;

export interface EncodedColumn {
  codes: ColumnCodes;
  encoding: ColumnEncoding;
}

type IntegerType = "u8" | "u16" | "u32";

const INTEGER_TYPES: Array<{ type: IntegerType; gap: number }> = [
  { type: "u8", gap: 0xff },
  { type: "u16", gap: 0xffff },
  { type: "u32", gap: 0xffffffff },
];

/** Beyond this a Float32 channel has no decimal digits left to be exact about. */
const MAX_DECIMALS = 7;
/**
 * Time is stored in seconds from the first sample, a subtraction that leaves a few 1e-15 s of
 * rounding on the printed value; a decimal tick this close to it is the printed value.
 */
const TIME_TOLERANCE = 1e-9;

export const BYTES_PER_CODE: Record<ColumnEncoding["type"], number> = { u8: 1, u16: 2, u32: 4, f32: 4, f64: 8 };

export function codesOf(
  encoding: ColumnEncoding,
  buffer: ArrayBufferLike,
  byteOffset: number,
  length: number,
): ColumnCodes {
  switch (encoding.type) {
    case "u8":
      return new Uint8Array(buffer, byteOffset, length);
    case "u16":
      return new Uint16Array(buffer, byteOffset, length);
    case "u32":
      return new Uint32Array(buffer, byteOffset, length);
    case "f32":
      return new Float32Array(buffer, byteOffset, length);
    case "f64":
      return new Float64Array(buffer, byteOffset, length);
  }
}

/** The code that marks a gap: NaN for floats (never equal to itself, so tests use `Number.isNaN(c)`). */
export function gapCode(encoding: ColumnEncoding): number {
  const integer = INTEGER_TYPES.find((t) => t.type === encoding.type);
  return integer ? integer.gap : NaN;
}

/** The value of one code (NaN for a gap). */
export function decoder(encoding: ColumnEncoding): (code: number) => number {
  if (encoding.type === "f32" || encoding.type === "f64") return (code) => code;
  const { base, decimals } = encoding;
  const scale = 10 ** decimals;
  const gap = gapCode(encoding);
  return (code) => (code === gap ? NaN : (base + code) / scale);
}

/**
 * Where a value falls among the codes, as a real number: codes below it are smaller values. Used
 * to search time codes for a time without decoding them.
 */
export function codePosition(encoding: ColumnEncoding, value: number): number {
  if (encoding.type === "f32" || encoding.type === "f64") return value;
  return value * 10 ** encoding.decimals - encoding.base;
}

/** Every value as floats of the given type: channels as Float32, time as Float64 (the codes themselves when they are that type). */
export function decodeColumn<T extends Float32Array | Float64Array>(
  column: EncodedColumn,
  Out: { new (length: number): T },
): T {
  const { codes, encoding } = column;
  if (codes instanceof Out) return codes as T;
  const decode = decoder(encoding);
  const out = new Out(codes.length);
  for (let i = 0; i < codes.length; i++) out[i] = decode(codes[i]);
  return out;
}

/** The smallest d that makes every Float32 sample exactly some k / 10^d; null past MAX_DECIMALS. */
function channelDecimals(values: Float32Array): number | null {
  let decimals = 0;
  let scale = 1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    // A multiple of 10^-d is a multiple of 10^-(d+1), so the samples already checked stay exact.
    while (Math.fround(Math.round(v * scale) / scale) !== v) {
      if (Number.isNaN(v)) break;
      if (++decimals > MAX_DECIMALS) return null;
      scale *= 10;
    }
  }
  return decimals;
}

/** As channelDecimals for the Float64 seconds, within TIME_TOLERANCE of the printed tick. */
function timeDecimals(time: Float64Array): number | null {
  let decimals = 0;
  let scale = 1;
  for (let i = 0; i < time.length; i++) {
    const t = time[i];
    while (!(Math.abs(Math.round(t * scale) / scale - t) <= TIME_TOLERANCE)) {
      if (++decimals > MAX_DECIMALS) return null;
      scale *= 10;
    }
  }
  return decimals;
}

/** Codes of the smallest integer type up to `widest` that holds the column's span, or null when none does. */
function integerCodes(
  values: Float32Array | Float64Array,
  decimals: number,
  widest: IntegerType,
): EncodedColumn | null {
  const scale = 10 ** decimals;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const base = lo === Infinity ? 0 : Math.round(lo * scale);
  const span = lo === Infinity ? 0 : Math.round(hi * scale) - base;
  const fit = INTEGER_TYPES.slice(0, INTEGER_TYPES.findIndex((t) => t.type === widest) + 1).find((t) => span < t.gap);
  if (!fit || !Number.isSafeInteger(base + span)) return null;
  const encoding: ColumnEncoding = { type: fit.type, base, decimals };
  const codes = codesOf(encoding, new ArrayBuffer(values.length * BYTES_PER_CODE[fit.type]), 0, values.length);
  const gap = fit.gap;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    codes[i] = Number.isNaN(v) ? gap : Math.round(v * scale) - base;
  }
  return { codes, encoding };
}

/**
 * A channel's Float32 samples as the fewest bytes that give back every sample exactly (gaps as
 * gaps): 1- or 2-byte codes when the printed decimals allow, else the Float32 samples themselves
 * (4-byte codes would save nothing over them).
 */
export function encodeChannel(values: Float32Array): EncodedColumn {
  const decimals = channelDecimals(values);
  return (
    (decimals === null ? null : integerCodes(values, decimals, "u16")) ?? { codes: values, encoding: { type: "f32" } }
  );
}

/**
 * Seconds from the first sample as integer ticks of the finest decimal the file printed
 * (10 ms ticks for a 100 Hz log, 4 bytes a row instead of 8), else the Float64 seconds.
 */
export function encodeTime(time: Float64Array): EncodedColumn {
  const decimals = timeDecimals(time);
  return (decimals === null ? null : integerCodes(time, decimals, "u32")) ?? { codes: time, encoding: { type: "f64" } };
}
