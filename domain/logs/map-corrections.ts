/**
 * Proposed changes of a tune map from a log's evidence, per cell of the map's own axes (binned by
 * `mapHistogram`): fuel from measured against target lambda, boost from actual against target,
 * timing from the knock corrections. Only a proposal: the map's values beside the new ones, for a
 * person to apply; nothing here touches an image.
 */
import { checkLength, LogAnalysisError } from "./analysis-error";
import { type MapHistogram, type MapHistogramCell, mapHistogram } from "./map-histogram";

/** A map as `readItem` lays it out: values row-major, rows along Y, columns along X. */
export interface MapOnAxes {
  xBreakpoints: readonly number[];
  yBreakpoints?: readonly number[];
  values: readonly number[];
}

export interface CorrectionOptions {
  /** Cells with fewer samples keep their value. */
  minSamples: number;
  /** The largest change of one cell: in the map's unit, or a percentage of its value. */
  maxChangePerCell: { absolute: number } | { percent: number };
  /** New values are rounded to a multiple of this (the map's resolution); 0 or unset rounds nothing. */
  step?: number;
  /** 0..1: the weight of the mean of the 4 neighbours' changes among cells that have one. */
  smoothing?: number;
}

export interface CellProposal {
  before: number;
  after: number;
  change: number;
  samples: number;
  reason: string;
}

export interface MapCorrection {
  before: readonly number[];
  /** The proposed values, equal to `before` where no cell changes. */
  after: number[];
  /** Per value, row-major; null where the cell does not change. */
  cells: (CellProposal | null)[];
  histogram: MapHistogram;
}

interface Rows {
  x: ArrayLike<number>;
  y?: ArrayLike<number>;
  mask?: Uint8Array;
}

function checkOptions(map: MapOnAxes, { minSamples, maxChangePerCell, step = 0, smoothing = 0 }: CorrectionOptions) {
  const cells = map.xBreakpoints.length * (map.yBreakpoints?.length ?? 1);
  if (map.values.length !== cells)
    throw new LogAnalysisError("values", `values has ${map.values.length} entries, expected ${cells} (one per cell)`);
  const limit = "absolute" in maxChangePerCell ? maxChangePerCell.absolute : maxChangePerCell.percent;
  if (!(limit >= 0) || !Number.isFinite(limit))
    throw new LogAnalysisError("maxChangePerCell", `maxChangePerCell must be a number of at least 0, got ${limit}`);
  if (!(step >= 0) || !Number.isFinite(step))
    throw new LogAnalysisError("step", `step must be a number of at least 0, got ${step}`);
  if (!(smoothing >= 0 && smoothing <= 1))
    throw new LogAnalysisError("smoothing", `smoothing must be between 0 and 1, got ${smoothing}`);
  if (!Number.isInteger(minSamples) || minSamples < 1)
    throw new LogAnalysisError("minSamples", `minSamples must be a whole number of at least 1, got ${minSamples}`);
}

/** Each cell's change among its 4 neighbours that have one, weighted by `smoothing`. */
function smoothed(raw: (number | null)[], cols: number, smoothing: number): (number | null)[] {
  if (smoothing === 0) return raw;
  const rows = raw.length / cols;
  return raw.map((own, k) => {
    if (own === null) return null;
    const [r, c] = [Math.floor(k / cols), k % cols];
    const around = [
      r > 0 ? raw[k - cols] : null,
      r + 1 < rows ? raw[k + cols] : null,
      c > 0 ? raw[k - 1] : null,
      c + 1 < cols ? raw[k + 1] : null,
    ].filter((v): v is number => v !== null);
    if (around.length === 0) return own;
    return (1 - smoothing) * own + (smoothing * around.reduce((s, v) => s + v, 0)) / around.length;
  });
}

/**
 * The shared path: bin `z`, turn each cell with enough samples into a change in the map's unit,
 * smooth, limit, round.
 */
