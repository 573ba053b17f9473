/** Axis ticks at round values (1, 2 or 5 times a power of ten) for plots drawn on a canvas of our own. */

/** Ticks inside [min, max], about `count` of them, at multiples of a round step. */
export function axisTicks(min: number, max: number, count: number): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || count < 1) return [];
  if (max <= min) return [min];
  const rough = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  // Counted in whole steps, not added up: no drift such as 0.30000000000000004.
  for (let k = Math.ceil(min / step); k * step <= max + step * 1e-9; k++)
    ticks.push(Number((k * step).toPrecision(12)));
  return ticks;
}

/** A tick's label: as many decimals as the step between ticks needs. */
export function tickLabel(value: number, ticks: readonly number[]): string {
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : Math.abs(value) || 1;
  const decimals = Math.max(0, Math.min(6, -Math.floor(Math.log10(step) + 1e-9)));
  return value.toFixed(decimals);
}

/** Steps between time ticks (s): 1, 2 or 5 times a power of ten, so `tickLabel`'s decimals fit every tick. */
export const TIME_TICK_STEPS: readonly number[] = Array.from({ length: 10 }, (_, k) => k - 3).flatMap((power) =>
  [1, 2, 5].map((m) => Number((m * 10 ** power).toPrecision(3))),
);

/**
 * A log's time axis labelled in seconds from its start, one way at every zoom: as many decimals as
 * the step between ticks needs ("0 s", "50 s" over a whole log; "200.25 s" zoomed in), the same
 * seconds the readout, the markers and the pulls are given in.
 */
export function timeTickLabels(ticks: readonly number[]): string[] {
  return ticks.map((tick) => `${tickLabel(tick, ticks)} s`);
}
