/**
 * Several series' points on one time axis, for a chart's table (uPlot's aligned data). Each series
 * of a view has its own times (the samples its min/max per pixel column picked; another log's
 * samples), and a plain join has a row for every time of every series: with twenty series of a dense
 * view, tens of thousands of rows, nearly all empty, joined and walked at every frame. Where the
 * points are dense, each point's time moves to the nearest step of a grid shared by all series,
 * a quarter of a pixel column apart, so the table has at most a few rows per pixel column. A point
 * never shares a row with the series' previous one (it takes the next step): the min and max of a
 * column both stay drawn. Rows where a series has no point are left `undefined` (its line passes
 * over them); its own gaps stay `null` (its line breaks).
 */

export interface TimedValues {
  time: ArrayLike<number>;
  values: ReadonlyArray<number | null>;
}

/** Steps of the grid per pixel column: a quarter pixel moves nothing a person can see. */
const STEPS_PER_PIXEL = 4;

/**
 * The joined table, or null where a plain join is as small (sparse points: their exact times are
 * kept) or a series is denser than a view's two points a pixel column.
 */
export function joinOnGrid(
  tables: readonly TimedValues[],
  pixels: number,
): [number[], ...Array<Array<number | null | undefined>>] | null {
  const filled = tables.filter((table) => table.time.length > 0);
  if (filled.length < 2 || !(pixels >= 1)) return null;
  const steps = Math.ceil(STEPS_PER_PIXEL * pixels);
  const points = tables.reduce((sum, table) => sum + table.time.length, 0);
  // Few points in all: the exact join is no larger. A series denser than two points a column is not
  // a view's min/max: its points would push each other off their times.
  if (points <= steps || Math.max(...tables.map((table) => table.time.length)) > steps / 2) return null;
  const start = Math.min(...filled.map((table) => table.time[0]));
  const end = Math.max(...filled.map((table) => table.time[table.time.length - 1]));
  if (!(end > start)) return null;
  const step = (end - start) / steps;

  // Each series' points by grid step, then only the steps some series uses become rows.
  const used = new Uint8Array(steps + points + 1);
  const placed = tables.map((table) => {
    const at = new Int32Array(table.time.length);
    let last = -1;
    for (let i = 0; i < table.time.length; i++) {
      let k = Math.round((table.time[i] - start) / step);
      if (k <= last) k = last + 1;
      at[i] = k;
      used[k] = 1;
      last = k;
    }
    return at;
  });
  const rowOf = new Int32Array(used.length);
  const time: number[] = [];
  for (let k = 0; k < used.length; k++)
    if (used[k]) {
      rowOf[k] = time.length;
      time.push(start + k * step);
    }
  const columns = tables.map((table, s) => {
    const column = new Array<number | null | undefined>(time.length).fill(undefined);
    const at = placed[s];
    for (let i = 0; i < at.length; i++) column[rowOf[at[i]]] = table.values[i];
    return column;
  });
  return [time, ...columns];
}
