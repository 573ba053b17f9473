import type { ParsedLog } from "./types";

/**
 * Columnar binary form of a parsed log, for the chart view to load instead of the CSV:
 *
 *   0   "TPLC"                      magic
 *   4   u32 version (1)
 *   8   u32 header JSON byte length (unpadded)
 *   12  u32 row count
 *   16  header JSON (UTF-8): everything in ParsedLog but the arrays, padded with spaces to 8 bytes
 *   …   Float64 time[rowCount]
 *   …   Float32 column[rowCount] per channel, each padded to 8 bytes
 *
 * Little endian throughout, every array 8-byte aligned, so a reader takes typed-array views of
 * the buffer without copying (4 bytes per sample held in the tab).
 */

const MAGIC = 0x434c5054; // "TPLC" read as a little-endian u32
const VERSION = 1;
const PREAMBLE = 16;

type Header = Omit<ParsedLog, "time" | "columns">;

const align8 = (n: number): number => (n + 7) & ~7;

function assertLittleEndian(): void {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
    throw new Error("The columnar log format needs a little-endian platform.");
  }
}

export function serializeColumns(log: ParsedLog): Uint8Array {
  assertLittleEndian();
  const header: Header = {
    format: log.format,
    meta: log.meta,
    rowCount: log.rowCount,
    durationSeconds: log.durationSeconds,
    channels: log.channels,
    warnings: log.warnings,
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const rows = log.rowCount;
  const columnBytes = align8(rows * 4);
  const timeAt = PREAMBLE + align8(json.length);
  const total = timeAt + rows * 8 + columnBytes * log.columns.length;

  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  view.setUint32(8, json.length, true);
  view.setUint32(12, rows, true);
  out.set(json, PREAMBLE);
  out.fill(0x20, PREAMBLE + json.length, timeAt);
  new Float64Array(out.buffer, timeAt, rows).set(log.time.subarray(0, rows));
  log.columns.forEach((column, i) => {
    new Float32Array(out.buffer, timeAt + rows * 8 + i * columnBytes, rows).set(column.subarray(0, rows));
  });
  return out;
}

/** Where each array of a columnar log lies, read from its first bytes (see the top of this file). */
export interface ColumnsLayout {
  header: Header;
  rows: number;
  /** Byte offset of the Float64 time array. */
  timeAt: number;
  /** Byte offset of channel `i`'s Float32 array: `channelsAt + i * columnBytes`. */
  channelsAt: number;
  columnBytes: number;
  /** Length of the whole form. */
  byteLength: number;
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
  if (version !== VERSION) throw new Error(`Columnar log: unsupported version ${version}.`);
  const jsonLength = view.getUint32(8, true);
  const rows = view.getUint32(12, true);
  if (bytes.length < PREAMBLE + jsonLength) return { headerBytes: PREAMBLE + jsonLength };
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(PREAMBLE, PREAMBLE + jsonLength))) as Header;
  const timeAt = PREAMBLE + align8(jsonLength);
  const columnBytes = align8(rows * 4);
  const channelsAt = timeAt + rows * 8;
  return { header, rows, timeAt, channelsAt, columnBytes, byteLength: channelsAt + columnBytes * header.channels.length };
}

/**
 * Reads `serializeColumns` output. The arrays are views of `input`'s buffer (one copy is made
 * only when `input` does not start on an 8-byte boundary, as with pooled Node Buffers).
 */
export function deserializeColumns(input: ArrayBuffer | Uint8Array): ParsedLog {
  let bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.byteOffset % 8 !== 0) bytes = bytes.slice();
  const layout = readColumnsLayout(bytes);
  if ("headerBytes" in layout) throw new Error(`Columnar log: ${bytes.length} bytes where ${layout.headerBytes} were expected.`);
  if (bytes.length < layout.byteLength) {
    throw new Error(`Columnar log: ${bytes.length} bytes where ${layout.byteLength} were expected.`);
  }
  const base = bytes.byteOffset;
  return {
    ...layout.header,
    time: new Float64Array(bytes.buffer, base + layout.timeAt, layout.rows),
    columns: layout.header.channels.map((_, i) => new Float32Array(bytes.buffer, base + layout.channelsAt + i * layout.columnBytes, layout.rows)),
  };
}
