/** Stable ids of the formats the parser recognises; they are stored with each log. */
export const FORMAT_IDS = [
  "mhd",
  "bootmod3",
  "cobb-accessport",
  "hp-tuners",
  "romraider",
  "obdlink",
  "jb4",
  "me7logger",
  "vcds",
  "simostools",
  "haltech-nsp",
  "ecumaster",
  "bluedriver",
  "zeitronix",
  "evoscan",
  "volvologger",
  "winlog",
  "megalogviewer",
  "link",
  "emerald",
  "generic-csv",
] as const;

export type FormatId = (typeof FORMAT_IDS)[number];

export interface LogMeta {
  /** Human-readable name of the logger, e.g. "COBB Accessport". */
  sourceFormat: string;
  vin?: string;
  /** ECU identifiers by the logger's own names (CALID, PRGID, part number, software number…). */
  ecuIds?: Record<string, string>;
  tune?: string;
  /** Logging device or tool, e.g. "AP3-VLK-002" or "ME7-Logger". */
  device?: string;
  appVersion?: string;
  /**
   * When the first sample was taken, as ISO 8601. Loggers write local time without a zone,
   * so the string carries no offset ("2014-02-22T17:47:01.046"); a date-only value is kept as a date.
   */
  startedAt?: string;
  /** The first sample's original time stamp in seconds (time-of-day for clock-stamped logs). */
  timeOffsetSeconds: number;
  /** Everything else the preamble, footer or identity column said, verbatim. */
  extra: Record<string, string>;
}

export interface LogChannel {
  /** Slug of the name, unique within the log: safe in URLs and share links. */
  id: string;
  name: string;
  unit: string;
  /** The header cell(s) this channel came from, as written in the file. */
  sourceHeader: string;
  /** NaN only when the channel has no readable sample (such channels are dropped). */
  min: number;
  max: number;
  mean: number;
  /** Samples that are NaN: empty or unreadable cells (never stored as zeros). */
  gaps: number;
}

export interface ParsedLog {
  format: FormatId;
  meta: LogMeta;
  rowCount: number;
  durationSeconds: number;
  /** Seconds from the first sample; the original offset is `meta.timeOffsetSeconds`. */
  time: Float64Array;
  channels: LogChannel[];
  /** One per channel, same order; NaN marks a gap. */
  columns: Float32Array[];
  warnings: string[];
}

/** A file uploaded with a log that the log needs (Emerald's `.lg2` channel list beside its `.lg1`). */
export interface Companion {
  name: string;
  bytes: Uint8Array;
}

export interface ParseOptions {
  /** Skip detection and read the file as this format. */
  format?: FormatId;
  /** Refuse files with more columns than this (default 2048). */
  maxColumns?: number;
  /** Files uploaded with the log: Emerald's `.lg2` channel list is read beside its `.lg1`. */
  companions?: Companion[];
  /**
   * Unpacks a gzip stream (the caller's zlib, with its own output limit); without it a gzip
   * upload is refused. ECUMaster's `.emublog` is gzip.
   */
  gunzip?: (bytes: Uint8Array) => Uint8Array;
}
