/**
 * Link ECU logs (G4X, G5 "Voodoo": PCLink's `.llg5`), little-endian, a chain of blocks each
 * starting with its u32 size and a three-letter tag:
 *
 *   lf3   the file header (the first block)
 *   ld2   the log's details: 200-byte UTF-16 slots — 3 the ECU model, 31 and 32 versions,
 *         35 the title ("ECU Internal Datalog - 2024-02-8 3;56;20 pm")
 *   lm1   a marker: UTF-16 text from byte 8 ("Record Start", "Record Resume", "EOL"), f64 seconds at 208
 *   ds3   a channel: u32 sample count at 7, u32 channel id at 211, UTF-16 name[200] at 215 and
 *         unit[200] at 415, f64 sample period at 620; the block is followed by its samples,
 *         (f32 seconds, f32 value) pairs
 *
 * Learned from the files themselves and UltraLog's notes on the format; every channel keeps its
 * own times, so they are merged onto one time axis (`mergeSampleTimes`).
 */
import { LogParseError } from "../errors";
import type { MetaDraft } from "../layout";
import type { BinaryChannel, BinaryLog } from "./binary-log";
import { mergeSampleTimes } from "./binary-log";
import { hasBytes, shortestF32, utf16String, viewOf } from "./bytes";

const SLOT = 200;

export function isLinkLog(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && hasBytes(bytes, "lf3", 4) && viewOf(bytes).getUint32(0, true) < bytes.length;
}

/**
 * Link stores the quantity, not the unit, for values it keeps in one unit whatever PCLink shows;
 * in the sample MAP 88.4 with MGP −13.2 (MAP − barometric) gives 101.6, a barometric pressure in kPa.
 */
const QUANTITY_UNIT: Record<string, string> = { Pressure: "kPa", Temperature: "°C" };

export function readLinkLog(bytes: Uint8Array): BinaryLog {
  const view = viewOf(bytes);
  const fail = (message: string): never => {
    throw new LogParseError("no-header", `Link ECU log: ${message}`);
  };
  const meta: MetaDraft = { extra: {} };
  const markers: { text: string; seconds: number }[] = [];
  const series: { times: Float64Array; values: Float32Array }[] = [];
  const channels: Omit<BinaryChannel, "column">[] = [];
  let p = 0;
  while (p + 7 <= bytes.length) {
    const size = view.getUint32(p, true);
    const tag = String.fromCharCode(bytes[p + 4], bytes[p + 5], bytes[p + 6]);
    if (size < 7 || p + size > bytes.length) fail(`the block at byte ${p} ("${tag}") runs past the end of the file.`);
    if (tag === "ld2") readDetails(bytes, p, meta);
    else if (tag === "lm1")
      markers.push({ text: utf16String(bytes, p + 8, SLOT / 2), seconds: view.getFloat64(p + 208, true) });
    else if (tag === "ds3") {
      const count = view.getUint32(p + 7, true);
      const start = p + size;
      if (start + count * 8 > bytes.length) fail(`channel at byte ${p} has ${count} samples past the end of the file.`);
      const times = new Float64Array(count);
      const values = new Float32Array(count);
      for (let k = 0; k < count; k++) {
        times[k] = shortestF32(view.getFloat32(start + k * 8, true));
        values[k] = view.getFloat32(start + k * 8 + 4, true);
      }
      const name = utf16String(bytes, p + 215, SLOT / 2);
      const quantity = utf16String(bytes, p + 415, SLOT / 2);
      channels.push({
        name: name || `Channel ${view.getUint32(p + 211, true)}`,
        unit: QUANTITY_UNIT[quantity] ?? quantity,
        sourceHeader: `${name} (id ${view.getUint32(p + 211, true)})`,
      });
      series.push({ times, values });
      p = start + count * 8;
      continue;
    }
    p += size;
  }
  if (channels.length === 0) fail("the file holds no channel blocks.");
  const { time, columns } = mergeSampleTimes(series);
  const warnings: string[] = [];
  const counts = new Set(series.map((s) => s.times.length));
  if (counts.size > 1) {
    warnings.push(
      "Channels are sampled at different rates: each is shown at every time of the log with its latest sample, and as a gap before its first.",
    );
  }
  if (markers.length > 0) {
    const t0 = time.length > 0 ? time[0] : 0;
    meta.extra.markers = markers.map((m) => `${m.text} @ ${(m.seconds - t0).toFixed(3)} s`).join("; ");
  }
  return {
    format: "link",
    sourceFormat: "Link ECU",
    time,
    channels: channels.map((c, i) => ({ ...c, column: columns[i] })),
    meta,
    warnings,
  };
}

/** The ld2 block's slots: ECU model, versions, and the title with the log's start. */
function readDetails(bytes: Uint8Array, block: number, meta: MetaDraft): void {
  const slot = (i: number) => utf16String(bytes, block + 7 + i * SLOT, SLOT / 2);
  const model = slot(3);
  if (model) meta.device = model;
  const versions = [slot(31), slot(32)].filter(Boolean);
  if (versions.length > 0) meta.extra.versions = versions.join(" / ");
  const title = slot(35);
  if (title) meta.extra.title = title;
  // "2024-02-8 3;56;20 pm": PCLink writes the time with semicolons, hours on a 12-hour clock.
  const m = /(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2});(\d{2});(\d{2})\s*([ap]m)?/i.exec(title);
  if (m) {
    const h = Number(m[4]);
    const hour = m[7] ? (h % 12) + (m[7].toLowerCase() === "pm" ? 12 : 0) : h;
    const two = (v: string | number) => String(v).padStart(2, "0");
    meta.startedAt = `${m[1]}-${two(m[2])}-${two(m[3])}T${two(hour)}:${m[5]}:${m[6]}`;
  }
}
