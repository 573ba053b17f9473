import {
  BYTES_PER_CODE,
  type ColumnCodes,
  type ColumnEncoding,
  codesOf,
  decodeColumn,
  type EncodedColumn,
  encodeChannel,
  encodeTime,
} from "./column-codes";
import type { ParsedLog } from "./types";

/**
 * Columnar binary form of a parsed log, for the chart view to load instead of the CSV:
 *
 *   0   "TPLC"                      magic
 *   4   u32 version (3)
 *   8   u32 header JSON byte length (unpadded)
 *   12  u32 row count
 *   16  header JSON (UTF-8): everything in ParsedLog but the arrays, plus `encodings` (how the
 *       time and each channel are coded, see column-codes.ts) and `stored` (each array's length as
 *       stored), padded with spaces to 8 bytes
 *   …   time, then one array per channel: rowCount codes of the array's type, compressed on its own
 *       with raw DEFLATE (RFC 1951), each padded to 8 bytes
 *
 * Little endian throughout. Each array is compressed apart so that a reader still fetches the one
 * channel it charts by byte range; a phone downloads about a sixth of the codes (a 955 KB
 * ECUMaster CSV: 468 KB of codes, 80 KB deflated). The domain has no zlib: the writer and the
 * readers hand in their own (Node's zlib on the server, DecompressionStream in a browser).
 * Still read: version 2 (arrays stored as they are, 8-byte aligned, so a reader takes typed-array
 * views of the buffer) and version 1 (neither `encodings` nor `stored`: Float64 time and Float32
 * channels).
 */

/** Compresses (raw DEFLATE) or inflates one array; the caller's zlib. */
export type Deflate = (bytes: Uint8Array) => Uint8Array;
export type Inflate = (bytes: Uint8Array) => Uint8Array;
export type AsyncDeflate = (bytes: Uint8Array) => Promise<Uint8Array>;

const MAGIC = 0x434c5054; // "TPLC" read as a little-endian u32
const VERSION = 3;
/** Arrays stored as they are: written when no compression is handed in, and read. */
const UNCOMPRESSED_VERSION = 2;
const PREAMBLE = 16;

type Header = Omit<ParsedLog, "time" | "columns">;
interface Encodings {
  time: ColumnEncoding;
  columns: ColumnEncoding[];
}
/** Each array's length as stored, deflated (version 3). */
interface StoredLengths {
  time: number;
  columns: number[];
}
/** The header JSON as written. */
type StoredHeader = Header & { encodings?: Encodings; stored?: StoredLengths };

const align8 = (n: number): number => (n + 7) & ~7;

function assertLittleEndian(): void {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
    throw new Error("The columnar log format needs a little-endian platform.");
  }
}

/** The arrays of `log` coded for storage (time first), before any compression. */
function codedArrays(log: ParsedLog): { encodings: Encodings; arrays: Uint8Array[] } {
  const rows = log.rowCount;
  const time = encodeTime(log.time.subarray(0, rows));
  const columns = log.columns.map((column) => encodeChannel(column.subarray(0, rows)));
  const bytesOf = (column: EncodedColumn) =>
    new Uint8Array(column.codes.buffer, column.codes.byteOffset, rows * BYTES_PER_CODE[column.encoding.type]);
  return {
    encodings: { time: time.encoding, columns: columns.map((column) => column.encoding) },
    arrays: [time, ...columns].map(bytesOf),
  };
}

/** The form of `log` around `arrays` as stored: deflated ones (version 3) or the coded ones (version 2). */
function formOf(log: ParsedLog, encodings: Encodings, arrays: Uint8Array[], deflated: boolean): Uint8Array {
  const stored = deflated
    ? { time: arrays[0].length, columns: arrays.slice(1).map((array) => array.length) }
    : undefined;
  const { format, meta, rowCount, durationSeconds, channels, warnings } = log;
  return writeForm(
    { format, meta, rowCount, durationSeconds, channels, warnings, encodings, ...(stored && { stored }) },
    log.rowCount,
    arrays,
  );
}

