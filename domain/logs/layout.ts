import type { Delimiter } from "./cells";
import type { TextLines } from "./text-lines";
import type { FormatId, LogMeta } from "./types";

/** What a format module makes of one header column. */
export interface ColumnSpec {
  sourceHeader: string;
  name: string;
  unit: string;
  /**
   * "skip" columns are read past (identity columns, spacers). "stamp" columns hold the time stamps
   * of a measuring group other than the first (VCDS): the group's channels are aligned from them
   * to the log's time. "event" columns hold markers, which become metadata, not channels.
   */
  role: "time" | "channel" | "skip" | "stamp" | "event";
  /** The measuring group a channel or stamp column belongs to (0 is the group of the time column). */
  group?: number;
  /** A source tag stripped from the name (bootmod3's "RAM"/"BM3"), used only to tell twins apart. */
  prefix?: string;
  /** Engineering value = raw × scale + offset (Haltech stores scaled integers). */
  scale?: number;
  offset?: number;
  /** Raw values at or below this are the logger's "no reading" codes and become gaps. */
  noReadingAtOrBelow?: number;
}

export type MetaDraft = Omit<LogMeta, "sourceFormat" | "timeOffsetSeconds" | "startedAt"> & {
  startedAt?: string;
};

/** A format's reading of a file's head: where data starts, how to split it and what it means. */
export interface Layout {
  format: FormatId;
  sourceFormat: string;
  /** 0-based index of the header row, for messages; absent when the columns are declared elsewhere. */
  headerIndex?: number;
  /** 0-based index of the first data line in the file's lines. */
  dataLine: number;
  delimiter: Delimiter;
  decimalComma: boolean;
  columns: ColumnSpec[];
  /** Multiplier from the time column's unit to seconds (0.001 for RomRaider's msec). */
  timeScale: number;
  /**
   * The header gives the time column no unit: the unit is judged from the values (integer steps
   * of 5 or more are milliseconds; no engine logger samples once every 5 s), with a warning.
   */
  timeUnitUnknown?: boolean;
  /** The time column holds clock times (hh:mm:ss.fff) rather than a running number. */
  clockTime: boolean;
  /** Empty cells mean "not sampled, value unchanged" (ECUMaster), not a gap. */
  holdEmpty?: boolean;
  /**
   * Lines that start with this are markers the format reads apart (MegaLogViewer's "MARK nnn"):
   * neither rows nor rows with an unreadable time.
   */
  markLinePrefix?: string;
  meta: MetaDraft;
  warnings: string[];
}

export interface LogReader {
  id: FormatId;
  /** The name shown to people, stored as `meta.sourceFormat`. */
  name: string;
  layout(lines: TextLines): Layout;
}

/** A logger with a signature of its own, recognised by content. */
export interface LogFormat extends LogReader {
  detect(lines: TextLines): boolean;
}

export function emptyMeta(): MetaDraft {
  return { extra: {} };
}

/** "Key: value", "Key = value" and "Key : value" preamble lines; undefined for anything else. */
export function keyValue(line: string): [string, string] | undefined {
  const m = /^\s*#?\s*([^:=]*?[^\s:=])\s*[:=]\s*(.*?)\s*$/.exec(line);
  if (!m) return undefined;
  return [m[1], m[2]];
}

/** Index of the first line (from `from`, within `limit` lines) that satisfies `test`. */
export function findLine(
  lines: TextLines,
  test: (line: string, index: number) => boolean,
  from = 0,
  limit = 200,
): number {
  for (let i = from; i < from + limit; i++) {
    const line = lines.get(i);
    if (line === undefined) return -1;
    if (test(line, i)) return i;
  }
  return -1;
}

/** The next line at or after `from` that is not blank. */
export function nextNonBlank(lines: TextLines, from: number): number {
  return findLine(lines, (line) => line.trim() !== "", from, 10_000);
}
