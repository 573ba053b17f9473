import { describe, expect, it } from "vitest";
import { type TuneItem, tuneDefinitionSchema } from "../../../../contracts/tune-definition";
import { TuneError } from "../../../../domain/tune/errors";
import { readCell, readItem, writeCell, writeItem } from "../../../../domain/tune/maps";
import { thrownBy } from "../../support/thrown";

const definition = tuneDefinitionSchema.parse({
  firmwareId: "TEST",
  imageSize: 0x200,
  items: [
    {
      id: "boost",
      title: "Boost",
      kind: "table2d",
      z: {
        address: "0x10",
        bits: 16,
        rows: 2,
        cols: 3,
        toPhysical: "X*0.01",
        toRaw: "X/0.01",
        unit: "bar",
        min: 0,
        max: 3,
      },
      x: { count: 3, address: "0x08", bits: 8, toPhysical: "X*10", unit: "%" },
      y: { labels: ["2000", "4000"], unit: "rpm" },
    },
    {
      id: "timing",
      title: "Timing",
      kind: "table2d",
      z: {
        address: "0x20",
        bits: 8,
        signed: true,
        endian: "little",
        rows: 2,
        cols: 3,
        columnMajor: true,
        toPhysical: "X*0.5",
      },
    },
    {
      id: "lambda",
      title: "Lambda",
      kind: "table1d",
      z: { address: "0x30", float: true, endian: "little", rows: 3 },
      x: { labels: ["a", "b", "c"] },
    },
    {
      id: "limit",
      title: "Limit",
      kind: "constant",
      z: { address: "0x40", bits: 32, endian: "little", toPhysical: "X*0.001" },
    },
    { id: "curve", title: "Curve", kind: "constant", z: { address: "0x44", bits: 16, toPhysical: "X*X" } },
    {
      id: "broken",
      title: "Broken",
      kind: "constant",
      z: { address: "0x46", bits: 16, toPhysical: "X/10", toRaw: "X*100" },
    },
    { id: "launch", title: "Launch", kind: "flag", z: { address: "0x48" }, mask: 6 },
    {
      id: "fuel",
      title: "Fuel",
      kind: "enum",
      z: { address: "0x49" },
      values: [
        { raw: 1, label: "RON 95" },
        { raw: 2, label: "RON 98" },
      ],
    },
  ],
});
const item = (id: string): TuneItem => definition.items.find((i) => i.id === id)!;
const blank = () => new Uint8Array(0x200);

const refusal = (run: () => unknown) => thrownBy(TuneError, run);

describe("reading map values", () => {
  it("reads a row-major big-endian table with an image axis and static labels", () => {
    const image = blank();
    // rows: [100, 200, 300], [400, 500, 600] raw, big endian
    [100, 200, 300, 400, 500, 600].forEach((raw, i) => {
      image[0x10 + 2 * i] = raw >> 8;
      image[0x11 + 2 * i] = raw & 0xff;
    });
    image.set([1, 2, 5], 0x08);
    const values = readItem(image, item("boost"));
    expect(values).toMatchObject({ rows: 2, cols: 3, unit: "bar", values: [1, 2, 3, 4, 5, 6] });
    expect(values.x).toEqual({ unit: "%", values: [10, 20, 50] });
    expect(values.y).toEqual({ unit: "rpm", labels: ["2000", "4000"] });
    expect(readCell(image, item("boost"), 1, 2)).toBe(6);
  });

  it("reads a column-major table column by column", () => {
    const image = blank();
    // storage order: col 0 (rows 0,1), col 1, col 2 → signed bytes
    image.set([2, 0xfe, 4, 0xfc, 6, 0xfa], 0x20);
    expect(readItem(image, item("timing")).values).toEqual([1, 2, 3, -1, -2, -3]);
  });

  it("reads constants, flags by their mask and enums with their labels", () => {
    const image = blank();
    image.set([0x40, 0xe2, 0x01, 0x00], 0x40); // 123456 little endian
    image[0x48] = 0b0111;
    image[0x49] = 2;
    expect(readItem(image, item("limit")).values).toEqual([123.456]);
    expect(readItem(image, item("launch")).values).toEqual([1]);
    image[0x48] = 0b0011;
    expect(readItem(image, item("launch")).values).toEqual([0]);
    expect(readItem(image, item("fuel"))).toMatchObject({ values: [2], labels: ["RON 98"] });
    image[0x49] = 7;
    expect(readItem(image, item("fuel")).labels).toEqual([null]);
  });
});

