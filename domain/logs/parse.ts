import { type BinaryLog, readBinary } from "./binary";
import { isoTimeOfDay } from "./dates";
import { decodeBytes } from "./encoding";
import { LogParseError } from "./errors";
import { pickReader, readerById } from "./formats";
import { uniqueIds, uniquifyNames } from "./headers";
import { type ColumnSpec, keyValue, type Layout, type MetaDraft } from "./layout";
import { type ScanResult, SKIP, scanRows, TIME } from "./scanner";
import { TextLines } from "./text-lines";
import type { LogChannel, LogMeta, ParsedLog, ParseOptions } from "./types";

const DEFAULT_MAX_COLUMNS = 2048;
/** Rows with the wrong cell count tolerated (as gaps, with a warning) before the file is refused. */
const RAGGED_TOLERANCE = 0.01;
const RAGGED_MIN = 5;
/** Problems listed by line in a message; the rest are counted. */
const LISTED = 5;

/**
 * Parses a data log from its bytes. The format is recognised by content unless `options.format`
 * names it. Throws `LogParseError` for files that cannot be read as a log at all; smaller
 * problems (unreadable cells, a few ragged rows, a cut-off last line) end up in `warnings`.
 */
export function parseLog(input: Uint8Array, options: ParseOptions = {}): ParsedLog {
  // Binary logs are recognised by content before text decoding, which refuses binary data.
  const binary = readBinary(input, options);
  if (binary && "log" in binary) return fromBinary(binary.log, options);
  // A gzip stream that is no known logger's: its content is read like any upload (once, not nested).
  if (binary) return parseLog(binary.unpacked, { ...options, gunzip: undefined });
  const decoded = decodeBytes(input);
  const lines = new TextLines(decoded.bytes, decoded.decoder);
  const reader = options.format ? readerById(options.format) : pickReader(lines);
  const layout = reader.layout(lines);
  return readRows(lines, decoded.decoder, layout, options.maxColumns ?? DEFAULT_MAX_COLUMNS);
}

function readRows(lines: TextLines, decoder: TextDecoder, layout: Layout, maxColumns: number): ParsedLog {
  const headerLine = (layout.headerIndex ?? layout.dataLine - 1) + 1;
  if (layout.columns.length > maxColumns) {
    throw new LogParseError(
      "too-many-columns",
      `Line ${headerLine} has ${layout.columns.length} columns; logs of up to ${maxColumns} columns are accepted.`,
      headerLine,
    );
  }
  const warnings = [...layout.warnings];
  const specs = layout.columns.filter((c) => c.role === "channel");
  const names = channelNames(specs, headerLine, warnings);
  const timeColumn = layout.columns.findIndex((c) => c.role === "time");

  // Stamp and event columns are scanned like channels, after them, and used up below.
  const extras = layout.columns.filter((c) => c.role === "stamp" || c.role === "event");
  let channel = 0;
  let extra = specs.length;
  const targets = Int32Array.from(layout.columns, (c) =>
    c.role === "time" ? TIME : c.role === "skip" ? SKIP : c.role === "channel" ? channel++ : extra++,
  );
  const scan = scanRows(lines.bytes, lines.startOf(layout.dataLine), layout.dataLine + 1, {
    delimiter: layout.delimiter.charCodeAt(0),
    decimalComma: layout.decimalComma,
    columnCount: layout.columns.length,
    targets,
    channelCount: specs.length + extras.length,
    clockTime: layout.clockTime,
    holdEmpty: layout.holdEmpty ?? false,
    markLine: layout.markLinePrefix ? new TextEncoder().encode(layout.markLinePrefix) : undefined,
    decoder,
  });

  const meta = layout.meta;
  checkRows(scan, layout, timeColumn, headerLine, warnings);
  readFooter(scan, meta, warnings);

  const time = timeColumn >= 0 ? scan.time : Float64Array.from({ length: scan.rowCount }, (_, i) => i);
  if (timeColumn < 0) {
    warnings.push("No time column was found: samples are numbered 0, 1, 2… and shown as seconds.");
    meta.extra.timeSource = "row-index";
  }
  const extraColumns = scan.columns.slice(specs.length);
  if (timeColumn >= 0 && layout.timeUnitUnknown && !layout.clockTime) {
    guessTimeUnit(time, layout, warnings);
  }
  alignGroups(specs, extras, scan.columns, extraColumns, time);
  readEvents(extras, extraColumns, time, layout, meta);
  const timeOffsetSeconds = normaliseTime(time, layout, warnings);

  const channels: LogChannel[] = [];
  const columns: Float32Array[] = [];
  const ids = uniqueIds(names);
  specs.forEach((spec, i) => {
    const column = scan.columns[i];
    const noReading = spec.noReadingAtOrBelow === undefined ? 0 : blankNoReading(column, spec.noReadingAtOrBelow);
    if (spec.scale !== undefined) rescale(column, spec.scale, spec.offset ?? 0);
    const stats = columnStats(column);
    if (stats.count === 0) {
      warnings.push(`Column "${spec.sourceHeader || names[i]}" has no readable values and is left out.`);
      return;
    }
    if (noReading > 0) {
      warnings.push(
        `"${names[i]}": ${noReading} cell${noReading > 1 ? "s" : ""} hold the logger's "no reading" code and are gaps.`,
      );
    }
    const unreadable = scan.unreadable[i];
    const first = scan.firstUnreadable[i];
    if (unreadable > 0 && first) {
      warnings.push(
        `"${names[i]}": ${unreadable} unreadable cell${unreadable > 1 ? "s" : ""} shown as gaps (first on line ${first.line}: "${first.text}").`,
      );
    }
    channels.push({
      id: ids[i],
      name: names[i],
      unit: spec.unit,
      sourceHeader: spec.sourceHeader,
      min: stats.min,
      max: stats.max,
      mean: stats.mean,
      gaps: column.length - stats.count,
    });
    columns.push(column);
  });
  if (channels.length === 0) {
    throw new LogParseError(
      "no-data",
      `No column besides time has readable numbers (header on line ${headerLine}).`,
      headerLine,
    );
  }

  return {
    format: layout.format,
    meta: finishMeta(meta, layout, timeOffsetSeconds),
    rowCount: scan.rowCount,
    durationSeconds: scan.rowCount > 0 ? time[scan.rowCount - 1] : 0,
    time,
    channels,
    columns,
    warnings,
  };
}

