/**
 * X–Y statistics of two channels under a sample mask: ranges, Pearson correlation, a table of Y
 * per X bin on given breakpoints (a tune table's own axis, so the table reads as the log filled
 * it), and the points worth drawing when there are more than pixels. A row counts when the mask
 * keeps it and neither channel is a gap there.
 */
import { checkLength, LogAnalysisError } from "./analysis-error";
import { breakpointCells, checkBreakpoints } from "./breakpoint-cells";

export interface XyInput {
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  /** 1 keeps a row (a sample filter's mask); without one every row counts. */
  mask?: Uint8Array;
}

export interface ValueRange {
  min: number;
  max: number;
}

/** The rows nearest one breakpoint: from halfway to the breakpoint below to halfway to the one above. */
export interface XyBin {
  breakpoint: number;
  /** The end cells reach to ±Infinity: a table holds its edge values beyond its axis. */
  from: number;
  to: number;
  count: number;
  /** Of Y over the bin's rows; null when it has none. */
  mean: number | null;
  min: number | null;
  max: number | null;
}

export interface XyStatistics {
  count: number;
  x: ValueRange | null;
  y: ValueRange | null;
  /** Pearson's r; null under two rows or when either channel does not vary. */
  correlation: number | null;
  bins: XyBin[];
}

function checkInput({ x, y, mask }: XyInput): void {
  checkLength("y", y, x.length);
  if (mask) checkLength("mask", mask, x.length);
}

/** Count, ranges, correlation and (with breakpoints) Y per X bin of the rows kept. */
export function xyStatistics(input: XyInput, breakpoints: readonly number[] = []): XyStatistics {
  checkInput(input);
  if (breakpoints.length > 0) checkBreakpoints("breakpoints", breakpoints);
  const { x, y, mask } = input;
  const cells = breakpoints.length;
  const lookup = breakpointCells(breakpoints);
  const { midpoints } = lookup;
  const binCount = new Float64Array(cells);
  const binSum = new Float64Array(cells);
  const binMin = new Float64Array(cells).fill(Infinity);
  const binMax = new Float64Array(cells).fill(-Infinity);
  let count = 0;
  let [xMin, xMax, yMin, yMax] = [Infinity, -Infinity, Infinity, -Infinity];
  // Running means and co-moments (Welford): no sum of squares large enough to swamp the variance.
  let [meanX, meanY, sxx, syy, sxy] = [0, 0, 0, 0, 0];
  for (let i = 0; i < x.length; i++) {
    if (mask && !mask[i]) continue;
    const xi = x[i];
    const yi = y[i];
    if (Number.isNaN(xi) || Number.isNaN(yi)) continue;
    count++;
    if (xi < xMin) xMin = xi;
    if (xi > xMax) xMax = xi;
    if (yi < yMin) yMin = yi;
    if (yi > yMax) yMax = yi;
    const dx = xi - meanX;
    const dy = yi - meanY;
    meanX += dx / count;
    meanY += dy / count;
    sxx += dx * (xi - meanX);
    syy += dy * (yi - meanY);
    sxy += dx * (yi - meanY);
    if (cells > 0) {
      const k = lookup.cellOf(xi);
      binCount[k]++;
      binSum[k] += yi;
      if (yi < binMin[k]) binMin[k] = yi;
      if (yi > binMax[k]) binMax[k] = yi;
    }
  }
  return {
    count,
    x: count ? { min: xMin, max: xMax } : null,
    y: count ? { min: yMin, max: yMax } : null,
    correlation: count >= 2 && sxx > 0 && syy > 0 ? Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy))) : null,
    bins: breakpoints.map((breakpoint, k) => {
      const n = binCount[k];
      return {
        breakpoint,
        from: k === 0 ? -Infinity : midpoints[k - 1],
        to: k === cells - 1 ? Infinity : midpoints[k],
        count: n,
        mean: n ? binSum[k] / n : null,
        min: n ? binMin[k] : null,
        max: n ? binMax[k] : null,
      };
    }),
  };
}

/**
 * The rows to draw of an X–Y plot at most `maxPoints` points wide: the X range cut into
 * maxPoints / 2 columns, each keeping its lowest and highest Y, so no outlier a pixel column
 * would show is lost. Ascending row indices, so a colour channel is read at the same rows.
 */
export function xyPointsToDraw(input: XyInput, maxPoints: number): Uint32Array {
  checkInput(input);
  if (!Number.isInteger(maxPoints) || maxPoints < 2)
    throw new LogAnalysisError("maxPoints", `maxPoints must be a whole number of at least 2, got ${maxPoints}`);
  const { x, y, mask } = input;
  const kept = (i: number) => (mask === undefined || mask[i] !== 0) && !Number.isNaN(x[i]) && !Number.isNaN(y[i]);
  let [xMin, xMax] = [Infinity, -Infinity];
  for (let i = 0; i < x.length; i++) {
    if (!kept(i)) continue;
    if (x[i] < xMin) xMin = x[i];
    if (x[i] > xMax) xMax = x[i];
  }
  const columns = maxPoints >> 1;
  const lowAt = new Int32Array(columns).fill(-1);
  const highAt = new Int32Array(columns).fill(-1);
  const width = xMax - xMin;
  for (let i = 0; i < x.length; i++) {
    if (!kept(i)) continue;
    // Divided before scaling: a range as narrow as the smallest double has no finite reciprocal.
    const c = width > 0 ? Math.min(columns - 1, Math.floor(((x[i] - xMin) / width) * columns)) : 0;
    if (lowAt[c] < 0 || y[i] < y[lowAt[c]]) lowAt[c] = i;
    if (highAt[c] < 0 || y[i] > y[highAt[c]]) highAt[c] = i;
  }
  const rows = new Set<number>();
  for (let c = 0; c < columns; c++) {
    if (lowAt[c] >= 0) rows.add(lowAt[c]);
    if (highAt[c] >= 0) rows.add(highAt[c]);
  }
  return Uint32Array.from(rows).sort();
}
