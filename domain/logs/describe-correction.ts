/**
 * A proposed map correction in plain words, one phrase per region: adjacent changed cells with
 * the same sign of change grouped, each told by its mean change and the axis ranges it covers,
 * e.g. "fuel +3 % at 4,000–5,500 rpm, 1.6–2 bar: ran lean of target".
 */
import type { MapCorrection, MapOnAxes } from "./map-corrections";

export interface CorrectionWording {
  /** What the map holds: "fuel", "boost", "timing". */
  label: string;
  /** The change's unit; "%" tells a fuel change as a percentage of each cell's value. */
  unit: string;
  xUnit: string;
  yUnit?: string;
}

const number = (v: number) => v.toLocaleString("en", { maximumFractionDigits: 2 });
const range = (values: number[], unit: string) => {
  const [low, high] = [Math.min(...values), Math.max(...values)];
  return `${low === high ? number(low) : `${number(low)}–${number(high)}`} ${unit}`;
};

/** Regions of 4-connected changed cells whose changes share a sign, each a list of cell indices. */
function regions(correction: MapCorrection, cols: number): number[][] {
  const { cells } = correction;
  const rows = cells.length / cols;
  const seen = new Uint8Array(cells.length);
  const found: number[][] = [];
  for (let start = 0; start < cells.length; start++) {
    const first = cells[start];
    if (!first || seen[start]) continue;
    const up = first.change > 0;
    const region: number[] = [];
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const k = stack.pop() as number;
      region.push(k);
      const [r, c] = [Math.floor(k / cols), k % cols];
      for (const [nr, nc] of [
        [r - 1, c],
        [r + 1, c],
        [r, c - 1],
        [r, c + 1],
      ]) {
        if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) continue;
        const n = nr * cols + nc;
        const cell = cells[n];
        if (seen[n] || !cell || cell.change > 0 !== up) continue;
        seen[n] = 1;
        stack.push(n);
      }
    }
    found.push(region.sort((a, b) => a - b));
  }
  return found;
}

/** One phrase per region of changed cells, in map order; none when nothing changes. */
export function describeCorrection(correction: MapCorrection, map: MapOnAxes, wording: CorrectionWording): string[] {
  const cols = map.xBreakpoints.length;
  return regions(correction, cols).map((region) => {
    const cells = region.map((k) => correction.cells[k]!);
    const changes = cells.map((c) => (wording.unit === "%" ? (c.change / c.before) * 100 : c.change));
    const mean = changes.reduce((s, v) => s + v, 0) / changes.length;
    const where = [
      map.yBreakpoints && wording.yUnit
        ? range(
            region.map((k) => (map.yBreakpoints as readonly number[])[Math.floor(k / cols)]),
            wording.yUnit,
          )
        : null,
      range(
        region.map((k) => map.xBreakpoints[k % cols]),
        wording.xUnit,
      ),
    ].filter((part) => part !== null);
    const sign = mean > 0 ? "+" : "";
    return `${wording.label} ${sign}${number(mean)} ${wording.unit} at ${where.join(", ")}: ${cells[0].reason}`;
  });
}