/** A binary reader's channels as a parsed log: names made unique, time from zero, empty channels left out. */
function fromBinary(log: BinaryLog, options: ParseOptions): ParsedLog {
  const maxColumns = options.maxColumns ?? DEFAULT_MAX_COLUMNS;
  if (log.channels.length > maxColumns) {
    throw new LogParseError(
      "too-many-columns",
      `The ${log.sourceFormat} log has ${log.channels.length} channels; logs of up to ${maxColumns} columns are accepted.`,
    );
  }
  const rowCount = log.time.length;
  if (rowCount === 0) throw new LogParseError("no-data", `The ${log.sourceFormat} log has no data records.`);
  const warnings = [...log.warnings];
  const specs: ColumnSpec[] = log.channels.map((c) => ({
    sourceHeader: c.sourceHeader ?? c.name,
    name: c.name.trim(),
    unit: c.unit,
    role: "channel",
  }));
  const names = channelNames(specs, 1, warnings);
  const ids = uniqueIds(names);
  const timeOffsetSeconds = normaliseTime(log.time, { timeScale: 1, clockTime: false } as Layout, warnings);
  const channels: LogChannel[] = [];
  const columns: Float32Array[] = [];
  specs.forEach((spec, i) => {
    const column = log.channels[i].column;
    const stats = columnStats(column);
    if (stats.count === 0) return;
    channels.push({
      id: ids[i],
      name: names[i],
      unit: spec.unit,
      sourceHeader: spec.sourceHeader,
      min: stats.min,
      max: stats.max,
      mean: stats.mean,
      gaps: column.length - stats.count,
    });
    columns.push(column);
  });
  if (channels.length === 0) {
    throw new LogParseError("no-data", `The ${log.sourceFormat} log has no channel besides time with a reading.`);
  }
  const meta: LogMeta = { sourceFormat: log.sourceFormat, ...log.meta, timeOffsetSeconds };
  return {
    format: log.format,
    meta,
    rowCount,
    durationSeconds: log.time[rowCount - 1],
    time: log.time,
    channels,
    columns,
    warnings,
  };
}

/**
 * Channel names, unique: a tag stripped from the name (bootmod3's "(RAM) ") comes back when two
 * channels would otherwise share a name, and remaining repeats are numbered with a warning —
 * a tuner would rather see both "MAP" inputs of a wideband gauge than have the file refused.
 */
