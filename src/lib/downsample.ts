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
function visibleRange(time: ArrayLike<number>, t0: number, t1: number): [number, number] | undefined {
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
    if (!Number.isNaN(v)) this.push(t, v);
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

/** Growable list of sample indices; a gap sample's index marks a break, once per run of gaps. */
class Picks {
  indices: Uint32Array;
  length = 0;
  private lastIsGap = false;

  constructor(capacity: number) {
    this.indices = new Uint32Array(Math.max(4, capacity));
  }

  push(i: number, gap = false): void {
    if (gap && this.lastIsGap) return;
    if (this.length === this.indices.length) {
      const grown = new Uint32Array(this.length * 2);
      grown.set(this.indices);
      this.indices = grown;
    }
    this.indices[this.length++] = i;
    this.lastIsGap = gap;
  }

  result(): Uint32Array {
    return this.indices.subarray(0, this.length);
  }
}

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
  const indices = minMaxIndices(time, values, NaN, t0, t1, pixels);
  const out = { time: new Float64Array(indices.length), values: new Float32Array(indices.length) };
  indices.forEach((index, k) => {
    out.time[k] = time[index];
    out.values[k] = values[index];
  });
  return out;
}

/**
 * A column summarised per block of samples, so that views and statistics over millions of samples
 * read a block's summary instead of its samples. About 11 bytes per block of 64: 0.17 a sample.
 */
export interface SampleBlocks {
  size: number;
  /** Where in each block its lowest and highest value are; NO_SAMPLE when the block is all gaps. */
  minAt: Uint8Array;
  maxAt: Uint8Array;
  /** Samples of each block that are not gaps, and their sum. */
  count: Uint8Array;
  sum: Float64Array;
}

const NO_SAMPLE = 255;
const BLOCK_SIZE = 64;

export function blocksOf(values: ArrayLike<number>, gap = NaN, size = BLOCK_SIZE): SampleBlocks {
  if (!(size >= 1 && size < NO_SAMPLE)) throw new RangeError(`Block size must be 1 to ${NO_SAMPLE - 1}, got ${size}.`);
  const n = Math.ceil(values.length / size);
  const blocks: SampleBlocks = {
    size,
    minAt: new Uint8Array(n).fill(NO_SAMPLE),
    maxAt: new Uint8Array(n).fill(NO_SAMPLE),
    count: new Uint8Array(n),
    sum: new Float64Array(n),
  };
  for (let k = 0; k < n; k++) {
    const start = k * size;
    const end = Math.min(values.length, start + size);
    let minV = Infinity;
    let maxV = -Infinity;
    let count = 0;
    let sum = 0;
    for (let i = start; i < end; i++) {
      const v = values[i];
      if (Number.isNaN(v) || v === gap) continue;
      if (v < minV) {
        minV = v;
        blocks.minAt[k] = i - start;
      }
      if (v > maxV) {
        maxV = v;
        blocks.maxAt[k] = i - start;
      }
      count++;
      sum += v;
    }
    blocks.count[k] = count;
    blocks.sum[k] = sum;
  }
  return blocks;
}

/**
 * minMaxPerPixel on any increasing coding of time and values (integer codes of a log's columns,
 * see domain/logs/column-codes.ts): the indices of the samples it keeps. `gap` is the code
 * of a missing value besides NaN; t0 and t1 are in time's coding. With the column's `blocks`, a
 * view of many samples per pixel reads whole blocks' extremes (each block falls in the pixel
 * column its first sample does, so a column's edge may move by less than a block).
 */
export function minMaxIndices(
  time: ArrayLike<number>,
  values: ArrayLike<number>,
  gap: number,
  t0: number,
  t1: number,
  pixels: number,
  blocks?: SampleBlocks,
): Uint32Array {
  const range = visibleRange(time, t0, t1);
  const columns = Math.floor(pixels);
  if (!range || columns < 1) return new Uint32Array(0);
  const [i0, i1] = range;
  const isGap = (v: number) => Number.isNaN(v) || v === gap;
  if (i1 - i0 + 1 <= 4 * columns) {
    const all = new Picks(i1 - i0 + 1);
    for (let i = i0; i <= i1; i++) all.push(i, isGap(values[i]));
    return all.result();
  }
  if (blocks && i1 - i0 >= 4 * blocks.size * columns)
    return minMaxByBlocks(time, values, gap, blocks, i0, i1, t0, t1, columns);

  const out = new Picks(2 * columns + 4);
  out.push(i0, isGap(values[i0]));
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
      if (Number.isNaN(v) || v === gap) {
        flushMinMax(out, minI, maxI);
        minI = maxI = -1;
        minV = Infinity;
        maxV = -Infinity;
        out.push(j, true);
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
    flushMinMax(out, minI, maxI);
  }
  out.push(i1, isGap(values[i1]));
  return out.result();
}

