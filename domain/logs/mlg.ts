/**
 * MegaLogViewer binary logs (`.mlg`, magic "MLVLG"), written by TunerStudio, Speeduino and rusEFI.
 * Big-endian throughout. Format versions 1 and 2 differ in the width of the info offset (u16/u32)
 * and of a field description (55/89 bytes: version 2 adds a 34-byte category):
 *
 *   header   "MLVLG\0", u16 version, u32 unix time, info offset (u16 v1 / u32 v2), u32 data offset,
 *            u16 record length, u16 field count
 *   fields   u8 type, name[34], units[10], u8 display style, f32 scale, f32 transform, i8 digits
 *            (v2: category[34]); bit fields keep the same size with other meanings after units
 *   info     text up to the data offset ("Capture Date: …" lines, NUL-terminated)
 *   blocks   u8 block type, u8 counter, u16 time stamp (10 µs ticks, wraps), then
 *            type 0: one record (the fields in order) and a u8 checksum (sum of the record bytes);
 *            type 1: a marker, message[50]
 *
 * A field's value is (raw + transform) × scale.
 */
import { LogParseError } from "./errors";
import type { MetaDraft } from "./layout";

export const MLG_MAGIC = [0x4d, 0x4c, 0x56, 0x4c, 0x47]; // "MLVLG"

export function isMlg(bytes: Uint8Array): boolean {
  return bytes.length >= 5 && MLG_MAGIC.every((b, i) => bytes[i] === b);
}

/** Bytes per type: 0 U08, 1 S08, 2 U16, 3 S16, 4 U32, 5 S32, 6 S64, 7 F32, 10–12 U08/U16/U32 bit fields. */
const TYPE_SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 8, 7: 4, 10: 1, 11: 2, 12: 4 };
const TICK_SECONDS = 1e-5;

export interface MlgField {
  type: number;
  name: string;
  unit: string;
  scale: number;
  transform: number;
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

function text(bytes: Uint8Array, start: number, length: number): string {
  let end = start;
  while (end < start + length && bytes[end] !== 0) end++;
  return new TextDecoder("latin1").decode(bytes.subarray(start, end)).trim();
}

/** The shortest decimal that is this Float32 (9.26, not 9.260000228881836). */
function shortestF32(v: number): number {
  for (let p = 1; p <= 9; p++) {
    const d = Number(v.toPrecision(p));
    if (Math.fround(d) === v) return d;
  }
  return v;
}

export function readMlg(bytes: Uint8Array): MlgLog {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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

  const fields: MlgField[] = [];
  const warnings: string[] = [];
  for (let i = 0; i < fieldCount; i++, at += fieldSize) {
    const type = bytes[at];
    const name = text(bytes, at + 1, 34) || `Field ${i + 1}`;
    const unit = text(bytes, at + 35, 10);
    if (!(type in TYPE_SIZE)) fail(`field "${name}" has an unknown type ${type}.`);
    const bitField = type >= 10;
    fields.push({
      type,
      name,
      unit,
      scale: bitField ? 1 : view.getFloat32(at + 46) || 1,
      transform: bitField ? 0 : view.getFloat32(at + 50),
    });
  }
  const width = fields.reduce((sum, f) => sum + TYPE_SIZE[f.type], 0);
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
      if (i === 0 && !/^Capture Date:/i.test(line)) {
        // The firmware's signature: "speeduino 202006-dev: Speeduino 2020.06-dev", "rusEFI master.2024.05.01…".
        meta.extra.firmware = line;
        const sig = /^(\S+)\s+([^\s:]+)/.exec(line);
        if (sig) {
          meta.device = sig[1];
          meta.appVersion = sig[2];
        }
      } else if (kv) meta.extra[kv[1]] = kv[2];
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
    o += TYPE_SIZE[f.type];
  }
  for (let r = 0; r < rowCount; r++) {
    const base = rowOffsets[r];
    let c = 0;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      const at = base + offsets[i];
      let raw: number;
      switch (f.type) {
        case 0:
        case 10:
          raw = bytes[at];
          break;
        case 1:
          raw = view.getInt8(at);
          break;
        case 2:
        case 11:
          raw = view.getUint16(at);
          break;
        case 3:
          raw = view.getInt16(at);
          break;
        case 4:
        case 12:
          raw = view.getUint32(at);
          break;
        case 5:
          raw = view.getInt32(at);
          break;
        case 6:
          raw = Number(view.getBigInt64(at));
          break;
        default:
          raw = view.getFloat32(at);
      }
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
