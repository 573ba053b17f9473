import { describe, expect, it } from "vitest";
import { readItem } from "../../../../../domain/tune/maps";
import { generateDemo } from "../../../../../server/seed/generator";
import { DEMO_TUNE_OPTIONS } from "../../../../../server/seed/tunes";
import { demoCar, pullLog } from "../../../../../server/seed/virtual-car/phone-app";

const demo = generateDemo(DEMO_TUNE_OPTIONS);
const boostItem = demo.firmware.definition.items.find((i) => i.id === "boost_target")!;

/** The pull's rows as numbers: time, rpm, boost target, boost. */
const rows = (csv: string) =>
  csv
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => line.split(",").map(Number));

describe("the virtual car's data log", () => {
  it("follows the boost target the ECU holds: the flashed tune's map, not the stock one", () => {
    const peaks = [];
    for (const memory of [demo.stock, demo.tune.image]) {
      const car = { ...demoCar(), memory: memory.slice() };
      const map = readItem(car.memory, boostItem);
      const rpmAxis = (map.y as { labels: string[] }).labels.map(Number);
      const fullLoad = (row: number) => map.values[row * map.cols + map.cols - 1];
      const log = rows(pullLog(car));
      for (const [, rpm, target] of log) {
        // Between two rows of the rpm axis, the target lies between those rows' full-load values.
        const k = rpmAxis.findIndex((axis, i) => axis <= rpm && rpm <= rpmAxis[i + 1]);
        const [low, high] = [fullLoad(k), fullLoad(k + 1)].sort((a, b) => a - b);
        expect(target).toBeGreaterThanOrEqual(low - 0.005);
        expect(target).toBeLessThanOrEqual(high + 0.005);
      }
      peaks.push(Math.max(...log.map((r) => r[2])));
    }
    expect(peaks[1]).not.toBeCloseTo(peaks[0], 1);
  });

  it("spools from 2,000 rpm and holds the target within ripple from 3,000 rpm", () => {
    for (const [, rpm, target, boost] of rows(pullLog(demoCar()))) {
      if (rpm >= 3000) expect(Math.abs(boost - target)).toBeLessThanOrEqual(0.15 + 1e-9);
      else expect(boost).toBeLessThanOrEqual(target + 1e-9);
    }
  });
});
