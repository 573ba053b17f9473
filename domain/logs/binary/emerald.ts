/**
 * Emerald ECU logs (K6, M3D): two files of the same name.
 *
 *   .lg1  records of 24 bytes, little-endian: f64 time stamp (days since 1899-12-30, the OLE
 *         date), then 8 u16 samples, one per logged slot
 *   .lg2  text naming what each slot holds: "[chan1]" then the channel id on the next line, for
 *         slots 1 to 8, then "[ValU]" and five numbers
 *
 * Learned from the files themselves and UltraLog's notes on the format. The file does not say
 * what an id measures or how it is scaled; only the ids whose meaning the sample makes plain are
 * named (see README), the others are raw numbers named by their id.
 */
import { LogParseError } from "../errors";
import type { MetaDraft } from "../layout";
import type { BinaryLog, Companion } from "./binary-log";
import { viewOf } from "./bytes";

const RECORD = 24;
const SLOTS = 8;
const DAY_SECONDS = 86_400;
/** OLE dates of 1990-01-01 and 2100-01-01: anything else is not a log's time stamp. */
const DATE_RANGE = [32_874, 73_051];

/** Ids whose quantity and unit the sample shows without doubt (raw value, no scaling). */
const KNOWN_IDS: Record<number, { name: string; unit: string }> = {
  2: { name: "Air Temp", unit: "°C" },
  19: { name: "Coolant Temp", unit: "°C" },
  20: { name: "RPM", unit: "rpm" },
};

/** Whole 24-byte records whose first stamps are dates and step forward by less than a minute. */
export function isEmeraldLg1(bytes: Uint8Array): boolean {
  if (bytes.length < RECORD || bytes.length % RECORD !== 0) return false;
  const view = viewOf(bytes);
  const first = view.getFloat64(0, true);
  if (!(first >= DATE_RANGE[0] && first <= DATE_RANGE[1])) return false;
  for (let r = 1; r < Math.min(4, bytes.length / RECORD); r++) {
    const step = (view.getFloat64(r * RECORD, true) - view.getFloat64((r - 1) * RECORD, true)) * DAY_SECONDS;
    if (!(step >= 0 && step < 60)) return false;
  }
  return true;
}

/** The slot → channel id list of an `.lg2`, or undefined when the text is not one. */
export function readLg2(bytes: Uint8Array): { ids: number[]; valueUnits: string } | undefined {
  // Plain ASCII; latin1 never refuses a byte, so any companion can be tried.
  const text = new TextDecoder("latin1").decode(bytes);
  const ids: number[] = [];
  for (let slot = 1; slot <= SLOTS; slot++) {
    const m = new RegExp(`\\[chan${slot}\\]\\s*\\r?\\n\\s*(\\d+)`).exec(text);
    if (!m) return undefined;
    ids.push(Number(m[1]));
  }
  const units = /\[ValU\]\s*\r?\n([\d\s]+)/.exec(text);
  return { ids, valueUnits: units ? units[1].trim().split(/\s+/).join(" ") : "" };
}

export function readEmerald(lg1: Uint8Array, companions: Companion[]): BinaryLog {
  const list = companions.map((c) => readLg2(c.bytes)).find((l) => l !== undefined);
  if (!list) {
    throw new LogParseError(
      "needs-companion",
      "An Emerald ECU .lg1 log: upload it together with its .lg2 channel list (the file of the same name beside it), which says what each column holds.",
    );
  }
  const view = viewOf(lg1);
  const rows = lg1.length / RECORD;
  const time = new Float64Array(rows);
  const columns = list.ids.map(() => new Float32Array(rows));
  // Seconds since the first record's midnight, like other clock-stamped logs; to the microsecond,
  // since a day count this large carries float noise below that.
  const midnight = Math.floor(view.getFloat64(0, true));
  for (let r = 0; r < rows; r++) {
    const at = r * RECORD;
    time[r] = Math.round((view.getFloat64(at, true) - midnight) * DAY_SECONDS * 1e6) / 1e6;
    for (let s = 0; s < SLOTS; s++) columns[s][r] = view.getUint16(at + 8 + s * 2, true);
  }
  const meta: MetaDraft = { extra: { channelIds: list.ids.join(" ") } };
  if (list.valueUnits) meta.extra.valueUnits = list.valueUnits;
  meta.startedAt = oleDateText(view.getFloat64(0, true));
  const raw = list.ids.filter((id) => !(id in KNOWN_IDS));
  const warnings =
    raw.length > 0
      ? [
          `Emerald logs do not say what channel ids ${raw.join(", ")} measure or how they are scaled: they are shown as raw numbers named by id.`,
        ]
      : [];
  return {
    format: "emerald",
    sourceFormat: "Emerald ECU",
    time,
    channels: list.ids.map((id, s) => ({
      name: KNOWN_IDS[id]?.name ?? `Channel ${id}`,
      unit: KNOWN_IDS[id]?.unit ?? "",
      sourceHeader: `[chan${s + 1}] ${id}`,
      column: columns[s],
    })),
    meta,
    warnings,
  };
}

/** An OLE date as local ISO time to the millisecond (the ECU's clock has no zone). */
function oleDateText(days: number): string {
  const ms = Math.round((days - 25_569) * DAY_SECONDS * 1000); // 25569: 1970-01-01 as an OLE date
  return new Date(ms).toISOString().replace(/Z$/, "");
}
