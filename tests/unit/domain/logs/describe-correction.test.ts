import { describe, expect, it } from "vitest";
import { describeCorrection } from "../../../../domain/logs/describe-correction";
import { fuelCorrection } from "../../../../domain/logs/map-corrections";

/** A grid of samples: `perCell` rows at every (x, y) breakpoint pair. */
function grid(xs: number[], ys: number[], perCell: number) {
  const x: number[] = [];
  const y: number[] = [];
  for (const yv of ys) for (const xv of xs) for (let k = 0; k < perCell; k++) x.push(xv), y.push(yv);
  return { x, y };
}

describe("describeCorrection", () => {
  it("tells each region of same-sign changes by its mean change and axis ranges, rows' axis first", () => {
    const xs = [1000, 2000, 3000, 4000];
    const ys = [0.5, 1, 1.5];
    const { x, y } = grid(xs, ys, 10);
    const measured = x.map((xv, i) =>
      xv >= 3000 && y[i] >= 1 ? 0.85 * 1.05 : xv === 1000 && y[i] === 0.5 ? 0.85 * 0.97 : 0.85,
    );
    const map = { xBreakpoints: xs, yBreakpoints: ys, values: xs.flatMap(() => ys).map(() => 40) };
    const proposal = fuelCorrection({ x, y, measured, target: x.map(() => 0.85) }, map, {
      minSamples: 5,
      maxChangePerCell: { percent: 10 },
    });
    expect(describeCorrection(proposal, map, { label: "fuel", unit: "%", xUnit: "rpm", yUnit: "bar" })).toEqual([
      "fuel -3 % at 0.5 bar, 1,000 rpm: ran rich of target",
      "fuel +5 % at 1–1.5 bar, 3,000–4,000 rpm: ran lean of target",
    ]);
  });
});
