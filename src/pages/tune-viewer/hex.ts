/**
 * The hex view's pure parts: the text of a dump (16 bytes a line, hex then
 * ASCII; the address is Monaco's line-number gutter), positions of bytes in
 * that text both ways, which definition items an address falls in, and the
 * text of a side-by-side diff of only the regions that differ.
 */
import { type ExtentIndex, overlapping } from "../../../domain/tune/diff";
import type { ItemExtent } from "../../../domain/tune/maps";

export const BYTES_PER_LINE = 16;
/** "xx " per byte, one more space, then the ASCII column. */
const HEX_WIDTH = BYTES_PER_LINE * 3;
export const ASCII_COLUMN = HEX_WIDTH + 2;
const LINE_LENGTH = HEX_WIDTH + 1 + BYTES_PER_LINE;

const HEX_DIGITS = Array.from("0123456789ABCDEF", (c) => c.charCodeAt(0));
const SPACE = 0x20;
const DOT = 0x2e;

export function lineCount(size: number): number {
  return Math.max(1, Math.ceil(size / BYTES_PER_LINE));
}

/** The address shown in the gutter of a (1-based) line. */
export function lineAddress(line: number): string {
  return ((line - 1) * BYTES_PER_LINE).toString(16).toUpperCase().padStart(6, "0");
}

/** Writes one line's characters at `at`: the bytes [offset, offset + 16) of `bytes`, blanks past its end. */
function writeLine(out: Uint8Array, at: number, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < BYTES_PER_LINE; i++) {
    const index = offset + i;
    const hex = at + i * 3;
    if (index < bytes.length) {
      const byte = bytes[index];
      out[hex] = HEX_DIGITS[byte >> 4];
      out[hex + 1] = HEX_DIGITS[byte & 15];
      out[at + ASCII_COLUMN - 1 + i] = byte >= 0x20 && byte < 0x7f ? byte : DOT;
    } else {
      out[hex] = SPACE;
      out[hex + 1] = SPACE;
      out[at + ASCII_COLUMN - 1 + i] = SPACE;
    }
    out[hex + 2] = SPACE;
  }
  out[at + HEX_WIDTH] = SPACE;
}

/**
 * Lines [first, first + count) of the dump as one string, without a final
 * newline. Written byte by byte into one buffer and decoded once: joining
 * half a million small strings takes several times longer for an 8 MiB image.
 */
export function hexDumpLines(bytes: Uint8Array, first: number, count: number): string {
  const lines = Math.min(count, lineCount(bytes.length) - first);
  const out = new Uint8Array(Math.max(0, lines * (LINE_LENGTH + 1) - 1));
  for (let line = 0; line < lines; line++) {
    const at = line * (LINE_LENGTH + 1);
    writeLine(out, at, bytes, (first + line) * BYTES_PER_LINE);
    if (line < lines - 1) out[at + LINE_LENGTH] = 0x0a;
  }
  return new TextDecoder("latin1").decode(out);
}

/** The whole dump as one string. */
export function hexDump(bytes: Uint8Array): string {
  return hexDumpLines(bytes, 0, lineCount(bytes.length));
}

/** The byte under a (1-based) line and column, in the hex or the ASCII column; null between them or past the end. */
export function byteAt(line: number, column: number, size: number): number | null {
  let index: number;
  if (column >= 1 && column <= HEX_WIDTH) index = Math.floor((column - 1) / 3);
  else if (column >= ASCII_COLUMN && column < ASCII_COLUMN + BYTES_PER_LINE) index = column - ASCII_COLUMN;
  else return null;
  const offset = (line - 1) * BYTES_PER_LINE + index;
  return offset >= 0 && offset < size ? offset : null;
}

export interface TextRange {
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
}

/** The text ranges (hex and ASCII, one pair a line) covering bytes [start, end), for highlighting. */
export function byteRanges(start: number, end: number): TextRange[] {
  const ranges: TextRange[] = [];
  for (let offset = start; offset < end; ) {
    const line = Math.floor(offset / BYTES_PER_LINE) + 1;
    const first = offset % BYTES_PER_LINE;
    const last = Math.min(BYTES_PER_LINE, first + (end - offset));
    ranges.push({ startLineNumber: line, startColumn: first * 3 + 1, endLineNumber: line, endColumn: last * 3 });
    ranges.push({
      startLineNumber: line,
      startColumn: ASCII_COLUMN + first,
      endLineNumber: line,
      endColumn: ASCII_COLUMN + last,
    });
    offset += last - first;
  }
  return ranges;
}

// ---------------------------------------------------------------------------
// Address → item

/** The item extents (data or axes) an address falls in: several when items share an axis. */
export function extentsAt(index: ExtentIndex, address: number): ItemExtent[] {
  return overlapping(index, address, address);
}

// ---------------------------------------------------------------------------
// Diff

/** Line ranges [first, last] (0-based, inclusive) where the two images differ, each widened by `context` lines and merged when they touch. */
export function diffRegions(a: Uint8Array, b: Uint8Array, context = 2): Array<[number, number]> {
  const size = Math.max(a.length, b.length);
  const lines = lineCount(size);
  const regions: Array<[number, number]> = [];
  for (let offset = 0; offset < size; offset++) {
    if (a[offset] === b[offset]) continue;
    const line = Math.floor(offset / BYTES_PER_LINE);
    const first = Math.max(0, line - context);
    const last = Math.min(lines - 1, line + context);
    const previous = regions.at(-1);
    if (previous && first <= previous[1] + 1) previous[1] = Math.max(previous[1], last);
    else regions.push([first, last]);
    // The rest of this line is in the region already.
    offset = (line + 1) * BYTES_PER_LINE - 1;
  }
  return regions;
}

/**
 * One side of a hex diff: the given regions only, each line prefixed with its
 * address (the gutter numbers lines of this text, not of the image), regions
 * separated by a marker line. Both sides get the same regions, so their lines pair up.
 */
export function diffText(bytes: Uint8Array, regions: ReadonlyArray<readonly [number, number]>): string {
  const parts: string[] = [];
  const line = new Uint8Array(LINE_LENGTH);
  const decoder = new TextDecoder("latin1");
  for (const [first, last] of regions) {
    if (parts.length > 0) parts.push("········");
    for (let n = first; n <= last; n++) {
      writeLine(line, 0, bytes, n * BYTES_PER_LINE);
      parts.push(`${lineAddress(n + 1)}  ${decoder.decode(line)}`.trimEnd());
    }
  }
  return parts.join("\n");
}
