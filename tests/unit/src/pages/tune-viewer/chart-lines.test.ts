import { describe, expect, it } from "vitest";
import type { ItemValues } from "../../../../../domain/tune/maps";
import {
  ALL_LINES_UP_TO,
  chartAxis,
  defaultLines,
  LINE_COLOURS,
  lineChoices,
  lineValues,
  pickedSeries,
  toggleLine,
} from "../../../../../src/pages/tune-viewer/chart-lines";

// 3 rows (rpm) × 2 columns (load %), row-major.
const map: ItemValues = {
  id: "boost",
  kind: "table2d",
  rows: 3,
  cols: 2,
  unit: "psi",
  values: [1, 2, 3, 4, 5, 6],
  x: { unit: "%", values: [50, 100] },
  y: { unit: "rpm", values: [2000, 3000, 4000] },
};
const stock: ItemValues = { ...map, values: [1, 1, 3, 3, 5, 5] };

describe("chart lines of a 2-D map", () => {
  it("names each row by its axis value and unit, and each column likewise", () => {
    expect(lineChoices(map, "rows")).toEqual([
      { index: 0, label: "2000 rpm" },
      { index: 1, label: "3000 rpm" },
      { index: 2, label: "4000 rpm" },
    ]);
    expect(lineChoices(map, "columns").map((c) => c.label)).toEqual(["50 %", "100 %"]);
  });

  it("names lines by their labels when the axis has no unit, and by their place when there is no axis", () => {
    const labelled = { ...map, y: { labels: ["idle", "mid", "high"] }, x: undefined };
    expect(lineChoices(labelled, "rows").map((c) => c.label)).toEqual(["idle", "mid", "high"]);
    expect(lineChoices(labelled, "columns").map((c) => c.label)).toEqual(["column 0", "column 1"]);
  });

  it("reads a row across the columns and a column down the rows", () => {
    expect(lineValues(map, "rows", 1)).toEqual([3, 4]);
    expect(lineValues(map, "columns", 1)).toEqual([2, 4, 6]);
    expect(chartAxis(map, "rows")).toEqual({ labels: ["50", "100"], unit: "%" });
    expect(chartAxis(map, "columns")).toEqual({ labels: ["2000", "3000", "4000"], unit: "rpm" });
  });

  it(`shows every line of a map with at most ${ALL_LINES_UP_TO}, else the focused cell's line or the first`, () => {
    expect(defaultLines(3)).toEqual([0, 1, 2]);
    expect(defaultLines(ALL_LINES_UP_TO)).toHaveLength(ALL_LINES_UP_TO);
    expect(defaultLines(16, 5)).toEqual([5]);
    expect(defaultLines(16)).toEqual([0]);
    expect(defaultLines(16, 99)).toEqual([0]);
  });

  it("adds a line not shown and removes one shown, keeping axis order", () => {
    expect(toggleLine([0, 4], 2)).toEqual([0, 2, 4]);
    expect(toggleLine([0, 2, 4], 2)).toEqual([0, 4]);
    expect(toggleLine([], 7)).toEqual([7]);
  });

  it("draws each picked line solid in its own colour, named by its axis value", () => {
    const series = pickedSeries(map, "rows", [0, 2]);
    expect(series.map((s) => [s.name, s.values, s.colour, s.dashed])).toEqual([
      ["2000 rpm", [1, 2], LINE_COLOURS[0], false],
      ["4000 rpm", [5, 6], LINE_COLOURS[2], false],
    ]);
    expect(new Set(series.map((s) => s.key)).size).toBe(series.length);
  });

  it("pairs each line with the base's same line, dashed in the same colour and named after the base", () => {
    const series = pickedSeries(map, "columns", [1], { values: stock, label: "Stock" });
    expect(series.map((s) => [s.name, s.values, s.colour, s.dashed])).toEqual([
      ["100 %", [2, 4, 6], LINE_COLOURS[1], false],
      ["100 % · Stock", [1, 3, 5], LINE_COLOURS[1], true],
    ]);
  });

  it("leaves out picked lines the map does not have (a pick kept from a larger map)", () => {
    expect(pickedSeries(map, "rows", [1, 9]).map((s) => s.name)).toEqual(["3000 rpm"]);
  });
});
