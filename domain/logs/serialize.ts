import { BYTES_PER_CODE, type ColumnEncoding, type EncodedColumn, codesOf, decodeColumn, encodeChannel, encodeTime } from "./column-codes";
import type { ParsedLog } from "./types";

/**
 * Columnar binary form of a parsed log, for the chart view to load instead of the CSV:
 *
 *   0   "TPLC"                      magic
 *   4   u32 version (2)
 *   8   u32 header JSON byte length (unpadded)
 *   12  u32 row count
 *   16  header JSON (UTF-8): everything in ParsedLog but the arrays, plus `encodings` (how the
 *       time and each channel are stored, see column-codes.ts), padded with spaces to 8 bytes
 *   …   time[rowCount], then column[rowCount] per channel, each in its encoding's type and
 *       padded to 8 bytes
 *
 * Little endian throughout, every array 8-byte aligned, so a reader takes typed-array views of
 * the buffer without copying. Version 1 (still read, for forms stored before version 2) had no
 * `encodings`: Float64 time and Float32 channels.
 */

const MAGIC = 0x434c5054; // "TPLC" read as a little-endian u32
const VERSION = 2;
const PREAMBLE = 16;

type Header = Omit<ParsedLog, "time" | "columns">;
interface Encodings {
  time: ColumnEncoding;
  columns: ColumnEncoding[];
}

const align8 = (n: number): number => (n + 7) & ~7;

function assertLittleEndian(): void {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
    throw new Error("The columnar log format needs a little-endian platform.");
  }
}

export function serializeColumns(log: ParsedLog): Uint8Array {
  assertLittleEndian();
  const rows = log.rowCount;
  const time = encodeTime(log.time.subarray(0, rows));
  const columns = log.columns.map((column) => encodeChannel(column.subarray(0, rows)));
  const encodings: Encodings = { time: time.encoding, columns: columns.map((column) => column.encoding) };
  const header: Header & { encodings: Encodings } = {
    format: log.format,
    meta: log.meta,
    rowCount: log.rowCount,
    durationSeconds: log.durationSeconds,
    channels: log.channels,
    warnings: log.warnings,
    encodings,
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const places = placesOf(PREAMBLE + align8(json.length), rows, encodings);

  const out = new Uint8Array(places.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  view.setUint32(8, json.length, true);
  view.setUint32(12, rows, true);
  out.set(json, PREAMBLE);
  out.fill(0x20, PREAMBLE + json.length, places.time.at);
  const write = (column: EncodedColumn, place: ArrayPlace) => out.set(new Uint8Array(column.codes.buffer, column.codes.byteOffset, place.bytes), place.at);
  write(time, places.time);
  columns.forEach((column, i) => write(column, places.columns[i]));
  return out;
}

/** One array of the form: its byte offset, its length in bytes (unpadded) and how it is coded. */
export interface ArrayPlace {
  at: number;
  bytes: number;
  encoding: ColumnEncoding;
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

function placesOf(start: number, rows: number, encodings: Encodings): Pick<ColumnsLayout, "time" | "columns" | "byteLength"> {
  let at = start;
  const place = (encoding: ColumnEncoding): ArrayPlace => {
    const bytes = rows * BYTES_PER_CODE[encoding.type];
    const result = { at, bytes, encoding };
    at += align8(bytes);
    return result;
  };
  const time = place(encodings.time);
  const columns = encodings.columns.map(place);
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
  if (version !== 1 && version !== VERSION) throw new Error(`Columnar log: unsupported version ${version}.`);
  const jsonLength = view.getUint32(8, true);
  const rows = view.getUint32(12, true);
  if (bytes.length < PREAMBLE + jsonLength) return { headerBytes: PREAMBLE + jsonLength };
  const { encodings, ...header } = JSON.parse(new TextDecoder().decode(bytes.subarray(PREAMBLE, PREAMBLE + jsonLength))) as Header & { encodings?: Encodings };
  const stored = encodings ?? { time: { type: "f64" }, columns: header.channels.map(() => ({ type: "f32" })) };
  return { header, rows, ...placesOf(PREAMBLE + align8(jsonLength), rows, stored) };
}

/** A columnar log as stored: header and coded arrays, each a view of the input's buffer. */
export interface EncodedLog extends Header {
  time: EncodedColumn;
  columns: EncodedColumn[];
}

/**
 * Reads `serializeColumns` output without decoding it. The arrays are views of `input`'s buffer
 * (one copy is made only when `input` does not start on an 8-byte boundary, as with pooled Node
 * Buffers).
 */
export function deserializeEncoded(input: ArrayBuffer | Uint8Array): EncodedLog {
  let bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.byteOffset % 8 !== 0) bytes = bytes.slice();
  const layout = readColumnsLayout(bytes);
  if ("headerBytes" in layout) throw new Error(`Columnar log: ${bytes.length} bytes where ${layout.headerBytes} were expected.`);
  if (bytes.length < layout.byteLength) {
    throw new Error(`Columnar log: ${bytes.length} bytes where ${layout.byteLength} were expected.`);
  }
  const view = (place: ArrayPlace): EncodedColumn => ({ codes: codesOf(place.encoding, bytes.buffer, bytes.byteOffset + place.at, layout.rows), encoding: place.encoding });
  return { ...layout.header, time: view(layout.time), columns: layout.columns.map(view) };
}

/** Reads `serializeColumns` output into Float64 time and Float32 channels, as the parser made them. */
export function deserializeColumns(input: ArrayBuffer | Uint8Array): ParsedLog {
  const { time, columns, ...header } = deserializeEncoded(input);
  return {
    ...header,
    time: decodeColumn(time, Float64Array),
    columns: columns.map((column) => decodeColumn(column, Float32Array)),
  };
}