/**
 * The columnar form of `log`: version 3 with each array deflated by `deflate`, or version 2 (arrays
 * as they are) without it.
 */
export function serializeColumns(log: ParsedLog, deflate?: Deflate): Uint8Array {
  assertLittleEndian();
  const { encodings, arrays } = codedArrays(log);
  return formOf(log, encodings, deflate ? arrays.map(deflate) : arrays, Boolean(deflate));
}

/**
 * The same version 3 form, every array handed to `deflate` at once: a zlib with a thread pool
 * (Node's asynchronous one) compresses them side by side instead of one after another.
 */
export async function serializeColumnsConcurrently(log: ParsedLog, deflate: AsyncDeflate): Promise<Uint8Array> {
  assertLittleEndian();
  const { encodings, arrays } = codedArrays(log);
  return formOf(log, encodings, await Promise.all(arrays.map((array) => deflate(array))), true);
}

/** Writes the preamble, `header` and `arrays` (time first, as stored) into one form. */
function writeForm(header: StoredHeader & { encodings: Encodings }, rows: number, arrays: Uint8Array[]): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const places = placesOf(PREAMBLE + align8(json.length), rows, header.encodings, header.stored);
  const out = new Uint8Array(places.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, header.stored ? VERSION : UNCOMPRESSED_VERSION, true);
  view.setUint32(8, json.length, true);
  view.setUint32(12, rows, true);
  out.set(json, PREAMBLE);
  out.fill(0x20, PREAMBLE + json.length, places.time.at);
  [places.time, ...places.columns].forEach((place, i) => {
    out.set(arrays[i], place.at);
  });
  return out;
}

/** One array of the form: its byte offset, its length as stored (unpadded), how it is coded, and whether it is deflated. */
export interface ArrayPlace {
  at: number;
  bytes: number;
  encoding: ColumnEncoding;
  deflated: boolean;
}

/** Where each array of a columnar log lies, read from its first bytes (see the top of this file). */
export interface ColumnsLayout {
  header: Header;
  rows: number;
  time: ArrayPlace;
  /** One per channel, in the header's order. */
  columns: ArrayPlace[];
  /** Length of the whole form. */
  byteLength: number;
}

function placesOf(
  start: number,
  rows: number,
  encodings: Encodings,
  stored: StoredLengths | undefined,
): Pick<ColumnsLayout, "time" | "columns" | "byteLength"> {
  let at = start;
  const place = (encoding: ColumnEncoding, storedBytes: number | undefined): ArrayPlace => {
    const bytes = storedBytes ?? rows * BYTES_PER_CODE[encoding.type];
    const result = { at, bytes, encoding, deflated: storedBytes !== undefined };
    at += align8(bytes);
    return result;
  };
  const time = place(encodings.time, stored?.time);
  const columns = encodings.columns.map((encoding, i) => place(encoding, stored?.columns[i]));
  return { time, columns, byteLength: at };
}

/**
 * Reads the preamble and JSON header from the start of a columnar log, so a reader can fetch the
 * arrays it needs by byte range. When `bytes` ends inside the header, answers how many bytes the
 * header takes instead.
 */
export function readColumnsLayout(bytes: Uint8Array): ColumnsLayout | { headerBytes: number } {
  assertLittleEndian();
  if (bytes.length < PREAMBLE) throw new Error("Columnar log: too short for its header.");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (view.getUint32(0, true) !== MAGIC) throw new Error("Columnar log: bad magic number.");
  const version = view.getUint32(4, true);
  if (version < 1 || version > VERSION) throw new Error(`Columnar log: unsupported version ${version}.`);
  const jsonLength = view.getUint32(8, true);
  const rows = view.getUint32(12, true);
  if (bytes.length < PREAMBLE + jsonLength) return { headerBytes: PREAMBLE + jsonLength };
  const { encodings, stored, ...header } = JSON.parse(
    new TextDecoder().decode(bytes.subarray(PREAMBLE, PREAMBLE + jsonLength)),
  ) as StoredHeader;
  const coded = encodings ?? { time: { type: "f64" }, columns: header.channels.map(() => ({ type: "f32" })) };
  if (version === VERSION && !stored) throw new Error("Columnar log: version 3 without the arrays' stored lengths.");
  return {
    header,
    rows,
    ...placesOf(PREAMBLE + align8(jsonLength), rows, coded, version === VERSION ? stored : undefined),
  };
}

