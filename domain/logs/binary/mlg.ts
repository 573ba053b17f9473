/**
 * MegaLogViewer binary logs (`.mlg`, magic "MLVLG"), written by TunerStudio, Speeduino and rusEFI.
 * Big-endian throughout. Format versions 1 and 2 differ in the width of the info offset (u16/u32)
 * and of a field description (55/89 bytes: version 2 adds a 34-byte category):
 *
 *   header   "MLVLG\0", u16 version, u32 unix time, info offset (u16 v1 / u32 v2), u32 data offset,
 *            u16 record length, u16 field count
 *   fields   u8 type, name[34], units[10], u8 display style, then
 *            scalars: f32 scale, f32 transform, i8 digits;
 *            bit fields: u8 bit style, u32 offset of the field's first bit name, u8 bit count, 3 unused;
 *            (v2: category[34])
 *   names    the bit names, NUL-separated, between the fields and the info text
 *   info     text up to the data offset ("Capture Date: …" lines, NUL-terminated)
 *   blocks   u8 block type, u8 counter, u16 time stamp (10 µs ticks, wraps), then
 *            type 0: one record (the fields in order) and a u8 checksum (sum of the record bytes);
 *            type 1: a marker, message[50]
 *
 * A field's value is (raw + transform) × scale.
 */
import { LogParseError } from "../errors";
import { readFirmwareSignature } from "../identity";
import type { MetaDraft } from "../layout";
import { shortestF32, cString as text, viewOf } from "./bytes";

export const MLG_MAGIC = [0x4d, 0x4c, 0x56, 0x4c, 0x47]; // "MLVLG"

export function isMlg(bytes: Uint8Array): boolean {
  return bytes.length >= 5 && MLG_MAGIC.every((b, i) => bytes[i] === b);
}

/**
 * Bytes per type as EFI Analytics' format description lists them: 0 U08, 1 S08, 2 U16, 3 S16,
 * 4 U32, 5 S32, 6 S64, 7 F32, 10–12 U08/U16/U32 bit fields.
 */
const TYPE_SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 8, 7: 4, 10: 1, 11: 2, 12: 4 };
const BIT_FIELD_FROM = 10;
/** The unsigned scalar type of each size, for reading bit fields. */
const SIZE_TYPE: Record<number, number> = { 1: 0, 2: 2, 4: 4 };
const READ: Record<number, (view: DataView, at: number) => number> = {
  0: (v, at) => v.getUint8(at),
  1: (v, at) => v.getInt8(at),
  2: (v, at) => v.getUint16(at),
  3: (v, at) => v.getInt16(at),
  4: (v, at) => v.getUint32(at),
  5: (v, at) => v.getInt32(at),
  6: (v, at) => Number(v.getBigInt64(at)),
  7: (v, at) => v.getFloat32(at),
};
const TICK_SECONDS = 1e-5;

export interface MlgField {
  type: number;
  name: string;
  unit: string;
  scale: number;
  transform: number;
  /** Bytes in a record. */
  size: number;
  /** A bit field's bit names, in bit order. */
  bits?: string[];
}

export interface MlgLog {
  version: number;
  fields: MlgField[];
  /** Seconds from the file: the "Time" field when there is one, else the blocks' stamps unwound. */
  time: Float64Array;
  timeSource: "field" | "block-stamps";
  /** One per field but the time field, same order as `channelFields`. */
  channelFields: MlgField[];
  columns: Float32Array[];
  rowCount: number;
  meta: MetaDraft;
  warnings: string[];
}

