/**
 * The cell rule shared by every table a log fills on a tune axis: a value belongs to its nearest
 * breakpoint (halfway goes to the later one), and the end cells reach to ±Infinity, as a tune
 * table holds its edge values beyond its axis.
 */
import { LogAnalysisError } from "./analysis-error";

/** Finds a value's cell by bisection of the midpoints, so a lookup allocates nothing. */
export interface BreakpointCells {
  readonly breakpoints: readonly number[];
  /** Midpoints between neighbouring breakpoints, in axis order. */
  readonly midpoints: Float64Array;
  /** The index of the breakpoint nearest `value`. */
  cellOf(value: number): number;
}

/**
 * Throws naming `field` unless `breakpoints` are finite and strictly monotonic: increasing, or
 * decreasing too when `descending` is allowed (some tune axes run from high to low).
 */
export function checkBreakpoints(field: string, breakpoints: readonly number[], descending = false): void {
  if (breakpoints.length === 0) throw new LogAnalysisError(field, `${field} must hold at least one value`);
  const down = descending && breakpoints.length > 1 && breakpoints[1] < breakpoints[0];
  breakpoints.forEach((b, k) => {
    if (!Number.isFinite(b)) throw new LogAnalysisError(field, `${field}[${k}] is ${b}, not a number`);
    if (k === 0) return;
    const prev = breakpoints[k - 1];
    if (down ? !(b < prev) : !(b > prev)) {
      const must = descending ? "must increase or decrease throughout" : "must increase";
      const relation = down ? "below" : "above";
      throw new LogAnalysisError(
        field,
        `${field} ${must}: ${field}[${k}] (${b}) is not ${relation} ${field}[${k - 1}] (${prev})`,
      );
    }
  });
}

/** The cell lookup of already checked breakpoints, ascending or descending. */
export function breakpointCells(breakpoints: readonly number[]): BreakpointCells {
  const n = breakpoints.length;
  const down = n > 1 && breakpoints[1] < breakpoints[0];
  const midpoints = new Float64Array(Math.max(0, n - 1));
  for (let k = 0; k + 1 < n; k++) midpoints[k] = (breakpoints[k] + breakpoints[k + 1]) / 2;
  // A descending axis is searched as its negation, which ascends: the same bisection serves both.
  const keys = down ? midpoints.map((m) => -m) : midpoints;
  const sign = down ? -1 : 1;
  return {
    breakpoints,
    midpoints,
    cellOf(value: number): number {
      const v = sign * value;
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (v >= keys[mid]) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    },
  };
}
