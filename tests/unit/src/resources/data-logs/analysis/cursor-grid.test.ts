import { describe, expect, it } from "vitest";
import { indexAtTime } from "../../../../../../src/lib/downsample";
import { cursorGrid, readGrid } from "../../../../../../src/resources/data-logs/analysis/cursor-grid";

// Samples every 0.5 s from 0 to 10 s: rpm = 100·i, speed = i.
const time = Float64Array.from({ length: 21 }, (_, i) => i / 2);
const columns = [Float64Array.from(time, (_, i) => 100 * i), Float64Array.from(time, (_, i) => i)];
const gridOf = (t0: number, t1: number, pixels: number) =>
  cursorGrid(
    { t0, t1, pixels },
    ["rpm", "speed"],
    (t) => indexAtTime(time, t),
    (k, i) => columns[k][i],
  );

describe("cursorGrid and readGrid", () => {
  it("read at a column's time, every channel's value is the worker's for that time", () => {
    const grid = gridOf(2, 6, 8);
    for (let p = 0; p <= 8; p++) {
      const t = 2 + p / 2;
      const i = indexAtTime(time, t);
      expect(readGrid(grid, [2, 6], t)).toEqual({ rpm: 100 * i, speed: i });
    }
  });

  it("reads the nearest column between columns", () => {
    const grid = gridOf(0, 10, 4);
    // Columns at 0, 2.5, 5, 7.5, 10 s: 3.6 s is nearest to 2.5 s (sample 5), 3.8 s to 5 s (sample 10).
    expect(readGrid(grid, [0, 10], 3.6)).toEqual({ rpm: 500, speed: 5 });
    expect(readGrid(grid, [0, 10], 3.8)).toEqual({ rpm: 1000, speed: 10 });
  });

  it("answers nothing for another range (a zoom whose view has not come) or a time outside it", () => {
    const grid = gridOf(2, 6, 8);
    expect(readGrid(grid, [2, 6.5], 3)).toBeUndefined();
    expect(readGrid(grid, [2, 6], 1)).toBeUndefined();
    expect(readGrid(grid, [2, 6], 7)).toBeUndefined();
    expect(readGrid(null, [2, 6], 3)).toBeUndefined();
  });

  it("reads NaN where there is no sample (an empty log)", () => {
    const grid = cursorGrid(
      { t0: 0, t1: 1, pixels: 2 },
      ["rpm"],
      () => -1,
      () => 0,
    );
    expect(readGrid(grid, [0, 1], 0.5)).toEqual({ rpm: NaN });
  });
});
