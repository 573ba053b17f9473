import { describe, expect, it } from "vitest";
import { checksumSchemeSchema, tuneDefinitionSchema } from "../../../../contracts/tune-definition";
import { changedItemIds, changedRanges, diffImages } from "../../../../domain/tune/diff";

const definition = tuneDefinitionSchema.parse({
  firmwareId: "TEST",
  imageSize: 0x200,
  items: [
    {
      id: "boost",
      title: "Boost",
      kind: "table2d",
      z: { address: "0x10", bits: 16, rows: 2, cols: 3, toPhysical: "X*0.01", unit: "bar" },
      x: { count: 3, address: "0x08", bits: 8, toPhysical: "X*10", unit: "%" },
      y: { labels: ["2000", "4000"] },
    },
    { id: "limit", title: "Rev limit", kind: "constant", z: { address: "0x40", bits: 16, unit: "rpm" } },
    { id: "launch", title: "Launch", kind: "flag", z: { address: "0x42" }, mask: 1 },
  ],
});
const crc = checksumSchemeSchema.parse({
  name: "Main CRC",
  type: "crc32",
  ranges: [[0, 0x1f7]],
  store: { address: "0x1FC" },
});

describe("changed byte ranges", () => {
  it("merges changes closer than the gap and keeps farther ones apart", () => {
    const a = new Uint8Array(0x200);
    const b = a.slice();
    b[0x100] = 1;
    b[0x105] = 1; // 4 equal bytes between: merged
    b[0x10b] = 1; // 5 equal bytes between: separate
    expect(changedRanges(a, b)).toEqual([
      { start: 0x100, end: 0x105 },
      { start: 0x10b, end: 0x10b },
    ]);
    expect(changedRanges(a, b, 0)).toEqual([
      { start: 0x100, end: 0x100 },
      { start: 0x105, end: 0x105 },
      { start: 0x10b, end: 0x10b },
    ]);
  });

  it("finds changes in the unaligned tail and in misaligned views", () => {
    const backing = new Uint8Array(0x203);
    const a = backing.subarray(1);
    const b = Uint8Array.from(a);
    b[0x201] = 9;
    b[0] = 9;
    expect(changedRanges(a, b)).toEqual([
      { start: 0, end: 0 },
      { start: 0x201, end: 0x201 },
    ]);
  });

  it("refuses images of different sizes", () => {
    expect(() => changedRanges(new Uint8Array(4), new Uint8Array(8))).toThrow("images differ in size: 4 and 8 bytes");
  });
});

describe("map-level diff", () => {
  it("attributes each range to the items and cells it changes, with physical values before and after", () => {
    const stock = new Uint8Array(0x200);
    stock.set([0, 100, 0, 200], 0x10); // boost[0,0] = 1.00, boost[0,1] = 2.00
    stock.set([1, 2, 3], 0x08);
    const tuned = stock.slice();
    tuned.set([0, 120], 0x12); // boost[0,1] 2.00 → 1.20
    tuned[0x09] = 4; // x axis 20 → 40 %
    tuned.set([0x1b, 0x58], 0x40); // rev limit 7000
    tuned[0x42] = 1; // launch on
    tuned[0x1fd] = 0xab; // checksum store
    tuned[0x180] = 0xee; // outside every item

    const changes = diffImages(stock, tuned, { definition, checksums: [crc] });
    expect(changes).toEqual([
      {
        start: 0x09,
        end: 0x09,
        length: 1,
        items: [
          {
            id: "boost",
            title: "Boost",
            kind: "table2d",
            part: "x",
            unit: "%",
            cells: [{ row: 0, col: 1, before: 20, after: 40 }],
          },
        ],
        checksums: [],
      },
      {
        start: 0x13,
        end: 0x13,
        length: 1,
        items: [
          {
            id: "boost",
            title: "Boost",
            kind: "table2d",
            part: "z",
            unit: "bar",
            cells: [{ row: 0, col: 1, before: 2, after: 1.2 }],
          },
        ],
        checksums: [],
      },
      {
        start: 0x40,
        end: 0x42,
        length: 3,
        items: [
          {
            id: "limit",
            title: "Rev limit",
            kind: "constant",
            part: "z",
            unit: "rpm",
            cells: [{ row: 0, col: 0, before: 0, after: 7000 }],
          },
          { id: "launch", title: "Launch", kind: "flag", part: "z", cells: [{ row: 0, col: 0, before: 0, after: 1 }] },
        ],
        checksums: [],
      },
      { start: 0x180, end: 0x180, length: 1, items: [], checksums: [] },
      { start: 0x1fd, end: 0x1fd, length: 1, items: [], checksums: ["Main CRC"] },
    ]);
  });

  it("reports column-major cells at their row and column", () => {
    const columnMajor = tuneDefinitionSchema.parse({
      firmwareId: "T",
      imageSize: 64,
      items: [{ id: "t", title: "T", kind: "table2d", z: { address: 0, rows: 2, cols: 3, columnMajor: true } }],
    });
    const stock = new Uint8Array(64);
    const tuned = stock.slice();
    tuned[3] = 7; // storage index 3 = column 1, row 1
    expect(diffImages(stock, tuned, { definition: columnMajor })[0].items[0].cells).toEqual([
      { row: 1, col: 1, before: 0, after: 7 },
    ]);
  });
});

describe("changedItemIds", () => {
  it("lists items whose values read differently, in definition order, and not a flag whose other bits changed", () => {
    const before = new Uint8Array(0x200);
    const after = Uint8Array.from(before);
    after[0x40] = 1; // the rev limit
    after[0x42] = 0x02; // a bit of the flag's byte that its mask does not cover
    after[0x08] = 3; // an x-axis value of the boost map
    expect(changedItemIds(before, after, definition)).toEqual(["boost", "limit"]);
    after[0x42] = 0x03;
    expect(changedItemIds(before, after, definition)).toEqual(["boost", "limit", "launch"]);
    expect(changedItemIds(before, Uint8Array.from(before), definition)).toEqual([]);
  });
});
