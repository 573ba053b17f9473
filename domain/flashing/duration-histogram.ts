/**
 * Flash durations kept as a histogram (the analytics' rollup keeps one per day and dimension):
 * bucket k (0-based) holds durations below `DURATION_BUCKET_EDGES_MS[k]` and at or above the
 * edge before it; the last bucket is open. Edges grow by 25 %, so a percentile read as the
 * geometric middle of its bucket is within ±12 % of the true value.
 */
export const DURATION_GROWTH = 1.25;
export const DURATION_BUCKET_EDGES_MS: readonly number[] = Array.from({ length: 23 }, (_, k) =>
  Math.round(10_000 * DURATION_GROWTH ** k),
);
export const DURATION_BUCKETS = DURATION_BUCKET_EDGES_MS.length + 1;

/** The bucket (0-based) a duration falls in. */
export function durationBucket(ms: number): number {
  let k = 0;
  while (k < DURATION_BUCKET_EDGES_MS.length && ms >= DURATION_BUCKET_EDGES_MS[k]) k++;
  return k;
}

/** The value a bucket stands for: the geometric middle of its edges. */
export function bucketValue(k: number): number {
  const edges = DURATION_BUCKET_EDGES_MS;
  const hi = k < edges.length ? edges[k] : edges[edges.length - 1] * DURATION_GROWTH;
  const lo = k === 0 ? edges[0] / DURATION_GROWTH : edges[k - 1];
  return Math.round(Math.sqrt(lo * hi));
}

/** The p-th percentile (0 < p ≤ 1) of the counts, or null when there are none. */
export function histogramPercentile(counts: readonly number[], p: number): number | null {
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (total <= 0) return null;
  const rank = Math.ceil(p * total);
  let seen = 0;
  for (let k = 0; k < counts.length; k++) {
    seen += counts[k];
    if (seen >= rank) return bucketValue(k);
  }
  return bucketValue(counts.length - 1);
}
