/** Small signal helpers over a log's columns: smoothing, rates and the sample interval. */

/** Centred moving average over `half` samples each side; NaN samples are left out of the mean. */
export function smooth(values: ArrayLike<number>, half: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  let sum = 0;
  let count = 0;
  let lo = 0;
  let hi = -1;
  for (let i = 0; i < n; i++) {
    const from = Math.max(0, i - half);
    const to = Math.min(n - 1, i + half);
    while (hi < to) {
      const v = values[++hi];
      if (!Number.isNaN(v)) {
        sum += v;
        count++;
      }
    }
    while (lo < from) {
      const v = values[lo++];
      if (!Number.isNaN(v)) {
        sum -= v;
        count--;
      }
    }
    out[i] = count ? sum / count : NaN;
  }
  return out;
}

/** Central differences dv/dt (one-sided at the ends). */
export function derivative(time: ArrayLike<number>, values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - 1);
    const b = Math.min(n - 1, i + 1);
    const dt = time[b] - time[a];
    out[i] = dt > 0 ? (values[b] - values[a]) / dt : NaN;
  }
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