function channelNames(specs: ColumnSpec[], headerLine: number, warnings: string[]): string[] {
  const count = new Map<string, number>();
  for (const s of specs) count.set(s.name.toLowerCase(), (count.get(s.name.toLowerCase()) ?? 0) + 1);
  const tagged = specs.map((s) =>
    s.prefix && (count.get(s.name.toLowerCase()) ?? 0) > 1 ? `${s.name} (${s.prefix})` : s.name,
  );
  const { names, renamed } = uniquifyNames(tagged);
  for (const i of renamed) {
    warnings.push(`Duplicate column name "${tagged[i]}" on line ${headerLine}: the repeat is shown as "${names[i]}".`);
  }
  return names;
}

function checkRows(scan: ScanResult, layout: Layout, timeColumn: number, headerLine: number, warnings: string[]): void {
  if (scan.rowCount === 0) {
    const bad = scan.footer[0] ?? scan.badTime[0];
    if (bad && timeColumn >= 0) {
      const header = layout.columns[timeColumn].sourceHeader;
      throw new LogParseError(
        "no-time",
        `The time column "${header}" has no numbers: line ${bad.line} reads "${bad.text}".`,
        bad.line,
      );
    }
    throw new LogParseError("no-data", `No data rows after the header on line ${headerLine}.`, headerLine + 1);
  }
  const width = layout.columns.length;
  if (scan.raggedCount > Math.max(RAGGED_MIN, scan.rowCount * RAGGED_TOLERANCE)) {
    throw new LogParseError(
      "ragged",
      `${scan.raggedCount} rows do not have the header's ${width} cells: ${describeRows(scan)}.`,
      scan.ragged[0]?.line,
    );
  }
  if (scan.raggedCount > 0) {
    warnings.push(
      `${scan.raggedCount} row${scan.raggedCount > 1 ? "s" : ""} without the header's ${width} cells (missing cells are gaps): ${describeRows(scan)}.`,
    );
  }
  if (scan.truncatedLastLine) {
    const { line, cells } = scan.truncatedLastLine;
    warnings.push(`The last line (${line}) is cut short at ${cells} of ${width} cells and was left out.`);
  }
  if (scan.badTimeCount > 0) {
    const first = scan.badTime[0];
    warnings.push(
      `${scan.badTimeCount} row${scan.badTimeCount > 1 ? "s" : ""} left out for an unreadable time (first on line ${first.line}: "${first.text}").`,
    );
  }
}

function describeRows(scan: ScanResult): string {
  const listed = scan.ragged.slice(0, LISTED).map((r) => `line ${r.line} has ${r.cells}`);
  const more = scan.raggedCount - listed.length;
  return listed.join(", ") + (more > 0 ? ` and ${more} more` : "");
}

/** Lines after the last row with a readable time: "Key: value" footers become metadata. */
function readFooter(scan: ScanResult, meta: MetaDraft, warnings: string[]): void {
  if (scan.footerCount === 0) return;
  if (scan.footerCount > scan.footer.length) {
    warnings.push(
      `The last ${scan.footerCount} lines have no readable time and were left out (from line ${scan.footer[0].line}).`,
    );
    return;
  }
  for (const { text } of scan.footer) {
    const kv = keyValue(text);
    if (kv?.[1] && !(kv[0] in meta.extra)) meta.extra[kv[0]] = kv[1];
  }
}

/**
 * Time to seconds from the first sample. Clock times that pass midnight are unwound; a log whose
 * time runs backwards keeps its rows in file order (charts draw them as written) with a warning.
 */
function normaliseTime(time: Float64Array, layout: Layout, warnings: string[]): number {
  const n = time.length;
  if (n === 0) return 0;
  if (layout.clockTime) {
    let day = 0;
    let previous = time[0];
    for (let i = 1; i < n; i++) {
      const raw = time[i];
      if (raw + 43_200 < previous) day += 86_400;
      previous = raw;
      time[i] = raw + day;
    }
  }
  const scale = layout.timeScale;
  const offset = time[0] * scale;
  let backwards = 0;
  let firstBackwards = -1;
  for (let i = 0; i < n; i++) {
    time[i] = time[i] * scale - offset;
    if (i > 0 && time[i] < time[i - 1]) {
      if (backwards++ === 0) firstBackwards = i;
    }
  }
  if (backwards > 0) {
    warnings.push(
      `Time runs backwards ${backwards} time${backwards > 1 ? "s" : ""} (first at ${time[firstBackwards - 1].toFixed(3)} s); rows are kept in file order.`,
    );
  }
  return offset;
}

/**
 * VCDS measures its groups one after another, each with its own time stamp. The first group's
 * stamps are the log's time; every other group's samples are placed at the log's times by the
 * nearest stamp of their own group, so values stay as measured (nothing interpolated) and a
 * sample lands within half a group cycle of when it was taken.
 */
