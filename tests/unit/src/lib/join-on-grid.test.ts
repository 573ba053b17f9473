import { describe, expect, it } from "vitest";
import { joinOnGrid, type TimedValues } from "../../../../src/lib/join-on-grid";

/** A series sampled every `dt` from `from`, values from `f`, with `null` where `gap` says. */
function series(n: number, from: number, dt: number, f: (i: number) => number, gap?: (i: number) => boolean) {
  const time = Float64Array.from({ length: n }, (_, i) => from + i * dt);
  const values = Array.from({ length: n }, (_, i) => (gap?.(i) ? null : f(i)));
  return { time, values } satisfies TimedValues;
}

describe("joining series on a shared time grid", () => {
  it("leaves sparse points to the exact join", () => {
    expect(joinOnGrid([series(10, 0, 1, (i) => i), series(10, 0.5, 1, (i) => i)], 800)).toBeNull();
    expect(joinOnGrid([series(100_000, 0, 0.01, (i) => i)], 800), "one series needs no join").toBeNull();
  });

  it("leaves a series denser than a view's min/max to the exact join", () => {
    const dense = Array.from({ length: 4 }, (_, s) => series(5000, s * 0.001, 0.002, (i) => i));
    expect(joinOnGrid(dense, 400)).toBeNull();
  });

  it("keeps every point of every series, in order, each within a grid step or two of its time", () => {
    const pixels = 400;
    // Six series of a dense view, about two points a pixel column each, at times of their own.
    const tables = Array.from({ length: 6 }, (_, s) =>
      series(
        780,
        s * 0.0037,
        10 / 780,
        (i) => Math.sin(i / (3 + s)),
        (i) => s === 1 && i % 100 === 0,
      ),
    );
    const joined = joinOnGrid(tables, pixels)!;
    expect(joined).not.toBeNull();
    const [time, ...columns] = joined;
    // Fewer rows than the 4,680 a plain join makes.
    expect(time.length).toBeLessThan(0.5 * 6 * 780);
    const step = (time[time.length - 1] - time[0]) / (4 * pixels);
    for (const [s, table] of tables.entries()) {
      const rows = columns[s].flatMap((value, row) => (value === undefined ? [] : [row]));
      expect(rows.map((row) => columns[s][row])).toEqual(table.values);
      const drift = rows.map((row, i) => Math.abs(time[row] - table.time[i]));
      expect(Math.max(...drift)).toBeLessThan(step * 2);
    }
    expect(columns[1].filter((value) => value === null)).toHaveLength(8);
    for (let i = 1; i < time.length; i++) expect(time[i]).toBeGreaterThan(time[i - 1]);
  });
});
