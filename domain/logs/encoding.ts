import { byteOrderMark, detectEncoding, type TextEncodingName } from "../text/encoding";
import { LogParseError } from "./errors";

export type { TextEncodingName };

export interface DecodedBytes {
  encoding: TextEncodingName;
  /**
   * The file as ASCII-compatible bytes, BOM removed: the input itself for UTF-8 and latin1
   * (no copy), a UTF-8 transcoding for UTF-16. Data rows are always scanned from these.
   */
  bytes: Uint8Array;
  /** Decodes header and preamble text taken from `bytes`. */
  decoder: TextDecoder;
}

/** Enough of the file to judge encoding and binary-ness without reading 150 MB twice. */
const SNIFF_BYTES = 64 * 1024;

export function decodeBytes(input: Uint8Array): DecodedBytes {
  const encoding = detectEncoding(input, SNIFF_BYTES);
  const body = input.subarray(byteOrderMark(input)?.length ?? 0);
  const bytes =
    encoding === "utf-16le" || encoding === "utf-16be"
      ? new TextEncoder().encode(new TextDecoder(encoding).decode(body))
      : body;
  if (isBlank(bytes)) throw new LogParseError("empty", "The file is empty.");
  assertText(bytes);
  return { encoding, bytes, decoder: new TextDecoder(encoding === "latin1" ? "latin1" : "utf-8") };
}

function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
  }
  return true;
}

/**
 * Logs are text; a NUL or a run of control characters in the first 64 KiB means an image,
 * an archive or a binary log (.mdf, .hpl, .zdl) was uploaded by mistake.
 */
function assertText(bytes: Uint8Array): void {
  const n = Math.min(bytes.length, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const c = bytes[i];
    if (c === 0) {
      throw new LogParseError("binary", `This is not a text log: it contains binary data (a NUL byte at offset ${i}).`);
    }
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) control++;
  }
  if (control > n * 0.01) {
    throw new LogParseError(
      "binary",
      `This is not a text log: ${control} of its first ${n} bytes are control characters.`,
    );
  }
}
