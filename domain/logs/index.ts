/**
 * Data-log parsing: bytes of an uploaded logger file in, columns of numbers out. Pure — no I/O,
 * no HTTP, no SQL — so the upload route can run it off the request thread.
 */

import { detectBinary } from "./binary";
import { decodeBytes, type TextEncodingName } from "./encoding";
import { pickReader } from "./formats";
import { TextLines } from "./text-lines";
import type { FormatId } from "./types";

export type { Companion } from "./binary";
export type { TextEncodingName } from "./encoding";
export { LogParseError, type LogParseErrorCode } from "./errors";
export { parseLog } from "./parse";
export {
  type AsyncDeflate,
  type ColumnsLayout,
  type Deflate,
  deserializeColumns,
  type Inflate,
  readColumnsLayout,
  selectChannels,
  serializeColumns,
  serializeColumnsConcurrently,
} from "./serialize";
export { FORMAT_IDS, type FormatId, type LogChannel, type LogMeta, type ParsedLog, type ParseOptions } from "./types";

export interface DetectedFormat {
  format: FormatId;
  /** Human-readable logger name. */
  name: string;
  encoding: TextEncodingName;
}

/** Which logger wrote these bytes, judged from content only (never the file name). */
export function detectFormat(bytes: Uint8Array): DetectedFormat {
  const binary = detectBinary(bytes);
  if (binary) return { ...binary, encoding: "latin1" };
  const decoded = decodeBytes(bytes);
  const reader = pickReader(new TextLines(decoded.bytes, decoded.decoder));
  return { format: reader.id, name: reader.name, encoding: decoded.encoding };
}
