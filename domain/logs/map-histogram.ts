/**
 * A channel binned on a tune map's own axes: per cell the mean, minimum, maximum and count of Z
 * over the rows whose X (and Y) fall in it, by the same nearest-breakpoint rule as the X–Y table.
 * Cells are laid out as a tune map's values are: row-major, rows along Y, columns along X, so
 * cell [r][c] sits beside map value r * xBreakpoints.length + c. Without Y there is one row.
 * A row counts when the mask keeps it and none of its channels is a gap.
 */
import { checkLength, LogAnalysisError } from "./analysis-error";
import { breakpointCells, checkBreakpoints } from "./breakpoint-cells";

export interface MapHistogramInput {
  x: ArrayLike<number>;
  y?: ArrayLike<number>;
  z: ArrayLike<number>;
  /** 1 keeps a row (a sample filter's mask); without one every row counts. */
  mask?: Uint8Array;
}

export interface MapHistogramOptions {
  /** Ascending or descending, as tune axes can be; strictly monotonic. */
  xBreakpoints: readonly number[];
  yBreakpoints?: readonly number[];
  /** Cells with fewer rows than this are marked not `enough`. */
  minSamples: number;
}

export interface MapHistogramCell {
  count: number;
  /** Of Z over the cell's rows; null when it has none. */
  mean: number | null;
  min: number | null;
  max: number | null;
  /** Whether the cell holds at least `minSamples` rows. */
  enough: boolean;
}

export interface MapHistogram {
  /** Rows kept in all. */
  count: number;
  /** cells[row along Y][column along X]. */
  cells: MapHistogramCell[][];
}

function checkInput({ x, y, z, mask }: MapHistogramInput, { yBreakpoints, minSamples }: MapHistogramOptions): void {
  checkLength("z", z, x.length);
  if (y) checkLength("y", y, x.length);
  if (mask) checkLength("mask", mask, x.length);
  if ((y === undefined) !== (yBreakpoints === undefined))
    throw new LogAnalysisError(
      y ? "yBreakpoints" : "y",
      y ? "yBreakpoints are needed to bin on y" : "y is needed to bin on yBreakpoints",
    );
  if (!Number.isInteger(minSamples) || minSamples < 0)
    throw new LogAnalysisError("minSamples", `minSamples must be a whole number of at least 0, got ${minSamples}`);
}

/** Bins Z on the X (and Y) breakpoints. */
export function mapHistogram(input: MapHistogramInput, options: MapHistogramOptions): MapHistogram {
  checkInput(input, options);
  const { xBreakpoints, yBreakpoints = [0], minSamples } = options;
  checkBreakpoints("xBreakpoints", xBreakpoints, true);
  if (options.yBreakpoints) checkBreakpoints("yBreakpoints", yBreakpoints, true);
  const { x, y, z, mask } = input;
  const cols = xBreakpoints.length;
  const rows = yBreakpoints.length;
  const xCells = breakpointCells(xBreakpoints);
  const yCells = breakpointCells(yBreakpoints);
  const count = new Float64Array(rows * cols);
  const sum = new Float64Array(rows * cols);
  const min = new Float64Array(rows * cols).fill(Infinity);
  const max = new Float64Array(rows * cols).fill(-Infinity);
  let total = 0;
  for (let i = 0; i < x.length; i++) {
    if (mask && !mask[i]) continue;
    const xi = x[i];
    const zi = z[i];
    if (Number.isNaN(xi) || Number.isNaN(zi)) continue;
    let r = 0;
    if (y) {
      const yi = y[i];
      if (Number.isNaN(yi)) continue;
      r = yCells.cellOf(yi);
    }
    const k = r * cols + xCells.cellOf(xi);
    total++;
    count[k]++;
    sum[k] += zi;
    if (zi < min[k]) min[k] = zi;
    if (zi > max[k]) max[k] = zi;
  }
  const cells = Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c) => {
      const k = r * cols + c;
      const n = count[k];
      return {
        count: n,
        mean: n ? sum[k] / n : null,
        min: n ? min[k] : null,
        max: n ? max[k] : null,
        enough: n >= minSamples,
      };
    }),
  );
  return { count: total, cells };
}