export function readMlg(bytes: Uint8Array): MlgLog {
  const view = viewOf(bytes);
  const fail = (message: string): never => {
    throw new LogParseError("no-header", `MegaLogViewer log: ${message}`);
  };
  if (bytes.length < 24) fail("the file ends inside its header.");
  const version = view.getUint16(6);
  if (version !== 1 && version !== 2) fail(`format version ${version} is not known (1 and 2 are read).`);
  const v2 = version === 2;
  const created = view.getUint32(8);
  let at = 12;
  const infoStart = v2 ? view.getUint32(at) : view.getUint16(at);
  at += v2 ? 4 : 2;
  const dataStart = view.getUint32(at);
  const recordLength = view.getUint16(at + 4);
  const fieldCount = view.getUint16(at + 6);
  at += 8;
  const fieldSize = v2 ? 89 : 55;
  if (at + fieldCount * fieldSize > bytes.length || dataStart > bytes.length)
    fail("the field list runs past the end of the file.");

  const warnings: string[] = [];
  const fields = readFields(bytes, view, at, fieldCount, fieldSize, recordLength, warnings, fail);
  const width = fields.reduce((sum, f) => sum + f.size, 0);
  if (width !== recordLength) {
    warnings.push(
      `The header says records are ${recordLength} bytes but its fields add up to ${width}; the fields were followed.`,
    );
  }

  const meta: MetaDraft = { extra: {} };
  if (infoStart > 0 && infoStart < dataStart) {
    const info = text(bytes, infoStart, dataStart - infoStart);
    const lines = info
      .split(/\r?\n/)
      .map((l) => l.replace(/^"|"$/g, "").trim())
      .filter(Boolean);
    lines.forEach((line, i) => {
      const kv = /^([A-Za-z][\w ]{0,30}):\s*(.*)$/.exec(line);
      if (i === 0 && !/^Capture Date:/i.test(line)) readFirmwareSignature(line, meta);
      else if (kv) meta.extra[kv[1]] = kv[2];
    });
  }
  if (created > 0) meta.extra.createdUtc = new Date(created * 1000).toISOString().replace(/\.000Z$/, "Z");

  // Blocks: count first, then fill typed arrays.
  const markers: string[] = [];
  const rowOffsets: number[] = [];
  const stamps: number[] = [];
  let badChecksums = 0;
  let p = dataStart;
  while (p + 4 <= bytes.length) {
    const type = bytes[p];
    if (type === 0) {
      if (p + 4 + width + 1 > bytes.length) {
        warnings.push(`The last record (at byte ${p}) is cut short by the end of the file and was left out.`);
        break;
      }
      let sum = 0;
      for (let i = p + 4; i < p + 4 + width; i++) sum += bytes[i];
      if ((sum & 0xff) !== bytes[p + 4 + width]) badChecksums++;
      rowOffsets.push(p + 4);
      stamps.push(view.getUint16(p + 2));
      p += 4 + width + 1;
    } else if (type === 1) {
      if (p + 54 > bytes.length) break;
      // A marker is set between records: it is shown at the last record before it.
      markers.push(`${text(bytes, p + 4, 50)}#${Math.max(0, rowOffsets.length - 1)}`);
      p += 54;
    } else {
      warnings.push(`Unknown block type ${type} at byte ${p}: the rest of the file was left out.`);
      break;
    }
  }
  if (badChecksums > 0) {
    warnings.push(`${badChecksums} record${badChecksums > 1 ? "s" : ""} fail their checksum; their values are kept.`);
  }
  const rowCount = rowOffsets.length;
  const timeIndex = fields.findIndex((f) => /^time$/i.test(f.name) && /^(s|sec|)$/i.test(f.unit));
  const channelFields = fields.filter((_, i) => i !== timeIndex);
  const columns = channelFields.map(() => new Float32Array(rowCount));
  const time = new Float64Array(rowCount);
  const offsets: number[] = [];
  let o = 0;
  for (const f of fields) {
    offsets.push(o);
    o += f.size;
  }
  // Bit fields are unsigned integers of their size.
  const readers = fields.map((f) => READ[f.type < BIT_FIELD_FROM ? f.type : SIZE_TYPE[f.size]]);
  for (let r = 0; r < rowCount; r++) {
    const base = rowOffsets[r];
    let c = 0;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      const raw = readers[i](view, base + offsets[i]);
      if (i === timeIndex) {
        const v = (raw + f.transform) * f.scale;
        time[r] = f.type === 7 && f.scale === 1 && f.transform === 0 ? shortestF32(v) : v;
      } else columns[c++][r] = (raw + f.transform) * f.scale;
    }
  }
  if (timeIndex < 0) {
    // 10 µs ticks in a u16: unwound at each wrap (every 0.655 s).
    let wraps = 0;
    for (let r = 0; r < rowCount; r++) {
      if (r > 0 && stamps[r] < stamps[r - 1]) wraps++;
      time[r] = (stamps[r] + wraps * 65536) * TICK_SECONDS;
    }
  }
  if (markers.length > 0) {
    meta.extra.markers = markers
      .map((m) => {
        const [message, row] = [m.slice(0, m.lastIndexOf("#")), Number(m.slice(m.lastIndexOf("#") + 1))];
        const t = rowCount === 0 ? 0 : time[Math.min(row, rowCount - 1)] - time[0];
        return `${message || "marker"} @ ${t.toFixed(3)} s`;
      })
      .join("; ");
  }
  return {
    version,
    fields,
    time,
    timeSource: timeIndex >= 0 ? "field" : "block-stamps",
    channelFields,
    columns,
    rowCount,
    meta,
    warnings,
  };
}

