import { describe, expect, it } from "vitest";
import { parseLog } from "../../../../domain/logs";
import { LogAnalysisError } from "../../../../domain/logs/analysis-error";
import { boostCorrection, fuelCorrection, timingCorrection } from "../../../../domain/logs/map-corrections";
import { readItem } from "../../../../domain/tune/maps";
import { generateDemo } from "../../../../server/seed/generator";
import { DEMO_TUNE_OPTIONS } from "../../../../server/seed/tunes";
import { demoCar, pullLog } from "../../../../server/seed/virtual-car/phone-app";
import { thrownBy } from "../../support/thrown";

const BAR_IN_PSI = 14.5038;

/** A grid of samples: `perCell` rows at every (x, y) breakpoint pair. */
function grid(xs: number[], ys: number[], perCell: number) {
  const x: number[] = [];
  const y: number[] = [];
  for (const yv of ys) for (const xv of xs) for (let k = 0; k < perCell; k++) x.push(xv), y.push(yv);
  return { x, y };
}

describe("boostCorrection", () => {
  it("virtual car: boost 0.2 bar under target above 4,000 rpm is recovered on boost_target, only in cells the pull visited", () => {
    const demo = generateDemo(DEMO_TUNE_OPTIONS);
    const item = demo.firmware.definition.items.find((i) => i.id === "boost_target")!;
    const car = demoCar();
    const map = readItem(car.memory, item);
    const log = parseLog(new TextEncoder().encode(pullLog(car)));
    const column = (id: string) => Array.from(log.columns[log.channels.findIndex((c) => c.id === id)]);
    const rpm = column("engine-speed");
    const target = column("boost-target");
    const actual = column("boost").map((b, i) => (rpm[i] > 4000 ? b - 0.2 * BAR_IN_PSI : b));
    const loads = (map.x as { values: number[] }).values;
    const rpms = (map.y as { labels: string[] }).labels.map(Number);
    // The virtual car's pull runs at full load, the map's last column, as pullLog reads it.
    const load = rpm.map(() => loads[loads.length - 1]);
    // The filter keeps the spooled part: below 3,000 rpm the turbo is still catching up.
    const mask = Uint8Array.from(rpm, (r) => (r >= 3000 ? 1 : 0));
    const proposal = boostCorrection(
      { x: load, y: rpm, mask, actual, target },
      { xBreakpoints: loads, yBreakpoints: rpms, values: map.values },
      { minSamples: 5, maxChangePerCell: { absolute: 5 }, step: 0.01933677 },
    );
    const cols = loads.length;
    const change = (row: number) => proposal.cells[row * cols + cols - 1]?.change ?? 0;
    // Tolerance 0.2 psi: the log's ripple (±0.15 psi) averaged over a cell, plus the map's resolution.
    for (const rpmRow of [5000, 6000])
      expect(Math.abs(change(rpms.indexOf(rpmRow)) - 0.2 * BAR_IN_PSI)).toBeLessThan(0.2);
    // The 4,000 rpm cell reaches from 3,500 to 4,500 rpm: half of it ran short.
    expect(Math.abs(change(rpms.indexOf(4000)) - 0.1 * BAR_IN_PSI)).toBeLessThan(0.3);
    expect(Math.abs(change(rpms.indexOf(3000)))).toBeLessThan(0.2);
    proposal.cells.forEach((cell, k) => {
      const [r, c] = [Math.floor(k / cols), k % cols];
      const visited = c === cols - 1 && rpms[r] >= 3000 && rpms[r] <= 6000;
      if (!visited) expect(cell, `cell [${r}][${c}]`).toBeNull();
      else if (cell) expect(proposal.after[k]).toBe(cell.after);
    });
    expect(proposal.cells[rpms.indexOf(5000) * cols + cols - 1]?.reason).toBe("boost ran under target");
  });
});