function alignGroups(
  specs: ColumnSpec[],
  extras: ColumnSpec[],
  columns: Float32Array[],
  extraColumns: Float32Array[],
  time: Float64Array,
): void {
  const stamps = new Map<number, Float32Array>();
  extras.forEach((spec, i) => {
    if (spec.role === "stamp" && spec.group !== undefined) stamps.set(spec.group, extraColumns[i]);
  });
  if (stamps.size === 0) return;
  const n = time.length;
  const rowsByGroup = new Map<number, Int32Array>();
  for (const [group, stamp] of stamps) {
    // The rows whose stamp is readable, in file order; for each log time the nearest of them.
    const rows: number[] = [];
    for (let r = 0; r < n; r++) if (!Number.isNaN(stamp[r])) rows.push(r);
    const pick = new Int32Array(n).fill(-1);
    let k = 0;
    for (let r = 0; r < n && rows.length > 0; r++) {
      const t = time[r];
      while (k + 1 < rows.length && Math.abs(stamp[rows[k + 1]] - t) <= Math.abs(stamp[rows[k]] - t)) k++;
      pick[r] = rows[k];
    }
    rowsByGroup.set(group, pick);
  }
  specs.forEach((spec, i) => {
    const pick = spec.group ? rowsByGroup.get(spec.group) : undefined;
    if (!pick) return;
    const source = columns[i].slice();
    const column = columns[i];
    for (let r = 0; r < n; r++) column[r] = pick[r] < 0 ? NaN : source[pick[r]];
  });
}

/** Marker columns: each marked row becomes an event in `meta.extra.markers` ("1 @ 12.34 s; 2 @ …"). */
function readEvents(
  extras: ColumnSpec[],
  extraColumns: Float32Array[],
  time: Float64Array,
  layout: Layout,
  meta: MetaDraft,
): void {
  const events: string[] = [];
  extras.forEach((spec, i) => {
    if (spec.role !== "event") return;
    const column = extraColumns[i];
    for (let r = 0; r < column.length; r++) {
      const v = column[r];
      if (!Number.isNaN(v)) events.push(`${v} @ ${((time[r] - time[0]) * layout.timeScale).toFixed(3)} s`);
    }
  });
  if (events.length > 0) meta.extra.markers = events.join("; ");
}

/**
 * A time column whose header names no unit: whole numbers that step by 5 or more (median) are
 * milliseconds (ECUx writes TIME as 91, 161, 231…); anything else stays seconds.
 */
function guessTimeUnit(time: Float64Array, layout: Layout, warnings: string[]): void {
  const n = time.length;
  if (n < 2) return;
  const steps: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!Number.isInteger(time[i])) return;
    if (i > 0 && time[i] > time[i - 1]) steps.push(time[i] - time[i - 1]);
  }
  if (steps.length === 0) return;
  steps.sort((a, b) => a - b);
  const median = steps[steps.length >> 1];
  if (median < 5) return;
  layout.timeScale = 0.001;
  warnings.push(`The time column names no unit and counts in whole steps of ${median}: read as milliseconds.`);
}

function blankNoReading(column: Float32Array, threshold: number): number {
  let count = 0;
  for (let i = 0; i < column.length; i++) {
    if (column[i] <= threshold) {
      column[i] = NaN;
      count++;
    }
  }
  return count;
}

function rescale(column: Float32Array, scale: number, offset: number): void {
  for (let i = 0; i < column.length; i++) column[i] = column[i] * scale + offset;
}

function columnStats(column: Float32Array): { min: number; max: number; mean: number; count: number } {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let count = 0;
  for (let i = 0; i < column.length; i++) {
    const v = column[i];
    if (Number.isNaN(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    count++;
  }
  return count === 0 ? { min: NaN, max: NaN, mean: NaN, count } : { min, max, mean: sum / count, count };
}

function finishMeta(draft: MetaDraft, layout: Layout, timeOffsetSeconds: number): LogMeta {
  const meta: LogMeta = { sourceFormat: layout.sourceFormat, ...draft, timeOffsetSeconds };
  // A date without a time of day is completed by the first sample's clock time.
  if (meta.startedAt && meta.startedAt.length === 10 && layout.clockTime) {
    meta.startedAt = `${meta.startedAt}T${isoTimeOfDay(timeOffsetSeconds)}`;
  }
  if (!meta.startedAt) delete meta.startedAt;
  if (meta.ecuIds) {
    const ids = Object.entries(meta.ecuIds).filter(([, v]) => v !== "");
    if (ids.length > 0) meta.ecuIds = Object.fromEntries(ids);
    else delete meta.ecuIds;
  }
  return meta;
}