function propose(
  rows: Rows,
  z: ArrayLike<number>,
  map: MapOnAxes,
  options: CorrectionOptions,
  changeOf: (cell: MapHistogramCell, before: number) => number | null,
  reasonOf: (change: number) => string,
): MapCorrection {
  checkOptions(map, options);
  const histogram = mapHistogram(
    { x: rows.x, y: rows.y, z, mask: rows.mask },
    { xBreakpoints: map.xBreakpoints, yBreakpoints: map.yBreakpoints, minSamples: options.minSamples },
  );
  const flat = histogram.cells.flat();
  const raw = flat.map((cell, k) => (cell.enough && cell.count > 0 ? changeOf(cell, map.values[k]) : null));
  const changes = smoothed(raw, map.xBreakpoints.length, options.smoothing ?? 0);
  const { step = 0, maxChangePerCell } = options;
  const after = [...map.values];
  const cells = changes.map((wanted, k) => {
    if (wanted === null) return null;
    const before = map.values[k];
    const limit =
      "absolute" in maxChangePerCell ? maxChangePerCell.absolute : (Math.abs(before) * maxChangePerCell.percent) / 100;
    const limited = Math.max(-limit, Math.min(limit, wanted));
    const value = step > 0 ? Math.round((before + limited) / step) * step : before + limited;
    if (value === before) return null;
    after[k] = value;
    return { before, after: value, change: value - before, samples: flat[k].count, reason: reasonOf(value - before) };
  });
  return { before: map.values, after, cells, histogram };
}

export interface FuelCorrectionInput extends Rows {
  /** Measured lambda, or AFR when `stoichiometric` is given. */
  measured: ArrayLike<number>;
  /** Target lambda. */
  target: ArrayLike<number>;
  /** The fuel's stoichiometric AFR (14.7 for petrol) when `measured` is an AFR. */
  stoichiometric?: number;
}

/**
 * A fuel or VE map's change per cell, the way VE Analyze works: the cell's value times the mean
 * of measured / target lambda, so a cell that ran lean (measured above target) gets more fuel.
 */
export function fuelCorrection(input: FuelCorrectionInput, map: MapOnAxes, options: CorrectionOptions): MapCorrection {
  const { measured, target, stoichiometric } = input;
  checkLength("measured", measured, input.x.length);
  checkLength("target", target, input.x.length);
  if (stoichiometric !== undefined && !(stoichiometric > 0))
    throw new LogAnalysisError("stoichiometric", `stoichiometric must be above 0, got ${stoichiometric}`);
  const ratio = new Float64Array(measured.length);
  const afr = stoichiometric ?? 1;
  for (let i = 0; i < ratio.length; i++) ratio[i] = measured[i] / afr / target[i];
  return propose(
    input,
    ratio,
    map,
    options,
    (cell, before) => before * ((cell.mean as number) - 1),
    (change) => (change > 0 ? "ran lean of target" : "ran rich of target"),
  );
}

export interface BoostCorrectionInput extends Rows {
  actual: ArrayLike<number>;
  target: ArrayLike<number>;
  /**
   * Map units per unit of boost shortfall: 1 (the default) changes a target map by the shortfall
   * itself; a wastegate duty map takes its own gain (% duty per bar, say).
   */
  gain?: number;
}

/** A boost target (or wastegate base) map's change per cell: the mean of target − actual times the gain. */
export function boostCorrection(
  input: BoostCorrectionInput,
  map: MapOnAxes,
  options: CorrectionOptions,
): MapCorrection {
  const { actual, target, gain = 1 } = input;
  checkLength("actual", actual, input.x.length);
  checkLength("target", target, input.x.length);
  if (!Number.isFinite(gain)) throw new LogAnalysisError("gain", `gain must be a number, got ${gain}`);
  const shortfall = new Float64Array(actual.length);
  for (let i = 0; i < shortfall.length; i++) shortfall[i] = target[i] - actual[i];
  return propose(
    input,
    shortfall,
    map,
    options,
    (cell) => (cell.mean as number) * gain,
    (change) => (change * gain > 0 ? "boost ran under target" : "boost ran over target"),
  );
}

export interface TimingCorrectionInput extends Rows {
  /** Knock or timing correction per sample, negative where timing was taken away (as `pulls.ts`). */
  correction: ArrayLike<number>;
  /** Judge a cell by its mean correction or by its worst (lowest). */
  statistic: "mean" | "worst";
  /** Degrees of retard a cell must exceed before timing is removed there. */
  threshold: number;
}

/** A timing map's change per cell: the retard itself removed where it exceeds the threshold. */
export function timingCorrection(
  input: TimingCorrectionInput,
  map: MapOnAxes,
  options: CorrectionOptions,
): MapCorrection {
  const { correction, statistic, threshold } = input;
  checkLength("correction", correction, input.x.length);
  if (!(threshold >= 0)) throw new LogAnalysisError("threshold", `threshold must be at least 0, got ${threshold}`);
  return propose(
    input,
    correction,
    map,
    options,
    (cell) => {
      const retard = statistic === "worst" ? (cell.min as number) : (cell.mean as number);
      return -retard > threshold ? retard : null;
    },
    () => "cylinders pulled timing",
  );
}