describe("fuelCorrection", () => {
  it("adds 5 % fuel where the log ran 5 % lean of target, and nothing elsewhere", () => {
    const xs = [1000, 2000, 3000, 4000];
    const ys = [0.5, 1, 1.5];
    const { x, y } = grid(xs, ys, 10);
    const lean = (i: number) => x[i] >= 3000 && y[i] >= 1;
    const target = x.map(() => 0.85);
    const measured = x.map((_, i) => (lean(i) ? 0.85 * 1.05 : 0.85));
    const values = xs.flatMap(() => ys).map(() => 40);
    const proposal = fuelCorrection(
      { x, y, measured, target },
      { xBreakpoints: xs, yBreakpoints: ys, values },
      { minSamples: 5, maxChangePerCell: { percent: 10 } },
    );
    const changed = proposal.cells.flatMap((cell, k) => (cell ? [k] : []));
    expect(changed).toEqual([6, 7, 10, 11]);
    for (const k of changed) expect(proposal.cells[k]!.change).toBeCloseTo(2, 9);
    expect(proposal.cells[6]!.reason).toBe("ran lean of target");
  });

  it("reads an AFR against the stoichiometric ratio, and limits each cell to its percentage", () => {
    const proposal = fuelCorrection(
      { x: [1, 1, 1], measured: [14.7 * 1.2, 14.7 * 1.2, 14.7 * 1.2], target: [1, 1, 1], stoichiometric: 14.7 },
      { xBreakpoints: [1], values: [50] },
      { minSamples: 3, maxChangePerCell: { percent: 10 }, step: 0.5 },
    );
    expect(proposal.after).toEqual([55]);
  });

  it("keeps cells with fewer samples than asked, and smooths a change against its neighbours that have one", () => {
    const rows = { x: [1, 1, 2, 2, 3], measured: [1.1, 1.1, 1.0, 1.0, 1.3], target: [1, 1, 1, 1, 1] };
    const proposal = fuelCorrection(
      rows,
      { xBreakpoints: [1, 2, 3], values: [100, 100, 100] },
      { minSamples: 2, maxChangePerCell: { percent: 50 }, smoothing: 0.5 },
    );
    // Cell 3 has one sample: unchanged, and no neighbour to the others. Cell 1: half its 10, half cell 2's 0.
    expect(proposal.cells[2]).toBeNull();
    expect(proposal.cells[0]!.change).toBeCloseTo(5, 9);
    expect(proposal.cells[1]!.change).toBeCloseTo(5, 9);
  });

  it("refuses a map whose values do not fill its axes, naming it", () => {
    const bad = thrownBy(LogAnalysisError, () =>
      fuelCorrection(
        { x: [1], measured: [1], target: [1] },
        { xBreakpoints: [1, 2], values: [1] },
        { minSamples: 1, maxChangePerCell: { percent: 5 } },
      ),
    );
    expect(bad.field).toBe("values");
  });
});

describe("timingCorrection", () => {
  it("removes the retard from the two cells where cylinders pulled timing beyond the threshold", () => {
    const xs = [2000, 3000, 4000];
    const ys = [50, 100];
    const { x, y } = grid(xs, ys, 8);
    const correction = x.map((xv, i) =>
      y[i] === 100 && xv >= 3000 ? (xv === 3000 ? -2 : -3) : xv === 2000 ? -0.5 : 0,
    );
    const values = [10, 12, 14, 20, 22, 24];
    for (const statistic of ["mean", "worst"] as const) {
      const proposal = timingCorrection(
        { x, y, correction, statistic, threshold: 1 },
        { xBreakpoints: xs, yBreakpoints: ys, values },
        { minSamples: 4, maxChangePerCell: { absolute: 5 }, step: 0.5 },
      );
      expect(proposal.after).toEqual([10, 12, 14, 20, 20, 21]);
      expect(proposal.cells.map((c) => c?.change ?? null)).toEqual([null, null, null, null, -2, -3]);
    }
  });
});