/**
 * The codes of one array from its bytes as coded (the caller inflates a deflated array first).
 * Bytes on an 8-byte boundary are viewed, not copied.
 */
export function arrayCodes(encoding: ColumnEncoding, bytes: Uint8Array, rows: number): ColumnCodes {
  const expected = rows * BYTES_PER_CODE[encoding.type];
  if (bytes.length !== expected)
    throw new Error(`Columnar log: an array of ${bytes.length} bytes where ${expected} were expected.`);
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  return codesOf(encoding, aligned.buffer, aligned.byteOffset, rows);
}

/** The stored bytes of `place` in `bytes`, a form or the part of one that starts at byte `from`. */
export function storedBytes(bytes: Uint8Array, place: ArrayPlace, from = 0): Uint8Array {
  return bytes.subarray(place.at - from, place.at - from + place.bytes);
}

/** A columnar log as stored: header and coded arrays, each a view of the input's buffer. */
export interface EncodedLog extends Header {
  time: EncodedColumn;
  columns: EncodedColumn[];
}

/**
 * Reads `serializeColumns` output without decoding the codes. Uncompressed arrays are views of
 * `input`'s buffer (one copy is made only when `input` does not start on an 8-byte boundary, as with
 * pooled Node Buffers); deflated ones are inflated with `inflate`.
 */
export function deserializeEncoded(input: ArrayBuffer | Uint8Array, inflate?: Inflate): EncodedLog {
  let bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.byteOffset % 8 !== 0) bytes = bytes.slice();
  const layout = readColumnsLayout(bytes);
  if ("headerBytes" in layout)
    throw new Error(`Columnar log: ${bytes.length} bytes where ${layout.headerBytes} were expected.`);
  if (bytes.length < layout.byteLength) {
    throw new Error(`Columnar log: ${bytes.length} bytes where ${layout.byteLength} were expected.`);
  }
  const read = (place: ArrayPlace): EncodedColumn => {
    const stored = storedBytes(bytes, place);
    if (place.deflated && !inflate) throw new Error("Columnar log: its arrays are deflated and no inflate was given.");
    return {
      codes: arrayCodes(place.encoding, place.deflated ? inflate!(stored) : stored, layout.rows),
      encoding: place.encoding,
    };
  };
  return { ...layout.header, time: read(layout.time), columns: layout.columns.map(read) };
}

/** Reads `serializeColumns` output into Float64 time and Float32 channels, as the parser made them. */
export function deserializeColumns(input: ArrayBuffer | Uint8Array, inflate?: Inflate): ParsedLog {
  const { time, columns, ...header } = deserializeEncoded(input, inflate);
  return {
    ...header,
    time: decodeColumn(time, Float64Array),
    columns: columns.map((column) => decodeColumn(column, Float32Array)),
  };
}

/**
 * The form with only the channels at `keep` (in that order), their arrays copied as stored: no
 * decoding, no compressing again. A form of version 1 comes out as version 2.
 */
export function selectChannels(input: Uint8Array, keep: number[]): Uint8Array {
  const layout = readColumnsLayout(input);
  if ("headerBytes" in layout || input.length < layout.byteLength)
    throw new Error("Columnar log: the form is not whole.");
  const { header, rows } = layout;
  const places = [layout.time, ...keep.map((i) => layout.columns[i])];
  const deflated = layout.time.deflated;
  const encodings = { time: layout.time.encoding, columns: keep.map((i) => layout.columns[i].encoding) };
  const stored = deflated ? { time: layout.time.bytes, columns: keep.map((i) => layout.columns[i].bytes) } : undefined;
  return writeForm(
    { ...header, channels: keep.map((i) => header.channels[i]), encodings, ...(stored && { stored }) },
    rows,
    places.map((place) => storedBytes(input, place)),
  );
}
