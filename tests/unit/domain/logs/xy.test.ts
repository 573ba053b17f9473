import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LogAnalysisError } from "../../../../domain/logs/analysis-error";
import { xyPointsToDraw, xyStatistics } from "../../../../domain/logs/xy";
import { thrownBy } from "../../support/thrown";

/** The textbook computation, row by row, for the code's answers to be checked against. */
function plain(x: number[], y: number[], mask: number[] | undefined, breakpoints: number[]) {
  const rows = x.flatMap((xi, i) =>
    (mask && !mask[i]) || Number.isNaN(xi) || Number.isNaN(y[i]) ? [] : [[xi, y[i]] as const],
  );
  const n = rows.length;
  const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
  const xs = rows.map(([a]) => a);
  const ys = rows.map(([, b]) => b);
  const [mx, my] = [mean(xs), mean(ys)];
  const cov = rows.reduce((s, [a, b]) => s + (a - mx) * (b - my), 0);
  const vx = rows.reduce((s, [a]) => s + (a - mx) ** 2, 0);
  const vy = rows.reduce((s, [, b]) => s + (b - my) ** 2, 0);
  const bins = breakpoints.map((breakpoint, k) => {
    // Nearest breakpoint, a tie going to the higher one.
    const inBin = rows.filter(([a]) => {
      const distances = breakpoints.map((b) => Math.abs(a - b));
      const best = Math.min(...distances);
      return distances.lastIndexOf(best) === k;
    });
    const values = inBin.map(([, b]) => b);
    return {
      breakpoint,
      count: values.length,
      mean: values.length ? mean(values) : null,
      min: values.length ? Math.min(...values) : null,
      max: values.length ? Math.max(...values) : null,
    };
  });
  return {
    count: n,
    x: n ? { min: Math.min(...xs), max: Math.max(...xs) } : null,
    y: n ? { min: Math.min(...ys), max: Math.max(...ys) } : null,
    correlation: n >= 2 && vx > 0 && vy > 0 ? cov / Math.sqrt(vx * vy) : null,
    bins,
  };
}

const closeOrNull = (value: number | null) => (value === null ? null : expect.closeTo(value, 6));

