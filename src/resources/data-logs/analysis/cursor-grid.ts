/**
 * Every channel's value under each pixel column of a view, sent with the view's points: the
 * readout then follows the pointer from values the page holds, without a round trip to the
 * worker on every move. The pointer cannot point finer than a column, so a column's sample is
 * the one under it. Framework-free: the worker builds it, the page reads it.
 */

export interface CursorGrid {
  t0: number;
  t1: number;
  pixels: number;
  ids: string[];
  /** Channel k's value at column p is values[p * ids.length + k]. */
  values: Float64Array;
}

/**
 * The grid of [t0, t1] at `pixels` columns: column p reads the sample `indexAt(t0 + p/pixels·span)`
 * (a negative index reads NaN) and channel k's value there from `valueFor(k, index)`.
 */
export function cursorGrid(
  view: { t0: number; t1: number; pixels: number },
  ids: string[],
  indexAt: (t: number) => number,
  valueFor: (channel: number, index: number) => number,
): CursorGrid {
  const { t0, t1 } = view;
  const pixels = Math.max(1, Math.round(view.pixels));
  const values = new Float64Array((pixels + 1) * ids.length);
  for (let p = 0; p <= pixels; p++) {
    const index = indexAt(t0 + ((t1 - t0) * p) / pixels);
    for (let k = 0; k < ids.length; k++) values[p * ids.length + k] = index < 0 ? NaN : valueFor(k, index);
  }
  return { t0, t1, pixels, ids, values };
}

/** Every channel's value at `t` from a grid of exactly `range`; undefined for another range or a time outside it. */
export function readGrid(
  grid: CursorGrid | null,
  range: readonly [number, number],
  t: number,
): Record<string, number> | undefined {
  if (!grid || grid.t0 !== range[0] || grid.t1 !== range[1] || !(grid.t1 > grid.t0)) return undefined;
  const p = Math.round(((t - grid.t0) / (grid.t1 - grid.t0)) * grid.pixels);
  if (!(p >= 0 && p <= grid.pixels)) return undefined;
  const values: Record<string, number> = {};
  grid.ids.forEach((id, k) => {
    values[id] = grid.values[p * grid.ids.length + k];
  });
  return values;
}
