import { LogParseError } from "./errors";

export type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be" | "latin1";

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
  const encoding = detectEncoding(input);
  let bytes: Uint8Array;
  if (encoding === "utf-16le" || encoding === "utf-16be") {
    const hasBom = input[0] === 0xff || input[0] === 0xfe;
    const text = new TextDecoder(encoding).decode(input.subarray(hasBom ? 2 : 0));
    bytes = new TextEncoder().encode(text);
  } else {
    const hasBom = encoding === "utf-8" && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf;
    bytes = hasBom ? input.subarray(3) : input;
  }
  if (isBlank(bytes)) throw new LogParseError("empty", "The file is empty.");
  assertText(bytes);
  return { encoding, bytes, decoder: new TextDecoder(encoding === "latin1" ? "latin1" : "utf-8") };
}

function detectEncoding(input: Uint8Array): TextEncodingName {
  if (input.length >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) return "utf-8";
  if (input.length >= 2 && input[0] === 0xff && input[1] === 0xfe) return "utf-16le";
  if (input.length >= 2 && input[0] === 0xfe && input[1] === 0xff) return "utf-16be";
  const unmarked = detectUnmarkedUtf16(input);
  if (unmarked) return unmarked;
  return isValidUtf8(input) ? "utf-8" : "latin1";
}

/** Some Windows tools drop the BOM; ASCII text in UTF-16 still shows as every other byte NUL. */
function detectUnmarkedUtf16(input: Uint8Array): TextEncodingName | undefined {
  const n = Math.min(input.length, SNIFF_BYTES) & ~1;
  if (n < 8) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (input[i] === 0) evenNul++;
    if (input[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul > pairs * 0.9 && evenNul === 0) return "utf-16le";
  if (evenNul > pairs * 0.9 && oddNul === 0) return "utf-16be";
  return undefined;
}

function isValidUtf8(input: Uint8Array): boolean {
  let end = Math.min(input.length, SNIFF_BYTES);
  if (end < input.length) {
    // Cut before the last character so one split by the sniff boundary is not taken for latin1.
    let i = end - 1;
    while (i > end - 4 && (input[i] & 0xc0) === 0x80) i--;
    end = i;
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(input.subarray(0, end));
    return true;
  } catch {
    return false;
  }
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
