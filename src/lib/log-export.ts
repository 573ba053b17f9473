/**
 * What the log view exports: the visible range of the chosen channels as CSV, in the units the
 * chart shows them in, and the names the downloads get from the log's title.
 */
import { type Conversion, convert } from "./log-units";

export interface CsvColumn {
  name: string;
  /** The channel's values as logged, converted with `conversion` as they are written. */
  values: ArrayLike<number>;
  conversion: Conversion;
}

/** A cell as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break. */
const cell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** A header cell: the channel's name with the unit shown, "Boost (psi)"; a unitless one by name alone. */
const headerOf = (name: string, unit: string) => cell(unit ? `${name} (${unit})` : name);

/**
 * Seven significant digits: what a 32-bit sample holds, without the noise its conversion adds
 * (0.1 stored as f32 and shown as 0.10000000149).
 */
const number = (value: number) => (Number.isFinite(value) ? String(Number(value.toPrecision(7))) : "");

/** Rows per part of `logCsvParts`: small enough that no part nears a string's limit, large enough to be few. */
const ROWS_PER_PART = 10_000;

/**
 * The CSV in parts of `rowsPerPart` rows, the header leading the first, for a Blob to hold: a long
 * log of many channels written as one string could pass the longest string a browser makes.
 * One row per sample: time in seconds from the log's start, then each column; a gap is an empty cell.
 */
export function logCsvParts(time: ArrayLike<number>, columns: CsvColumn[], rowsPerPart = ROWS_PER_PART): string[] {
  const header = [cell("Time (s)"), ...columns.map((c) => headerOf(c.name, c.conversion.unit))].join(",");
  const parts: string[] = [];
  let lines = [header];
  for (let row = 0; row < time.length; row++) {
    const cells = [String(Number(time[row].toFixed(6)))];
    for (const column of columns) cells.push(number(convert(column.values[row], column.conversion)));
    lines.push(cells.join(","));
    if (lines.length >= rowsPerPart) {
      parts.push(`${lines.join("\r\n")}\r\n`);
      lines = [];
    }
  }
  if (lines.length > 0) parts.push(`${lines.join("\r\n")}\r\n`);
  return parts;
}

/** The whole CSV as one string (`logCsvParts` joined). */
export function logCsv(time: ArrayLike<number>, columns: CsvColumn[]): string {
  return logCsvParts(time, columns).join("");
}

/** A download's name: the log's title made safe for a file name, the range in seconds, the extension. */
export function exportFileName(title: string, [t0, t1]: [number, number], extension: "csv" | "png"): string {
  const base =
    title
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^[-.]+|-+$/g, "")
      .slice(0, 80) || "data-log";
  return `${base}-${t0.toFixed(2)}-${t1.toFixed(2)}s.${extension}`;
}
