/** Small signal helpers over a log's columns: smoothing, rates and the sample interval. */

/** Centred moving average over `half` samples each side; NaN samples are left out of the mean. */
export function smooth(values: ArrayLike<number>, half: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  let sum = 0;
  let count = 0;
  for (let j = 0; j < Math.min(half, n); j++) {
    const v = values[j];
    if (!Number.isNaN(v)) {
      sum += v;
      count++;
    }
  }
  // The window [i - half, i + half] gains one sample at its front and loses one at its back.
  for (let i = 0; i < n; i++) {
    if (i + half < n) {
      const v = values[i + half];
      if (!Number.isNaN(v)) {
        sum += v;
        count++;
      }
    }
    if (i - half - 1 >= 0) {
      const v = values[i - half - 1];
      if (!Number.isNaN(v)) {
        sum -= v;
        count--;
      }
    }
    out[i] = count ? sum / count : NaN;
  }
  return out;
}

/** dv/dt at sample i by central differences (one-sided at the ends); NaN where no time passes. */
export function derivativeAt(time: ArrayLike<number>, values: ArrayLike<number>, i: number): number {
  const a = i > 0 ? i - 1 : 0;
  const b = i < values.length - 1 ? i + 1 : values.length - 1;
  const dt = time[b] - time[a];
  return dt > 0 ? (values[b] - values[a]) / dt : NaN;
}

/** dv/dt at every sample (derivativeAt). */
export function derivative(time: ArrayLike<number>, values: ArrayLike<number>): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = derivativeAt(time, values, i);
  return out;
}

/** Samples per `seconds` at the log's median sample interval (at least 1), read from its first thousand steps. */
export function samplesIn(time: ArrayLike<number>, seconds: number): number {
  const n = Math.min(time.length, 1001);
  if (n < 2) return 1;
  const steps: number[] = [];
  for (let i = 1; i < n; i++) steps.push(time[i] - time[i - 1]);
  steps.sort((x, y) => x - y);
  const median = steps[steps.length >> 1];
  return median > 0 ? Math.max(1, Math.round(seconds / median)) : 1;
}