describe("X–Y statistics", () => {
  it("counts, ranges and correlates the rows the mask keeps, gaps left out", () => {
    const x = [1000, 2000, 3000, NaN, 4000, 5000];
    const y = [2, 4, 6, 100, 8, -50];
    const stats = xyStatistics({ x, y, mask: new Uint8Array([1, 1, 1, 1, 1, 0]) });
    expect(stats).toMatchObject({ count: 4, x: { min: 1000, max: 4000 }, y: { min: 2, max: 8 }, bins: [] });
    expect(stats.correlation).toBeCloseTo(1, 12);
    expect(xyStatistics({ x: [1, 2, 3], y: [3, 2, 1] }).correlation).toBeCloseTo(-1, 12);
  });

  it("bins Y on a tune table's axis: each row to its nearest breakpoint, the ends open", () => {
    const stats = xyStatistics({ x: [500, 1400, 1600, 2500, 9000], y: [1, 2, 3, 4, 5] }, [1000, 2000, 3000]);
    expect(stats.bins).toEqual([
      { breakpoint: 1000, from: -Infinity, to: 1500, count: 2, mean: 1.5, min: 1, max: 2 },
      // 2,500 is halfway between 2,000 and 3,000: it goes up.
      { breakpoint: 2000, from: 1500, to: 2500, count: 1, mean: 3, min: 3, max: 3 },
      { breakpoint: 3000, from: 2500, to: Infinity, count: 2, mean: 4.5, min: 4, max: 5 },
    ]);
  });

  it("gives null where nothing is known: no rows, one row, a channel that does not vary", () => {
    expect(xyStatistics({ x: [NaN], y: [1] }, [0])).toEqual({
      count: 0,
      x: null,
      y: null,
      correlation: null,
      bins: [{ breakpoint: 0, from: -Infinity, to: Infinity, count: 0, mean: null, min: null, max: null }],
    });
    expect(xyStatistics({ x: [1, 2, 3], y: [5, 5, 5] }).correlation).toBeNull();
  });

  it("agrees with the plain computation on any rows, gaps and masks", () => {
    const value = fc.oneof(fc.integer({ min: -1000, max: 8000 }), fc.constant(Number.NaN));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(value, value, fc.integer({ min: 0, max: 1 })), { maxLength: 60 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 7000 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (rows, axis, masked) => {
          const breakpoints = [...axis].sort((a, b) => a - b);
          const x = rows.map(([a]) => a);
          const y = rows.map(([, b]) => b);
          const mask = masked ? rows.map(([, , m]) => m) : undefined;
          const stats = xyStatistics({ x, y, mask: mask && Uint8Array.from(mask) }, breakpoints);
          const expected = plain(x, y, mask, breakpoints);
          expect(stats).toMatchObject({ count: expected.count, x: expected.x, y: expected.y });
          expect(stats.correlation).toEqual(closeOrNull(expected.correlation));
          expect(
            stats.bins.map(({ breakpoint, count, mean, min, max }) => ({ breakpoint, count, mean, min, max })),
          ).toEqual(expected.bins.map((bin) => ({ ...bin, mean: closeOrNull(bin.mean) })));
        },
      ),
    );
  });

  it("refuses breakpoints that do not increase and channels of other lengths, naming them", () => {
    const bad = thrownBy(LogAnalysisError, () => xyStatistics({ x: [1], y: [1] }, [1000, 1000]));
    expect(bad.field).toBe("breakpoints");
    expect(bad.message).toBe("breakpoints must increase: breakpoints[1] (1000) is not above breakpoints[0] (1000)");
    expect(thrownBy(LogAnalysisError, () => xyStatistics({ x: [1], y: [1] }, [NaN])).message).toBe(
      "breakpoints[0] is NaN, not a number",
    );
    expect(thrownBy(LogAnalysisError, () => xyStatistics({ x: [1, 2], y: [1] })).message).toBe(
      "y has 1 values, expected 2 (one per row)",
    );
    expect(thrownBy(LogAnalysisError, () => xyStatistics({ x: [1], y: [1], mask: new Uint8Array(2) })).field).toBe(
      "mask",
    );
  });
});

describe("X–Y points to draw", () => {
  it("keeps each column's lowest and highest Y, in row order, within the points asked for", () => {
    // Four columns over X 0–8: [0, 2), [2, 4), [4, 6), [6, 8].
    const x = [0, 0.5, 1, 3, 3.5, 5, 7, 8, 8];
    const y = [5, 9, 1, 4, 4, 2, 0, 6, 7];
    expect([...xyPointsToDraw({ x, y }, 8)]).toEqual([1, 2, 3, 5, 6, 8]);
    // The mask leaves row 1 out, so row 0 is that column's highest.
    const mask = new Uint8Array([1, 0, 1, 1, 1, 1, 1, 1, 1]);
    expect([...xyPointsToDraw({ x, y, mask }, 8)]).toEqual([0, 2, 3, 5, 6, 8]);
  });

  it("never draws more than the points asked for, nor a row the plot would not show", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ noNaN: true })), {
          maxLength: 200,
        }),
        fc.integer({ min: 2, max: 50 }),
        (rows, maxPoints) => {
          const x = rows.map(([a]) => a);
          const y = rows.map(([, b]) => b);
          const drawn = [...xyPointsToDraw({ x, y }, maxPoints)];
          expect(drawn.length).toBeLessThanOrEqual(maxPoints);
          expect(drawn).toEqual([...new Set(drawn)].sort((a, b) => a - b));
          // The extremes of Y over all rows are always among the points drawn.
          if (rows.length) {
            expect(Math.max(...drawn.map((i) => y[i]))).toBe(Math.max(...y));
            expect(Math.min(...drawn.map((i) => y[i]))).toBe(Math.min(...y));
          }
        },
      ),
    );
  });

  it("refuses fewer than two points, naming maxPoints", () => {
    expect(thrownBy(LogAnalysisError, () => xyPointsToDraw({ x: [1], y: [1] }, 1)).field).toBe("maxPoints");
  });
});
