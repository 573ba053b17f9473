import { describe, expect, it } from "vitest";
import type { TuneItem } from "../../../../../contracts/tune-definition";
import { changedItemIds } from "../../../../../domain/tune";
import { generateDemo } from "../../../../../server/seed/generator";
import {
  axisLabels,
  cellDelta,
  cornerLabel,
  deltaColour,
  formatDelta,
  formatValue,
  groupItems,
  heatColour,
  searchItems,
  valueRange,
} from "../../../../../src/pages/tune-viewer/model";

const demo = generateDemo({ size: 64 * 1024, itemCount: 12, patchEntries: 2, firmwareId: "VIEW64K" });
const { items, categories } = demo.firmware.definition;

const item = (id: string, title: string, description?: string, category?: string) =>
  ({ id, title, description, category }) as unknown as TuneItem;

describe("tune viewer model", () => {
  it("finds exactly the items the demo tune changed from stock, in definition order", () => {
    const changed = changedItemIds(demo.stock, demo.tune.image, demo.firmware.definition);
    expect(changed).toEqual(items.filter((i) => demo.tune.changedItems.includes(i.id)).map((i) => i.id));
    expect(changed.length).toBeGreaterThan(0);
  });

  it("searches titles, ids and descriptions for every word, case-insensitively", () => {
    const list = [
      item("boost_target", "Target boost", "Wastegate target by rpm"),
      item("ign_base", "Ignition base"),
      item("lambda", "Lambda request", "Fuel enrichment"),
    ];
    expect(searchItems(list, "BOOST").map((i) => i.id)).toEqual(["boost_target"]);
    expect(searchItems(list, "fuel").map((i) => i.id)).toEqual(["lambda"]);
    expect(searchItems(list, "target rpm").map((i) => i.id)).toEqual(["boost_target"]);
    expect(searchItems(list, "target ignition")).toEqual([]);
    expect(searchItems(list, "  ")).toHaveLength(3);
  });

  it("groups items by category in the definition's order, changed first, unknown categories last", () => {
    const list = [
      item("a", "A", undefined, "fuel"),
      item("b", "B", undefined, "boost"),
      item("c", "C", undefined, "fuel"),
      item("d", "D"),
    ];
    const groups = groupItems(
      list,
      [
        { id: "boost", name: "Boost" },
        { id: "fuel", name: "Fuel" },
        { id: "empty", name: "Empty" },
      ],
      new Set(["c"]),
    );
    expect(groups.map((g) => [g.name, g.items.map((i) => i.id)])).toEqual([
      ["Boost", ["b"]],
      ["Fuel", ["c", "a"]],
      ["Other", ["d"]],
    ]);
    expect(groupItems(items, categories, new Set()).flatMap((g) => g.items)).toHaveLength(items.length);
  });

  it("colours the heat map from blue at the minimum to red at the maximum, flat tables in the middle", () => {
    expect(heatColour(0, 0, 100)).toBe("hsl(240, 70%, 80%)");
    expect(heatColour(100, 0, 100)).toBe("hsl(0, 70%, 80%)");
    expect(heatColour(50, 0, 100)).toBe("hsl(120, 70%, 80%)");
    expect(heatColour(500, 0, 100)).toBe("hsl(0, 70%, 80%)");
    expect(heatColour(7, 7, 7)).toBe("hsl(120, 70%, 80%)");
    expect(valueRange([3, -1, 8, 2])).toEqual({ min: -1, max: 8 });
  });

  it("formats values without float noise and deltas with their sign and percentage", () => {
    expect(formatValue(1.5000000001)).toBe("1.5");
    expect(formatValue(-0.12345)).toBe("-0.123");
    expect(formatValue(1200)).toBe("1200");
    expect(formatDelta(cellDelta(110, 100))).toBe("+10 (+10 %)");
    expect(formatDelta(cellDelta(95, 100))).toBe("-5 (-5 %)");
    expect(formatDelta(cellDelta(2, 0))).toBe("+2");
    expect(cellDelta(-90, -100)).toEqual({ delta: 10, percent: 10 });
  });

  it("shows a change of an angle in degrees, absolute, and a change of fuel, load or airflow in percent", () => {
    for (const unit of ["°", "deg", "°CRK", "° KW", "degrees"])
      expect(formatDelta(cellDelta(14.25, 12), unit), unit).toBe(`+2.25 ${unit}`);
    for (const unit of ["ms", "%", "mg/stroke", "kg/h", "g/s", undefined])
      expect(formatDelta(cellDelta(110, 100), unit), unit).toBe("+10 (+10 %)");
  });

  it("labels a map's corner with both axes, naming an axis that has no unit", () => {
    const grid = (x?: { unit?: string }, y?: { unit?: string }) => ({
      id: "m",
      kind: "table2d" as const,
      rows: 2,
      cols: 2,
      unit: "hPa",
      values: [1, 2, 3, 4],
      ...(x && { x: { ...x, values: [1, 2] } }),
      ...(y && { y: { ...y, values: [1, 2] } }),
    });
    expect(cornerLabel(grid({ unit: "rpm" }, { unit: "%" }))).toBe("↓ % · → rpm");
    expect(cornerLabel(grid({ unit: "rpm" }, {}))).toBe("↓ row axis · → rpm");
    expect(cornerLabel(grid({ unit: "rpm" }))).toBe("↓ row index · → rpm");
    expect(cornerLabel({ ...grid({ unit: "rpm" }), rows: 1 })).toBe("→ rpm");
  });

  it("colours increases red and decreases blue, none for unchanged cells", () => {
    expect(deltaColour(0, 0)).toBeUndefined();
    expect(deltaColour(5, 5)).toMatch(/^hsl\(0,/);
    expect(deltaColour(-5, -5)).toMatch(/^hsl\(215,/);
    expect(deltaColour(50, 40)).not.toBe(deltaColour(1, 1));
  });

  it("labels axes by value, by label, or by index when the definition has none", () => {
    expect(axisLabels({ unit: "rpm", values: [1000, 1500.25] }, 2)).toEqual(["1000", "1500.25"]);
    expect(axisLabels({ labels: ["low", "high"] }, 2)).toEqual(["low", "high"]);
    expect(axisLabels(undefined, 3)).toEqual(["0", "1", "2"]);
  });
});
