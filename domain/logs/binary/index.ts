/**
 * The binary logs, recognised by content before text decoding (which refuses binary data):
 * read into a `BinaryLog`, refused naming the logger and the export to use, or left to the text
 * readers (undefined).
 */
import { LogParseError } from "../errors";
import type { FormatId, ParseOptions } from "../types";
import type { BinaryLog } from "./binary-log";
import { isEmeraldLg1, readEmerald, readLg2 } from "./emerald";
import { isLinkLog, readLinkLog } from "./link";
import { isMlg, readMlg } from "./mlg";
import { isGzip, refuseAemDaq, refuseEmuBlog, refuseGzip } from "./refused";

export type { BinaryLog, Companion } from "./binary-log";

/** The binary format these bytes are in, if any (refusals are not detected here). */
export function detectBinary(bytes: Uint8Array): { format: FormatId; name: string } | undefined {
  if (isMlg(bytes)) return { format: "megalogviewer", name: "MegaLogViewer" };
  if (isLinkLog(bytes)) return { format: "link", name: "Link ECU" };
  if (isEmeraldLg1(bytes)) return { format: "emerald", name: "Emerald ECU" };
  return undefined;
}

/** A binary log read, or a gzip stream unpacked for reading again. */
export type BinaryOutcome = { log: BinaryLog } | { unpacked: Uint8Array };

/**
 * Reads a binary log, or throws the refusal of a known binary format, or returns undefined for
 * anything else. A gzip stream is unpacked with `options.gunzip`, for the caller to read again.
 */
export function readBinary(input: Uint8Array, options: ParseOptions): BinaryOutcome | undefined {
  const wants = (format: FormatId) => !options.format || options.format === format;
  if (isMlg(input) && wants("megalogviewer")) return { log: fromMlg(input) };
  if (isLinkLog(input) && wants("link")) return { log: readLinkLog(input) };
  if (isEmeraldLg1(input) && wants("emerald")) return { log: readEmerald(input, options.companions ?? []) };
  if (options.format) return undefined;
  refuseAemDaq(input);
  if (readLg2(input)) {
    throw new LogParseError(
      "needs-companion",
      "An Emerald ECU .lg2 channel list: it holds no samples. Upload it together with its .lg1 log (the file of the same name beside it).",
    );
  }
  if (isGzip(input)) {
    if (!options.gunzip) refuseGzip();
    const unpacked = options.gunzip(input);
    refuseEmuBlog(unpacked);
    return { unpacked };
  }
  return undefined;
}

function fromMlg(input: Uint8Array): BinaryLog {
  const mlg = readMlg(input);
  if (mlg.timeSource === "block-stamps") mlg.meta.extra.timeSource = "block-stamps";
  return {
    format: "megalogviewer",
    sourceFormat: "MegaLogViewer",
    time: mlg.time,
    channels: mlg.channelFields.map((f, i) => ({ name: f.name, unit: f.unit, column: mlg.columns[i] })),
    meta: mlg.meta,
    warnings: mlg.warnings,
  };
}
