import { describe, expect, it } from "vitest";
import { readCell, readItem } from "../../../../../domain/tune";
import { TuneError } from "../../../../../domain/tune/errors";
import { generateDemo } from "../../../../../server/seed/generator";
import {
  editItem,
  emptyHistory,
  inRange,
  mapCsv,
  operate,
  recorded,
  redo,
  undo,
} from "../../../../../src/pages/tune-viewer/editing";

const demo = generateDemo({ size: 64 * 1024, itemCount: 12, patchEntries: 2, firmwareId: "EDIT64K" });
const table = demo.firmware.definition.items.find((item) => item.kind === "table2d")!;

describe("tune viewer editing", () => {
  it("sets, adds, multiplies by a percentage and interpolates a range, leaving the rest", () => {
    const values = [0, 0, 0, 10, 20, 30, 100, 200, 300];
    expect(operate(values, 3, { row0: 0, col0: 0, row1: 0, col1: 1 }, { kind: "set", value: 5 })).toEqual([
      5, 5, 0, 10, 20, 30, 100, 200, 300,
    ]);
    expect(operate(values, 3, { row0: 1, col0: 2, row1: 1, col1: 0 }, { kind: "add", value: 1 })).toEqual([
      0, 0, 0, 11, 21, 31, 100, 200, 300,
    ]);
    expect(operate(values, 3, { row0: 2, col0: 0, row1: 2, col1: 2 }, { kind: "percent", value: -10 })).toEqual([
      0, 0, 0, 10, 20, 30, 90, 180, 270,
    ]);
    // Corners 0, 0, 100, 300: the middle is their bilinear blend.
    expect(operate(values, 3, { row0: 0, col0: 0, row1: 2, col1: 2 }, { kind: "interpolate" })).toEqual([
      0, 0, 0, 50, 100, 150, 100, 200, 300,
    ]);
    expect(inRange({ row0: 2, col0: 2, row1: 0, col1: 0 }, 1, 1)).toBe(true);
    expect(inRange({ row0: 0, col0: 0, row1: 0, col1: 0 }, 1, 1)).toBe(false);
  });

  it("writes through the domain, only the item's bytes, and undoes and redoes them", () => {
    const image = Uint8Array.from(demo.tune.image);
    const stockValue = readCell(image, table, 1, 1);
    const edit = editItem(image, table, { row0: 1, col0: 1, row1: 1, col1: 1 }, { kind: "add", value: 1 });
    const edited = readCell(image, table, 1, 1);
    expect(edited).toBeGreaterThan(stockValue);
    const differing = image.reduce((n, byte, i) => n + (byte !== demo.tune.image[i] ? 1 : 0), 0);
    expect(differing).toBeGreaterThan(0);
    expect(differing).toBeLessThanOrEqual(4);

    let history = recorded(emptyHistory, edit);
    history = undo(image, history);
    expect(image).toEqual(demo.tune.image);
    expect(history).toEqual({ undo: [], redo: [edit] });
    history = redo(image, history);
    expect(readCell(image, table, 1, 1)).toBe(edited);
    expect(undo(image, emptyHistory)).toBe(emptyHistory);
  });

  it("refuses a value out of range without changing a byte", () => {
    const image = Uint8Array.from(demo.tune.image);
    expect(() => editItem(image, table, { row0: 0, col0: 0, row1: 1, col1: 1 }, { kind: "set", value: 1e12 })).toThrow(
      TuneError,
    );
    expect(image).toEqual(demo.tune.image);
  });

  it("sets a constant in physical units, a flag and an enum as one undoable edit each, refusing what the item cannot hold", () => {
    // 24 items: the demo's kinds cycle, and enums come after the first 12.
    const demo = generateDemo({ size: 64 * 1024, itemCount: 24, patchEntries: 2, firmwareId: "SCALAR64K" });
    const { items } = demo.firmware.definition;
    const constant = items.find((item) => item.kind === "constant" && item.z.max !== undefined)!;
    const flag = items.find((item) => item.kind === "flag")!;
    const choice = items.find((item) => item.kind === "enum")!;
    const cell = { row0: 0, col0: 0, row1: 0, col1: 0 };
    const image = Uint8Array.from(demo.tune.image);
    const target = constant.z.max!;
    let history = recorded(emptyHistory, editItem(image, constant, cell, { kind: "set", value: target }));
    expect(readCell(image, constant, 0, 0)).toBeCloseTo(target, 6);
    const flagWas = readCell(image, flag, 0, 0);
    history = recorded(history, editItem(image, flag, cell, { kind: "set", value: 1 - flagWas }));
    expect(readCell(image, flag, 0, 0)).toBe(1 - flagWas);
    if (choice.kind !== "enum") throw new Error("no enum in the demo definition");
    const other = choice.values.find((v) => v.raw !== readCell(image, choice, 0, 0))!;
    history = recorded(history, editItem(image, choice, cell, { kind: "set", value: other.raw }));
    expect(readCell(image, choice, 0, 0)).toBe(other.raw);

    const before = Uint8Array.from(image);
    expect(() => editItem(image, constant, cell, { kind: "set", value: target + 1e6 })).toThrow(/above the maximum/);
    expect(() => editItem(image, choice, cell, { kind: "set", value: 9999 })).toThrow(/is not one of/);
    expect(() => editItem(image, flag, cell, { kind: "set", value: 2 })).toThrow(/a flag is 0 or 1/);
    expect(image).toEqual(before);

    for (let i = 0; i < 3; i++) history = undo(image, history);
    expect(image).toEqual(demo.tune.image);
  });

  it("exports a map as CSV with its axes and unit", () => {
    const values = readItem(demo.tune.image, table);
    const csv = mapCsv({ rows: 2, cols: 2, unit: "kPa", values: [1, 2.5, 3, 4] }, ["1000", "2000"], ["a,b", "c"]);
    expect(csv).toBe('kPa,1000,2000\n"a,b",1,2.5\nc,3,4\n');
    expect(mapCsv(values, [], []).split("\n")).toHaveLength(values.rows + 2);
  });
});
