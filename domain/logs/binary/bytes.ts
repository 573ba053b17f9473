/** Byte-reading helpers shared by the binary log readers. */

/** True when `bytes` holds `magic` at `at`. */
export function hasBytes(bytes: Uint8Array, magic: readonly number[] | string, at = 0): boolean {
  const want = typeof magic === "string" ? Array.from(magic, (c) => c.charCodeAt(0)) : magic;
  if (at + want.length > bytes.length) return false;
  return want.every((b, i) => bytes[at + i] === b);
}

/** A NUL-terminated single-byte string in a fixed-size slot, trimmed. */
export function cString(bytes: Uint8Array, start: number, length: number): string {
  const stop = Math.min(start + length, bytes.length);
  let end = start;
  while (end < stop && bytes[end] !== 0) end++;
  return new TextDecoder("latin1").decode(bytes.subarray(start, end)).trim();
}

/** A NUL-terminated UTF-16LE string of up to `maxChars` characters, trimmed. */
export function utf16String(bytes: Uint8Array, start: number, maxChars: number): string {
  let end = start;
  const stop = Math.min(start + maxChars * 2, bytes.length - 1);
  while (end < stop && (bytes[end] !== 0 || bytes[end + 1] !== 0)) end += 2;
  return new TextDecoder("utf-16le").decode(bytes.subarray(start, end)).trim();
}

export function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The shortest decimal that is this Float32 (9.26, not 9.260000228881836). */
export function shortestF32(v: number): number {
  for (let p = 1; p <= 9; p++) {
    const d = Number(v.toPrecision(p));
    if (Math.fround(d) === v) return d;
  }
  return v;
}