/**
 * The field list. A type the format description does not list (TunerStudio writes a nameless
 * type 16 with a bit field's layout for Speeduino's engine-protection bits) is read with the
 * bit-field layout and sized from the header's record length when it is the only field whose
 * size is not known; otherwise the file is refused naming the type.
 */
function readFields(
  bytes: Uint8Array,
  view: DataView,
  start: number,
  count: number,
  fieldSize: number,
  recordLength: number,
  warnings: string[],
  fail: (message: string) => never,
): MlgField[] {
  const fields: MlgField[] = [];
  const unknown: number[] = [];
  for (let i = 0, at = start; i < count; i++, at += fieldSize) {
    const type = bytes[at];
    const unit = text(bytes, at + 35, 10);
    let name = text(bytes, at + 1, 34);
    if (type >= BIT_FIELD_FROM) {
      // The name offset is from the start of the file; one that points into the header counts from the names.
      const names = start + count * fieldSize;
      const offset = view.getUint32(at + 47);
      const bits = bitNames(bytes, offset >= names ? offset : names + offset, bytes[at + 51]);
      if (!name) name = bits.join(" / ");
      const size = TYPE_SIZE[type] ?? 0;
      fields.push({ type, name: name || `Field ${i + 1}`, unit, scale: 1, transform: 0, size, bits });
      if (!(type in TYPE_SIZE)) unknown.push(i);
    } else if (type in TYPE_SIZE) {
      fields.push({
        type,
        name: name || `Field ${i + 1}`,
        unit,
        scale: view.getFloat32(at + 46) || 1,
        transform: view.getFloat32(at + 50),
        size: TYPE_SIZE[type],
      });
    } else fail(`field "${name || i + 1}" has an unknown type ${type}.`);
  }
  if (unknown.length > 0) {
    const known = fields.reduce((sum, f) => sum + f.size, 0);
    const left = recordLength - known;
    const f = fields[unknown[0]];
    if (unknown.length > 1 || !(left in SIZE_TYPE)) {
      fail(`bit field "${f.name}" has a type (${f.type}) whose size the format description does not give.`);
    }
    f.size = left;
    warnings.push(
      `Bit field "${f.name}" has type ${f.type}, which the format description does not list: read as ${left * 8} bits, the size its records leave it.`,
    );
  }
  return fields;
}

/** `count` NUL-separated names from `offset`, where the file keeps its bit names. */
function bitNames(bytes: Uint8Array, offset: number, count: number): string[] {
  const names: string[] = [];
  let at = offset;
  for (let i = 0; i < count && at < bytes.length; i++) {
    let end = at;
    while (end < bytes.length && bytes[end] !== 0) end++;
    names.push(text(bytes, at, end - at));
    at = end + 1;
  }
  return names;
}
