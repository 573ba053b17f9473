import {
  type Delimiter,
  detectDelimiter,
  isClockText,
  looksLikeDataRow,
  looksLikeHeaderRow,
  splitCells,
} from "../cells";
import { LogParseError } from "../errors";
import { type HeaderParts, normalizeUnit, parseHeaderCell } from "../headers";
import { type ColumnSpec, type Layout, type MetaDraft, emptyMeta, nextNonBlank } from "../layout";
import type { TextLines } from "../text-lines";
import type { FormatId } from "../types";

/** How a format reads a "header row, then data rows" file; most formats are this plus a twist. */
export interface DelimitedOptions {
  format: FormatId;
  name: string;
  headerIndex: number;
  /** A row of units right under the header (generic files, HP Tuners). */
  unitsIndex?: number;
  /** First data line; defaults to the line after the header (or units row). */
  dataIndex?: number;
  delimiter?: Delimiter;
  decimalComma?: boolean;
  /** Which column is time; defaults to the first with a time-like name. */
  isTime?: (parts: HeaderParts, index: number, cell: string) => boolean;
  /** Time unit to seconds when the header has no unit saying so. */
  timeScale?: number;
  /** Recognises an identity column, moves what it says into `meta` and returns true. */
  identity?: (cell: string, meta: MetaDraft) => boolean;
  /** Columns to read past without making channels. */
  skip?: (parts: HeaderParts, index: number) => boolean;
  /** Overrides the unit of a channel (formats whose headers carry none). */
  unitOf?: (parts: HeaderParts) => string;
  meta?: MetaDraft;
}

const TIME_NAMES = new Set([
  "time",
  "timestamp",
  "time stamp",
  "offset",
  "zeit",
  "elapsed",
  "elapsed time",
  "seconds",
  "sec",
  "secs",
  "logtime",
  "log time",
  "t",
]);

const TIME_UNIT_SCALE: Record<string, number> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  "sec.ms": 1,
  ms: 0.001,
  msec: 0.001,
  millis: 0.001,
  milliseconds: 0.001,
  us: 1e-6,
  µs: 1e-6,
  μs: 1e-6,
};

function isTimeHeader(parts: HeaderParts): boolean {
  const name = parts.name.toLowerCase();
  if (TIME_NAMES.has(name)) return true;
  return /\btime\b/.test(name) && parts.unit.toLowerCase() in TIME_UNIT_SCALE;
}

function timeScaleOf(unit: string): number | undefined {
  return TIME_UNIT_SCALE[unit.trim().toLowerCase()];
}

/** Up to `count` non-blank lines from `from`, for delimiter and time-notation sniffing. */
export function sampleLines(lines: TextLines, from: number, count = 8): string[] {
  const out: string[] = [];
  for (let i = from; out.length < count; i++) {
    const line = lines.get(i);
    if (line === undefined) break;
    if (line.trim() !== "") out.push(line);
  }
  return out;
}

export function delimitedLayout(lines: TextLines, options: DelimitedOptions): Layout {
  const header = lines.get(options.headerIndex) ?? "";
  const dataIndex = options.dataIndex ?? (options.unitsIndex ?? options.headerIndex) + 1;
  const samples = sampleLines(lines, dataIndex);
  let delimiter = options.delimiter;
  let decimalComma = options.decimalComma ?? false;
  if (!delimiter) {
    const found = detectDelimiter(header, samples);
    if (!found) {
      throw new LogParseError(
        "no-header",
        `Line ${options.headerIndex + 1} should be the column header but cannot be split into columns.`,
        options.headerIndex + 1,
      );
    }
    delimiter = found.delimiter;
    decimalComma = options.decimalComma ?? found.decimalComma;
  }

  const meta = options.meta ?? emptyMeta();
  const cells = splitCells(header, delimiter);
  const units = options.unitsIndex !== undefined ? splitCells(lines.get(options.unitsIndex) ?? "", delimiter) : [];
  const isTime = options.isTime ?? isTimeHeader;
  let timeIndex = -1;
  let timeScale = options.timeScale ?? 1;
  const columns: ColumnSpec[] = cells.map((cell, index) => {
    if (options.identity?.(cell, meta)) return { sourceHeader: cell, name: cell, unit: "", role: "skip" };
    const parts = parseHeaderCell(cell);
    if (units[index]) parts.unit = normalizeUnit(units[index]);
    if (options.unitOf) parts.unit = options.unitOf(parts);
    if (cell === "") {
      // A trailing delimiter or a spacer column: nothing to name, nothing to chart.
      return { sourceHeader: cell, name: `Column ${index + 1}`, unit: "", role: index === cells.length - 1 ? "skip" : "channel" };
    }
    if (timeIndex < 0 && isTime(parts, index, cell)) {
      timeIndex = index;
      timeScale = options.timeScale ?? timeScaleOf(parts.unit) ?? 1;
      return { sourceHeader: cell, name: parts.name, unit: "s", role: "time" };
    }
    const role = options.skip?.(parts, index) ? "skip" : "channel";
    return { sourceHeader: cell, name: parts.name, unit: parts.unit, role, prefix: parts.prefix };
  });

  const firstRow = samples[0] ? splitCells(samples[0], delimiter) : [];
  return {
    format: options.format,
    sourceFormat: options.name,
    headerIndex: options.headerIndex,
    dataLine: dataIndex,
    delimiter,
    decimalComma,
    columns,
    timeScale,
    clockTime: timeIndex >= 0 && isClockText(firstRow[timeIndex] ?? ""),
    meta,
    warnings: [],
  };
}

/**
 * Finds the header of an unknown delimited file: the first line whose cells read as names and
 * which is followed by data rows of the same width, optionally with a row of units in between.
 * Returns the header index and whether a units row follows.
 */
export function findHeaderRow(lines: TextLines, limit = 100): { headerIndex: number; unitsIndex?: number } | undefined {
  for (let i = 0; i < limit; i++) {
    const line = lines.get(i);
    if (line === undefined) return undefined;
    if (line.trim() === "" || /^\s*(#|\/\/)/.test(line)) continue;
    const next = nextNonBlank(lines, i + 1);
    if (next < 0) return undefined;
    for (const withUnits of [false, true]) {
      const dataIndex = withUnits ? nextNonBlank(lines, next + 1) : next;
      if (dataIndex < 0) continue;
      const samples = sampleLines(lines, dataIndex, 5);
      const found = detectDelimiter(line, samples);
      if (!found) continue;
      const cells = splitCells(line, found.delimiter);
      if (!looksLikeHeaderRow(cells)) continue;
      // Most of the next lines must be data; a short log may run straight into a footer.
      const data = samples.map((s) => looksLikeDataRow(splitCells(s, found.delimiter), found.decimalComma));
      if (!data[0] || data.filter(Boolean).length * 2 < data.length) continue;
      if (withUnits) {
        const unitCells = splitCells(lines.get(next) ?? "", found.delimiter);
        if (unitCells.length !== cells.length || looksLikeDataRow(unitCells, found.decimalComma)) continue;
        return { headerIndex: i, unitsIndex: next };
      }
      return { headerIndex: i };
    }
  }
  return undefined;
}