function minMaxByBlocks(
  time: ArrayLike<number>,
  values: ArrayLike<number>,
  gap: number,
  blocks: SampleBlocks,
  i0: number,
  i1: number,
  t0: number,
  t1: number,
  columns: number,
): Uint32Array {
  const out = new Picks(2 * columns + 4);
  out.push(i0, Number.isNaN(values[i0]) || values[i0] === gap);
  const width = (t1 - t0) / columns;
  let bucket = -1;
  let minI = -1;
  let maxI = -1;
  let minV = Infinity;
  let maxV = -Infinity;
  const reset = () => {
    flushMinMax(out, minI, maxI);
    minI = maxI = -1;
    minV = Infinity;
    maxV = -Infinity;
  };
  const enter = (i: number) => {
    const b = Math.min(columns - 1, Math.max(0, Math.floor((time[i] - t0) / width)));
    if (b === bucket) return;
    reset();
    bucket = b;
  };
  const take = (i: number) => {
    const v = values[i];
    if (Number.isNaN(v) || v === gap) {
      reset();
      out.push(i, true);
      return;
    }
    if (v < minV) {
      minV = v;
      minI = i;
    }
    if (v > maxV) {
      maxV = v;
      maxI = i;
    }
  };
  const size = blocks.size;
  let j = i0 + 1;
  // Samples before the first whole block, whole blocks (sample by sample when they hold gaps), the rest.
  for (const end = Math.min(i1, Math.ceil(j / size) * size); j < end; j++) {
    enter(j);
    take(j);
  }
  for (let k = j / size; (k + 1) * size <= i1; k++, j += size) {
    enter(j);
    if (blocks.count[k] < size) {
      for (let i = j; i < j + size; i++) take(i);
      continue;
    }
    const [low, high] = [j + blocks.minAt[k], j + blocks.maxAt[k]];
    if (values[low] < minV) {
      minV = values[low];
      minI = low;
    }
    if (values[high] > maxV) {
      maxV = values[high];
      maxI = high;
    }
  }
  for (; j < i1; j++) {
    enter(j);
    take(j);
  }
  reset();
  out.push(i1, Number.isNaN(values[i1]) || values[i1] === gap);
  return out.result();
}

function flushMinMax(out: Picks, minI: number, maxI: number): void {
  if (minI < 0) return;
  out.push(Math.min(minI, maxI));
  if (minI !== maxI) out.push(Math.max(minI, maxI));
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
    if (Number.isNaN(values[i])) {
      i++;
      continue;
    }
    const start = i;
    while (i <= i1 && !Number.isNaN(values[i])) i++;
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

/**
 * Min, max and mean of `values[i0..i1)` (half-open, clamped), ignoring gaps (NaN, or the `gap`
 * code); whole blocks are read from the column's `blocks` when given.
 */
export function rangeStats(
  values: ArrayLike<number>,
  i0: number,
  i1: number,
  gap = NaN,
  blocks?: SampleBlocks,
): RangeStats {
  const from = Math.max(0, Math.floor(i0));
  const to = Math.min(values.length, Math.floor(i1));
  const size = blocks?.size ?? 1;
  const [first, last] = [Math.ceil(from / size), Math.floor(to / size)];
  if (!blocks || last <= first) return finish(sampleStats(values, gap, from, to));
  const head = sampleStats(values, gap, from, first * size);
  const tail = sampleStats(values, gap, last * size, to);
  let { min, max, sum, count } = head;
  for (let k = first; k < last; k++) {
    if (blocks.count[k] === 0) continue;
    const low = values[k * size + blocks.minAt[k]];
    const high = values[k * size + blocks.maxAt[k]];
    if (low < min) min = low;
    if (high > max) max = high;
    sum += blocks.sum[k];
    count += blocks.count[k];
  }
  return finish({
    min: Math.min(min, tail.min),
    max: Math.max(max, tail.max),
    sum: sum + tail.sum,
    count: count + tail.count,
  });
}

/** Sums and extremes of values[from..to), gaps left out. */
function sampleStats(
  values: ArrayLike<number>,
  gap: number,
  from: number,
  to: number,
): { min: number; max: number; sum: number; count: number } {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let count = 0;
  for (let i = from; i < to; i++) {
    const v = values[i];
    if (Number.isNaN(v) || v === gap) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    count++;
  }
  return { min, max, sum, count };
}

function finish({ min, max, sum, count }: { min: number; max: number; sum: number; count: number }): RangeStats {
  if (count === 0) return { min: NaN, max: NaN, mean: NaN, count };
  return { min, max, mean: sum / count, count };
}
