/**
 * Telling how a text file's bytes are encoded, for every kind of file we read
 * as text (logs, definitions): a byte order mark names UTF-8 or UTF-16; ASCII
 * text in UTF-16 without one still shows as every other byte NUL; otherwise
 * bytes that are valid UTF-8 are UTF-8 and any others are taken for
 * Windows-1252, the code page the Windows tools that write them use (WHATWG's
 * "latin1" decoder is Windows-1252).
 */

export type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be" | "latin1";

/** The encoding a byte order mark at the start names, and the mark's length. */
export function byteOrderMark(input: Uint8Array): { encoding: TextEncodingName; length: number } | undefined {
  if (input.length >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf)
    return { encoding: "utf-8", length: 3 };
  if (input.length >= 2 && input[0] === 0xff && input[1] === 0xfe) return { encoding: "utf-16le", length: 2 };
  if (input.length >= 2 && input[0] === 0xfe && input[1] === 0xff) return { encoding: "utf-16be", length: 2 };
  return undefined;
}

/**
 * The encoding of `input`, judged on its first `sniffBytes` bytes (all of it by default): a file of
 * hundreds of megabytes need not be read twice to be told.
 */
export function detectEncoding(input: Uint8Array, sniffBytes = input.length): TextEncodingName {
  const mark = byteOrderMark(input);
  if (mark) return mark.encoding;
  const unmarked = detectUnmarkedUtf16(input, sniffBytes);
  if (unmarked) return unmarked;
  return isValidUtf8(input, sniffBytes) ? "utf-8" : "latin1";
}

/** Some Windows tools drop the BOM; ASCII text in UTF-16 still shows as every other byte NUL. */
function detectUnmarkedUtf16(input: Uint8Array, sniffBytes: number): TextEncodingName | undefined {
  const n = Math.min(input.length, sniffBytes, 64 * 1024) & ~1;
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

function isValidUtf8(input: Uint8Array, sniffBytes: number): boolean {
  let end = Math.min(input.length, sniffBytes);
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

/** Windows-1252's characters at 0x80–0x9F (WHATWG's index), where ISO-8859-1 has C1 controls. */
const WINDOWS_1252_HIGH =
  "\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F" +
  "\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178";

/**
 * `bytes` decoded by `decoder`; Windows-1252 mended where the platform decodes it as ISO-8859-1
 * (Node 20 does: its 0x80 comes out as the control U+0080, not €), a no-op where it is right.
 */
export function decodeWith(decoder: TextDecoder, bytes: Uint8Array): string {
  const text = decoder.decode(bytes);
  if (decoder.encoding !== "windows-1252") return text;
  return text.replace(/[\u0080-\u009F]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]);
}
