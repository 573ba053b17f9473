/**
 * Per-view downsampling for log charts. Framework-free so it runs in a Web Worker: the chart asks
 * for the points of the visible time range at the width it draws, whatever the log's length.
 *
 * Both reducers return the points inside [t0, t1] plus the nearest sample either side, so lines
 * reach the plot edges. A NaN sample is a gap: it is kept (as one NaN point per run of NaNs) so
 * the chart breaks the line there instead of bridging it.
 */

export interface SeriesPoints {
  time: Float64Array;
  values: Float32Array;
}

export interface RangeStats {
  min: number;
  max: number;
  mean: number;
  /** Samples that were numbers; min, max and mean are NaN when it is 0. */
  count: number;
}

/**
 * Index of the last sample at or before `t` in ascending `time`, clamped to the array
 * (0 when `t` is before the first sample); -1 for an empty array.
 */
export function indexAtTime(time: ArrayLike<number>, t: number): number {
  const n = time.length;
  if (n === 0) return -1;
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? 0 : lo - 1;
}

/** Inclusive indices of the visible samples plus one either side; undefined when there are none. */
function visibleRange(time: Float64Array, t0: number, t1: number): [number, number] | undefined {
  const n = time.length;
  if (n === 0 || !(t1 >= t0)) return undefined;
  const i0 = indexAtTime(time, t0);
  let i1 = indexAtTime(time, t1);
  if (time[i1] < t1 && i1 < n - 1) i1++;
  return [i0, i1];
}

/** Growable pair of typed arrays; reducers emit a few thousand points, so growth is rare. */
class Points {
  time: Float64Array;
  values: Float32Array;
  length = 0;

  constructor(capacity: number) {
    this.time = new Float64Array(Math.max(4, capacity));
    this.values = new Float32Array(Math.max(4, capacity));
  }

  push(t: number, v: number): void {
    if (this.length === this.time.length) {
      const time = new Float64Array(this.length * 2);
      const values = new Float32Array(this.length * 2);
      time.set(this.time);
      values.set(this.values);
      this.time = time;
      this.values = values;
    }
    this.time[this.length] = t;
    this.values[this.length] = v;
    this.length++;
  }

  /** A NaN point marks a break; consecutive ones say nothing more. */
  pushGap(t: number): void {
    if (this.length > 0 && Number.isNaN(this.values[this.length - 1])) return;
    this.push(t, NaN);
  }

  add(t: number, v: number): void {
    if (v === v) this.push(t, v);
    else this.pushGap(t);
  }

  result(): SeriesPoints {
    return { time: this.time.subarray(0, this.length), values: this.values.subarray(0, this.length) };
  }
}

function copyRange(time: Float64Array, values: Float32Array, i0: number, i1: number): SeriesPoints {
  return { time: time.slice(i0, i1 + 1), values: values.slice(i0, i1 + 1) };
}

const EMPTY = (): SeriesPoints => ({ time: new Float64Array(0), values: new Float32Array(0) });

/**
 * Min/max per pixel column: for each column the lowest and highest sample, in time order, so
 * every spike survives at any zoom. About 2 points per pixel (plus one per gap).
 */
export function minMaxPerPixel(
  time: Float64Array,
  values: Float32Array,
  t0: number,
  t1: number,
  pixels: number,
): SeriesPoints {
  const range = visibleRange(time, t0, t1);
  const columns = Math.floor(pixels);
  if (!range || columns < 1) return EMPTY();
  const [i0, i1] = range;
  if (i1 - i0 + 1 <= 4 * columns) return copyRange(time, values, i0, i1);

  const out = new Points(2 * columns + 4);
  out.add(time[i0], values[i0]);
  const width = (t1 - t0) / columns;
  let j = i0 + 1;
  for (let b = 0; b < columns && j < i1; b++) {
    const edge = b === columns - 1 ? Infinity : t0 + (b + 1) * width;
    let minI = -1;
    let maxI = -1;
    let minV = Infinity;
    let maxV = -Infinity;
    for (; j < i1 && time[j] < edge; j++) {
      const v = values[j];
      if (v !== v) {
        flushMinMax(out, time, values, minI, maxI);
        minI = maxI = -1;
        minV = Infinity;
        maxV = -Infinity;
        out.pushGap(time[j]);
        continue;
      }
      if (v < minV) {
        minV = v;
        minI = j;
      }
      if (v > maxV) {
        maxV = v;
        maxI = j;
      }
    }
    flushMinMax(out, time, values, minI, maxI);
  }
  out.add(time[i1], values[i1]);
  return out.result();
}

