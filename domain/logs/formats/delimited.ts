import {
  DELIMITERS,
  type Delimiter,
  detectDelimiter,
  isClockText,
  isNumberText,
  looksLikeDataRow,
  looksLikeHeaderRow,
  splitCells,
} from "../cells";
import { LogParseError } from "../errors";
import { cleanName, type HeaderParts, normalizeUnit, parseHeaderCell } from "../headers";
import { isVersionName, readGenericIdentity } from "../identity";
import { type ColumnSpec, emptyMeta, type Layout, type MetaDraft, nextNonBlank } from "../layout";
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
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hours: 3600,
};

/** "Time_ms", "TimeMs", "time.s", "Zeit_min": a time name with its unit glued on. */
const GLUED_TIME_UNIT = /^(time|zeit|timestamp|elapsed)[\s_.-]*(ms|msec|s|sec|secs|min|us)$/i;

function isTimeHeader(parts: HeaderParts): boolean {
  const name = parts.name.toLowerCase();
  if (TIME_NAMES.has(name)) return true;
  if (GLUED_TIME_UNIT.test(name)) return true;
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

/**
 * Header cells past the end of every data row (bootmod3 ends its header with its version and a
 * log id over rows one cell shorter): how many header cells have data under them, per delimiter.
 */
function identityTail(
  header: string,
  samples: string[],
  delimiter?: Delimiter,
): { delimiter: Delimiter; width: number } | undefined {
  if (samples.length === 0) return undefined;
  for (const d of delimiter ? [delimiter] : DELIMITERS) {
    const cells = splitCells(header, d);
    if (cells.length < 3) continue;
    const widths = samples.map((line) => {
      const row = splitCells(line, d);
      return row.length > 1 && row[row.length - 1] === "" ? row.length - 1 : row.length;
    });
    const width = widths[0];
    if (width < 2 || widths.some((w) => w !== width)) continue;
    const surplus = cells.length - width;
    if (surplus < 1 || surplus > 3) continue;
    if (cells.slice(width).some((c) => c === "" || !looksLikeIdentityCell(c))) continue;
    return { delimiter: d, width };
  }
  return undefined;
}

/** Identity cells are words or ids, never numbers (a number past the rows' end is a ragged header). */
function looksLikeIdentityCell(cell: string): boolean {
  return !isNumberText(cell) && !isNumberText(cell, true);
}

function withoutTail(header: string, delimiter: Delimiter, width: number): string {
  return splitCells(header, delimiter)
    .slice(0, width)
    .map((c) => (c.includes(delimiter) || c.includes('"') ? `"${c.replace(/"/g, '""')}"` : c))
    .join(delimiter);
}

export function delimitedLayout(lines: TextLines, options: DelimitedOptions): Layout {
  let header = lines.get(options.headerIndex) ?? "";
  const dataIndex = options.dataIndex ?? (options.unitsIndex ?? options.headerIndex) + 1;
  const samples = sampleLines(lines, dataIndex);
  let delimiter = options.delimiter;
  let decimalComma = options.decimalComma ?? false;
  const meta = options.meta ?? emptyMeta();
  const warnings: string[] = [];
  // A header one cell wider than rows that end in a delimiter is an empty last column, read as before.
  const tail = identityTail(header, samples, delimiter);
  if (
    (tail && splitCells(header, tail.delimiter).length > tail.width + 1) ||
    (tail && !detectDelimiter(header, samples))
  ) {
    const cells = splitCells(header, tail.delimiter);
    for (const cell of cells.slice(tail.width)) readGenericIdentity(cell, meta);
    warnings.push(
      `Line ${options.headerIndex + 1} ends with ${cells.length - tail.width} header cell${cells.length - tail.width > 1 ? "s" : ""} with no data under ${cells.length - tail.width > 1 ? "them" : "it"} (${cells
        .slice(tail.width)
        .map((c) => `"${c}"`)
        .join(", ")}): kept as the log's identity, not channels.`,
    );
    header = withoutTail(header, tail.delimiter, tail.width);
    delimiter ??= tail.delimiter;
  }
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

  const cells = splitCells(header, delimiter);
  const firstRows = samples.map((line) => splitCells(line, delimiter));
  const units = options.unitsIndex !== undefined ? splitCells(lines.get(options.unitsIndex) ?? "", delimiter) : [];
  const isTime = options.isTime ?? isTimeHeader;
  let timeIndex = -1;
  let timeScale = options.timeScale ?? 1;
  let timeUnitUnknown = false;
  const columns: ColumnSpec[] = cells.map((cell, index) => {
    if (options.identity?.(cell, meta)) return { sourceHeader: cell, name: cell, unit: "", role: "skip" };
    if (isIdentityColumn(cell, index, firstRows)) {
      readGenericIdentity(cell, meta, firstRows[0]?.[index] ?? "");
      return { sourceHeader: cell, name: cell, unit: "", role: "skip" };
    }
    // With a units row the header cell is the whole name: "Engine RPM (SAE)" keeps its parentheses.
    const parts: HeaderParts =
      options.unitsIndex !== undefined ? { name: cleanName(cell), unit: "" } : parseHeaderCell(cell);
    if (units[index]) parts.unit = normalizeUnit(units[index]);
    if (options.unitOf) parts.unit = options.unitOf(parts);
    if (cell === "") {
      // A trailing delimiter or a spacer column: nothing to name, nothing to chart.
      return {
        sourceHeader: cell,
        name: `Column ${index + 1}`,
        unit: "",
        role: index === cells.length - 1 ? "skip" : "channel",
      };
    }
    if (timeIndex < 0 && isTime(parts, index, cell)) {
      timeIndex = index;
      const glued = GLUED_TIME_UNIT.exec(parts.name);
      const scale = options.timeScale ?? timeScaleOf(parts.unit) ?? (glued ? timeScaleOf(glued[2]) : undefined);
      timeScale = scale ?? 1;
      timeUnitUnknown = scale === undefined && parts.unit === "";
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
    timeUnitUnknown,
    clockTime: timeIndex >= 0 && isClockText(firstRow[timeIndex] ?? ""),
    meta,
    warnings,
  };
}

/**
 * A column named like a version ("Version", "FW", "Logger 1.2.3") whose cells are all the same in
 * the first rows: it says which tool wrote the log, not what the engine did.
 */
function isIdentityColumn(cell: string, index: number, rows: string[][]): boolean {
  if (!isVersionName(cell) || rows.length === 0) return false;
  const first = rows[0][index] ?? "";
  return rows.every((row) => (row[index] ?? "") === first);
}

/** Spelled-out units that look like identifiers. */
const UNIT_WORDS = new Set([
  "lambda",
  "percent",
  "degrees",
  "degree",
  "seconds",
  "second",
  "volts",
  "volt",
  "celsius",
  "fahrenheit",
  "counts",
  "count",
  "milliseconds",
  "boolean",
  "factor",
  "ratio",
  "pascal",
  "kelvin",
  "newton",
  "amperes",
]);

/**
 * A units row ("rpm", "%", "°C", "kPa", "grad KW") against an alias row ("EngineSpeed",
 * "IgnitionAngle"): aliases are identifiers of six or more letters; units are short or symbolic.
 */
export function isUnitsRow(cells: string[]): boolean {
  let filled = 0;
  let identifiers = 0;
  for (const cell of cells) {
    if (cell === "") continue;
    filled++;
    if (/^[A-Za-z][A-Za-z0-9_]{5,}$/.test(cell) && !UNIT_WORDS.has(cell.toLowerCase())) identifiers++;
  }
  return identifiers * 2 < filled || filled === 0;
}

/** Every filled cell wrapped in parentheses or brackets: "(sec)", "(AFR)", "[rpm]" (LogWorks). */
export function isBracketedUnitsRow(cells: string[]): boolean {
  const filled = cells.map((c) => c.trim()).filter((c) => c !== "");
  return filled.length > 0 && filled.every((c) => /^(\([^()]*\)|\[[^[\]]*\])$/.test(c));
}

export interface HeaderRows {
  headerIndex: number;
  /** A row of units under the header. */
  unitsIndex?: number;
  /** A row of readable aliases under the header (ME7Logger-style "EngineSpeed"), units row or not. */
  aliasIndex?: number;
  dataIndex: number;
}

/**
 * Finds the header of an unknown delimited file: the first line whose cells read as names and
 * which is followed by data rows of the same width, optionally with a row of units, a row of
 * aliases, or both (in either order) in between; units rows are told from alias rows by content.
 */
export function findHeaderRow(lines: TextLines, limit = 100): HeaderRows | undefined {
  for (let i = 0; i < limit; i++) {
    const line = lines.get(i);
    if (line === undefined) return undefined;
    if (line.trim() === "" || /^\s*(#|\/\/)/.test(line)) continue;
    const between: number[] = [];
    let next = nextNonBlank(lines, i + 1);
    if (next < 0) return undefined;
    for (let extra = 0; extra <= 2; extra++) {
      if (extra > 0) {
        between.push(next);
        next = nextNonBlank(lines, next + 1);
        if (next < 0) break;
      }
      const dataIndex = next;
      const samples = sampleLines(lines, dataIndex, 5);
      let header = line;
      let found = detectDelimiter(header, samples);
      if (!found) {
        // Identity cells past the rows' end (a version, a log id) do not make a line less of a header.
        const tail = identityTail(line, samples);
        if (tail) header = withoutTail(line, tail.delimiter, tail.width);
        found = tail && detectDelimiter(header, samples);
      }
      if (!found) continue;
      const cells = splitCells(header, found.delimiter);
      if (!looksLikeHeaderRow(cells)) continue;
      // Most of the next lines must be data; a short log may run straight into a footer.
      const data = samples.map((s) => looksLikeDataRow(splitCells(s, found.delimiter), found.decimalComma));
      if (!data[0] || data.filter(Boolean).length * 2 < data.length) continue;
      const rows = between.map((index) => ({ index, cells: splitCells(lines.get(index) ?? "", found.delimiter) }));
      if (rows.some((r) => r.cells.length !== cells.length || looksLikeDataRow(r.cells, found.decimalComma))) continue;
      // A row of "(unit)" cells is a units row under the row of names right above it; whatever is
      // above those names (a "Session: …" or title line as wide as the header) is preamble.
      const bracketed = rows.findIndex((r) => isBracketedUnitsRow(r.cells));
      if (bracketed >= 0) {
        const names = bracketed === 0 ? i : rows[bracketed - 1].index;
        const after = rows[bracketed + 1]?.index;
        return { headerIndex: names, unitsIndex: rows[bracketed].index, aliasIndex: after, dataIndex };
      }
      const result: HeaderRows = { headerIndex: i, dataIndex };
      for (const row of rows) {
        if (result.unitsIndex === undefined && (isUnitsRow(row.cells) || result.aliasIndex !== undefined))
          result.unitsIndex = row.index;
        else result.aliasIndex ??= row.index;
      }
      return result;
    }
  }
  return undefined;
}