describe("writing map values", () => {
  it("round-trips physical values through toRaw and rounding", () => {
    const image = blank();
    writeItem(image, item("boost"), [0.5, 1.234, 2, 2.5, 0, 3]);
    expect(readItem(image, item("boost")).values).toEqual([0.5, 1.23, 2, 2.5, 0, 3]);
    expect(Array.from(image.subarray(0x10, 0x14))).toEqual([0, 50, 0, 123]);
  });

  it("writes a column-major little-endian signed table where its cells live", () => {
    const image = blank();
    writeItem(image, item("timing"), [1, 2, 3, -1, -2, -3]);
    expect(Array.from(image.subarray(0x20, 0x26))).toEqual([2, 0xfe, 4, 0xfc, 6, 0xfa]);
    writeCell(image, item("timing"), 1, 0, 10);
    expect(image[0x21]).toBe(20);
  });

  it("inverts a linear toPhysical when no toRaw is given", () => {
    const image = blank();
    writeCell(image, item("limit"), 0, 0, 98.765);
    expect(readItem(image, item("limit")).values).toEqual([98.765]);
    writeItem(image, item("lambda"), [0.8, 0.9, 1.05]);
    expect(readItem(image, item("lambda")).values).toEqual([Math.fround(0.8), Math.fround(0.9), Math.fround(1.05)]);
  });

  it("refuses a value that would not read back within one raw step, naming item, cell and value", () => {
    const error = refusal(() => writeCell(blank(), item("broken"), 0, 0, 5));
    expect(error.code).toBe("round_trip");
    expect(error.message).toBe(
      "broken: 5 would read back as 50 (raw 500), more than one raw step (0.1) away; toRaw and toPhysical disagree",
    );
  });

  it("refuses writing through a non-linear scaling that has no toRaw", () => {
    expect(() => writeCell(blank(), item("curve"), 0, 0, 4)).toThrow(
      'curve: cannot convert 4 to raw: "X*X" is not linear and the item has no toRaw',
    );
  });

  it("refuses values outside the physical limits and the element's raw range", () => {
    expect(() => writeCell(blank(), item("boost"), 1, 2, 3.5)).toThrow(
      "boost[1,2]: 3.5 bar is above the maximum 3 bar",
    );
    expect(() => writeCell(blank(), item("boost"), 0, 0, -0.1)).toThrow(
      "boost[0,0]: -0.1 bar is below the minimum 0 bar",
    );
    expect(() => writeCell(blank(), item("timing"), 0, 1, 64)).toThrow(
      "timing[0,1]: 64 needs raw 128, outside -128..127 of a signed 8-bit element",
    );
    expect(() => writeCell(blank(), item("limit"), 0, 0, NaN)).toThrow("limit: NaN is not a finite number");
  });

  it("writes nothing when any value of the item is refused", () => {
    const image = blank();
    expect(() => writeItem(image, item("boost"), [1, 1, 1, 1, 1, 99])).toThrow(
      "boost[1,2]: 99 bar is above the maximum 3 bar",
    );
    expect(image.every((b) => b === 0)).toBe(true);
    expect(() => writeItem(image, item("boost"), [1, 2])).toThrow("boost takes 6 values (2x3), got 2");
  });

  it("sets and clears only a flag's mask bits", () => {
    const image = blank();
    image[0x48] = 0b1001_0001;
    writeCell(image, item("launch"), 0, 0, 1);
    expect(image[0x48]).toBe(0b1001_0111);
    writeCell(image, item("launch"), 0, 0, 0);
    expect(image[0x48]).toBe(0b1001_0001);
    expect(() => writeCell(image, item("launch"), 0, 0, 2)).toThrow("launch: a flag is 0 or 1, got 2");
  });

  it("writes only the raw values an enum lists", () => {
    const image = blank();
    writeCell(image, item("fuel"), 0, 0, 2);
    expect(image[0x49]).toBe(2);
    expect(() => writeCell(image, item("fuel"), 0, 0, 3)).toThrow("fuel: 3 is not one of 1 (RON 95), 2 (RON 98)");
  });

  it("refuses cells outside the table", () => {
    expect(() => writeCell(blank(), item("boost"), 2, 0, 1)).toThrow("boost has no cell [2,0] (it is 2x3)");
  });
});
