/**
 * Loggers write local dates in their own notations; these become ISO 8601 strings without a zone
 * ("2023-05-05T16:17:36.182"), or a plain date when the file gives no time of day.
 */

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/** German month names whose first three letters differ from English (VCDS writes the UI language). */
const GERMAN_MONTHS: Record<string, number> = { mär: 3, mae: 3, mai: 5, okt: 10, dez: 12 };

function monthIndex(name: string): number {
  const key = name.slice(0, 3).toLowerCase();
  return MONTHS.indexOf(key) + 1 || GERMAN_MONTHS[key] || 0;
}

export function isoDate(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1900 || year > 2200) return undefined;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** "hh:mm:ss.fff" from seconds since midnight (milliseconds, truncated to what a logger records). */
export function isoTimeOfDay(seconds: number): string {
  const ms = Math.round(seconds * 1000) % 86_400_000;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

const TIME_PART = /(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*([AaPp][Mm])?/;

function timePart(text: string): string | undefined {
  const m = TIME_PART.exec(text);
  if (!m) return undefined;
  let hour = Number(m[1]);
  const ampm = m[5]?.toLowerCase();
  if (ampm === "pm" && hour < 12) hour += 12;
  if (ampm === "am" && hour === 12) hour = 0;
  if (hour > 23) return undefined;
  const millis = m[4] ? `.${m[4].padEnd(3, "0").slice(0, 3)}` : "";
  return `${pad(hour)}:${m[2]}:${m[3] ?? "00"}${millis}`;
}

/**
 * Reads the date notations seen in logger preambles: ISO, US "05/05/2023 04:17:36 PM",
 * European "22.02.2014 17:47:01.046", compact "20250718 02:15:46", "Nov 9, 2025" and VCDS's
 * "Sunday,11,October,2009,18:29:08".
 */
export function parseLoggerDate(text: string): string | undefined {
  const s = text.trim();
  let date: string | undefined;
  let rest = "";
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})-(\d{2})-(\d{2})[T ]?(.*)$/.exec(s))) {
    date = isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
    rest = m[4];
  } else if ((m = /^(\d{4})(\d{2})(\d{2})\s+(.*)$/.exec(s))) {
    date = isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
    rest = m[4];
  } else if ((m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s*(.*)$/.exec(s))) {
    date = isoDate(Number(m[3]), Number(m[1]), Number(m[2]));
    rest = m[4];
  } else if ((m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})\s*(.*)$/.exec(s))) {
    date = isoDate(Number(m[3]), Number(m[2]), Number(m[1]));
    rest = m[4];
  } else if ((m = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})\s*(.*)$/.exec(s))) {
    date = isoDate(Number(m[3]), monthIndex(m[1]), Number(m[2]));
    rest = m[4];
  } else if ((m = /^(?:\p{L}+,\s*)?(\d{1,2}),\s*(\p{L}+),\s*(\d{4}),?\s*(.*)$/u.exec(s))) {
    date = isoDate(Number(m[3]), monthIndex(m[2]), Number(m[1]));
    rest = m[4];
  }
  if (!date) return undefined;
  const time = rest ? timePart(rest) : undefined;
  return time ? `${date}T${time}` : date;
}