function flushMinMax(out: Points, time: Float64Array, values: Float32Array, minI: number, maxI: number): void {
  if (minI < 0) return;
  const first = minI < maxI ? minI : maxI;
  const second = minI < maxI ? maxI : minI;
  out.push(time[first], values[first]);
  if (second !== first) out.push(time[second], values[second]);
}

/**
 * Largest-Triangle-Three-Buckets: `threshold` points that keep the line's shape, the first and
 * last of the range included. Gaps split the range into runs that are reduced separately, each
 * with its share of `threshold` (at least its two ends), so a gapped series may return up to two
 * extra points per run.
 */
export function lttb(
  time: Float64Array,
  values: Float32Array,
  t0: number,
  t1: number,
  threshold: number,
): SeriesPoints {
  const range = visibleRange(time, t0, t1);
  const target = Math.floor(threshold);
  if (!range) return EMPTY();
  const [i0, i1] = range;
  if (target >= i1 - i0 + 1) return copyRange(time, values, i0, i1);
  if (target < 3) {
    // Fewer than three points leave no triangles to choose by: keep the ends.
    const out = new Points(2);
    out.add(time[i0], values[i0]);
    out.add(time[i1], values[i1]);
    return out.result();
  }

  const runs: [number, number][] = [];
  let valid = 0;
  for (let i = i0; i <= i1; ) {
    if (values[i] !== values[i]) {
      i++;
      continue;
    }
    const start = i;
    while (i <= i1 && values[i] === values[i]) i++;
    runs.push([start, i - 1]);
    valid += i - start;
  }

  const out = new Points(target + 2 * runs.length);
  if (runs.length === 0 || runs[0][0] > i0) out.pushGap(time[i0]);
  runs.forEach(([a, b], r) => {
    const share = Math.max(2, Math.floor((target * (b - a + 1)) / valid));
    lttbRun(out, time, values, a, b, share);
    if (r < runs.length - 1 || b < i1) out.pushGap(time[b + 1]);
  });
  return out.result();
}

/** Classic LTTB over the NaN-free run [a, b] into `k` points. */
function lttbRun(out: Points, time: Float64Array, values: Float32Array, a: number, b: number, k: number): void {
  const n = b - a + 1;
  if (k >= n || n <= 2) {
    for (let i = a; i <= b; i++) out.push(time[i], values[i]);
    return;
  }
  const every = (n - 2) / (k - 2);
  let prev = a;
  out.push(time[a], values[a]);
  for (let bucket = 0; bucket < k - 2; bucket++) {
    const start = a + 1 + Math.floor(bucket * every);
    const end = a + 1 + Math.floor((bucket + 1) * every);
    // The next bucket's average is the third corner (the last point for the last bucket);
    // k < n makes every bucket at least one sample wide.
    const nextEnd = Math.min(b + 1, a + 1 + Math.floor((bucket + 2) * every));
    let avgT = 0;
    let avgV = 0;
    for (let i = end; i < nextEnd; i++) {
      avgT += time[i];
      avgV += values[i];
    }
    avgT /= nextEnd - end;
    avgV /= nextEnd - end;
    // Twice the triangle's area, |dx·v + dy·t − c|, with the corners' terms hoisted out of the loop.
    const pt = time[prev];
    const pv = values[prev];
    const dx = pt - avgT;
    const dy = avgV - pv;
    const c = dx * pv + dy * pt;
    let best = start;
    let bestArea = -1;
    for (let i = start; i < end; i++) {
      let area = dx * values[i] + dy * time[i] - c;
      if (area < 0) area = -area;
      if (area > bestArea) {
        bestArea = area;
        best = i;
      }
    }
    out.push(time[best], values[best]);
    prev = best;
  }
  out.push(time[b], values[b]);
}

/** Min, max and mean of `values[i0..i1)` (half-open, clamped), ignoring NaN gaps. */
export function rangeStats(values: ArrayLike<number>, i0: number, i1: number): RangeStats {
  const from = Math.max(0, Math.floor(i0));
  const to = Math.min(values.length, Math.floor(i1));
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let count = 0;
  for (let i = from; i < to; i++) {
    const v = values[i];
    if (v !== v) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    count++;
  }
  if (count === 0) return { min: NaN, max: NaN, mean: NaN, count };
  return { min, max, mean: sum / count, count };
}
