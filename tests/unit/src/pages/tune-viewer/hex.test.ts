import { describe, expect, it } from "vitest";
import type { TuneItem } from "../../../../../contracts/tune-definition";
import { indexExtents } from "../../../../../domain/tune/diff";
import { itemExtents } from "../../../../../domain/tune/maps";
import { generateDemo } from "../../../../../server/seed/generator";
import {
  ASCII_COLUMN,
  byteAt,
  byteRanges,
  diffRegions,
  diffText,
  extentsAt,
  hexDump,
  hexDumpLines,
  lineAddress,
} from "../../../../../src/pages/tune-viewer/hex";

const demo = generateDemo({ size: 64 * 1024, itemCount: 12, patchEntries: 2, firmwareId: "HEX64K" });

describe("hex dump", () => {
  it("writes 16 bytes a line as upper-case hex, then printable ASCII with dots for the rest", () => {
    const bytes = Uint8Array.from([
      0x7f, 0x44, 0x45, 0x4d, 0x4f, 0x00, 0xff, 0x20, 0x41, 0x7e, 0x80, 1, 2, 3, 4, 5, 0xab,
    ]);
    const [first, second] = hexDump(bytes).split("\n");
    expect(first).toBe("7F 44 45 4D 4F 00 FF 20 41 7E 80 01 02 03 04 05  .DEMO.. A~......");
    // The last line is padded, so every line has the ASCII column at the same place.
    expect(second).toBe(`AB${" ".repeat(47)}.${" ".repeat(15)}`);
    expect(first.indexOf(".DEMO")).toBe(ASCII_COLUMN - 1);
  });

  it("has one line per 16 bytes of an image and gutter addresses counting by 16", () => {
    const text = hexDump(demo.stock);
    expect(text.split("\n")).toHaveLength(demo.stock.length / 16);
    expect(lineAddress(1)).toBe("000000");
    expect(lineAddress(0x1001)).toBe("010000");
  });

  it("finds the byte under a position in the hex or the ASCII column, and nothing between or beyond", () => {
    expect(byteAt(1, 1, 64)).toBe(0);
    expect(byteAt(1, 2, 64)).toBe(0);
    expect(byteAt(2, 4, 64)).toBe(17);
    expect(byteAt(2, ASCII_COLUMN + 15, 64)).toBe(31);
    expect(byteAt(1, ASCII_COLUMN - 1, 64)).toBeNull();
    expect(byteAt(5, 1, 64)).toBeNull();
  });

  it("covers a byte range with one hex and one ASCII range a line", () => {
    // Bytes 14..17: the last two of line 1 and the first two of line 2.
    expect(byteRanges(14, 18)).toEqual([
      { startLineNumber: 1, startColumn: 43, endLineNumber: 1, endColumn: 48 },
      { startLineNumber: 1, startColumn: ASCII_COLUMN + 14, endLineNumber: 1, endColumn: ASCII_COLUMN + 16 },
      { startLineNumber: 2, startColumn: 1, endLineNumber: 2, endColumn: 6 },
      { startLineNumber: 2, startColumn: ASCII_COLUMN, endLineNumber: 2, endColumn: ASCII_COLUMN + 2 },
    ]);
    const text = hexDump(Uint8Array.from({ length: 32 }, (_, i) => i)).split("\n");
    const [hex] = byteRanges(14, 18);
    expect(text[0].slice(hex.startColumn - 1, hex.endColumn - 1)).toBe("0E 0F");
  });
});

describe("address to definition item", () => {
  const { items } = demo.firmware.definition;
  const index = indexExtents(items);

  it("answers the item and part of every byte of every extent", () => {
    for (const item of items) {
      for (const extent of itemExtents(item)) {
        for (const address of [extent.start, extent.end - 1]) {
          expect(extentsAt(index, address).map((e) => [e.item.id, e.part])).toContainEqual([item.id, extent.part]);
        }
      }
    }
  });

  it("answers nothing for a byte outside every item", () => {
    expect(extentsAt(index, 0)).toEqual([]);
    const last = Math.max(...index.extents.map((e) => e.end));
    expect(extentsAt(index, last)).toEqual([]);
  });

  it("answers every item sharing an address, even when a long extent starts before shorter ones", () => {
    const item = (id: string, address: number, rows: number): TuneItem =>
      ({
        id,
        title: id,
        kind: "table1d",
        z: { address, bits: 8, signed: false, float: false, bigEndian: false, toPhysical: "X", rows, cols: 1 },
      }) as unknown as TuneItem;
    const overlapping = indexExtents([item("long", 0, 100), item("short", 10, 2), item("later", 50, 1)]);
    expect(extentsAt(overlapping, 50).map((e) => e.item.id)).toEqual(["long", "later"]);
    expect(extentsAt(overlapping, 11).map((e) => e.item.id)).toEqual(["long", "short"]);
    expect(extentsAt(overlapping, 12).map((e) => e.item.id)).toEqual(["long"]);
  });
});

describe("hex diff", () => {
  it("keeps only the changed lines with their context, merging regions that touch", () => {
    const a = new Uint8Array(16 * 100);
    const b = Uint8Array.from(a);
    b[16 * 10 + 3] = 1;
    b[16 * 13] = 2; // within 2 lines of context of line 10: one region
    b[16 * 60 + 15] = 3;
    expect(diffRegions(a, b, 2)).toEqual([
      [8, 15],
      [58, 62],
    ]);
    expect(diffRegions(a, Uint8Array.from(a))).toEqual([]);
  });

  it("writes both sides with the same addressed lines and a marker between regions", () => {
    const a = new Uint8Array(16 * 100);
    const b = Uint8Array.from(a);
    b[16 * 10 + 3] = 0x41;
    b[16 * 60] = 0x42;
    const regions = diffRegions(a, b, 1);
    const left = diffText(a, regions).split("\n");
    const right = diffText(b, regions).split("\n");
    expect(left).toHaveLength(7);
    expect(right).toHaveLength(7);
    expect(left[1]).toMatch(/^0000A0 {2}00 00 00 00 /);
    expect(right[1]).toMatch(/^0000A0 {2}00 00 00 41 .*\.\.\.A/);
    expect(right[3]).toBe("········");
    expect(right[5]).toMatch(/^0003C0 {2}42 /);
  });

  it("pairs the bytes of a longer image with blanks on the shorter side", () => {
    const short = new Uint8Array(16);
    const long = new Uint8Array(32).fill(0x11);
    long.fill(0, 0, 16);
    const regions = diffRegions(short, long, 0);
    expect(regions).toEqual([[1, 1]]);
    expect(diffText(short, regions)).toBe("000010");
    expect(diffText(long, regions)).toMatch(/^000010 {2}11 11/);
  });
});

describe("hex dump in slices", () => {
  it("joins slices of lines into the same text as the whole dump, the last slice cut at the image's end", () => {
    const bytes = Uint8Array.from({ length: 16 * 10 + 5 }, (_, i) => (i * 37) & 0xff);
    const slices = [0, 4, 8].map((first) => hexDumpLines(bytes, first, 4));
    expect(slices.join("\n")).toBe(hexDump(bytes));
    expect(slices[2].split("\n")).toHaveLength(3);
  });
});
