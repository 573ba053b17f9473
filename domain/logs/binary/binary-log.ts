import type { MetaDraft } from "../layout";
import type { FormatId } from "../types";

export type { Companion } from "../types";

/** What a binary reader makes of a file, before names are made unique and time starts at zero. */
export interface BinaryLog {
  format: FormatId;
  /** The logger's name, stored as `meta.sourceFormat`. */
  sourceFormat: string;
  /** Seconds, in the logger's own reckoning (the first need not be 0). */
  time: Float64Array;
  channels: BinaryChannel[];
  meta: MetaDraft;
  warnings: string[];
}

export interface BinaryChannel {
  name: string;
  unit: string;
  /** How the file names the channel, when that differs from `name` (an id, a slot). */
  sourceHeader?: string;
  column: Float32Array;
}

/**
 * Channels sampled at their own times, put on one time axis: every time any channel has a
 * sample, each channel showing its latest sample (the logger's value did not change between
 * samples); before a channel's first sample it is a gap.
 */
export function mergeSampleTimes(series: { times: Float64Array; values: Float32Array }[]): {
  time: Float64Array;
  columns: Float32Array[];
} {
  const all = new Set<number>();
  for (const s of series) for (const t of s.times) all.add(t);
  const time = Float64Array.from(all).sort();
  const columns = series.map((s) => {
    const column = new Float32Array(time.length).fill(Number.NaN);
    let k = -1;
    for (let r = 0; r < time.length; r++) {
      while (k + 1 < s.times.length && s.times[k + 1] <= time[r]) k++;
      if (k >= 0) column[r] = s.values[k];
    }
    return column;
  });
  return { time, columns };
}
