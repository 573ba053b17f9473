/**
 * Wide-open-throttle pulls: the stretches of a log where the engine speed climbs steadily with the
 * pedal (or, without a pedal channel, the throttle) held open. One rule serves the pull list of the
 * log view and the virtual dyno, so both see the same pulls.
 *
 * Timing corrections follow the convention most loggers write: negative degrees are timing taken
 * away (knock retard). The largest correction is the lowest value; a channel that logs retard as
 * positive degrees must be negated by the caller.
 */
import { checkLength, LogAnalysisError } from "./analysis-error";
import { derivativeAt, samplesIn, smooth } from "./signal";

export interface PullThresholds {
  /** Pedal (else throttle) at or above this many % counts as wide open; unused when neither is logged. */
  minPedal: number;
  /** A pull lasts at least this long (s); shorter rises are shifts or noise. */
  minSeconds: number;
  /** The smoothed engine speed rises at least this much over a pull (rpm). */
  minRpmSpan: number;
  /** The smoothed engine speed rises at least this fast at every sample of a pull (rpm/s). */
  minRpmRate: number;
  /** Engine speed is averaged over this long each side of a sample before its rate is taken (s). */
  smoothSeconds: number;
  /**
   * Samples further apart than this (s) belong to different pulls: the logger stopped in between.
   * Time that runs backwards (a logger restarted; the parser keeps such files) breaks a pull too.
   */
  maxGapSeconds: number;
  /**
   * With a boost channel, a pull's peak boost reaches at least this (in the channel's unit); it tells
   * full-boost runs from part-throttle rises in a log without a pedal or throttle channel.
   */
  minPeakBoost?: number;
}

export const DEFAULT_PULL_THRESHOLDS: Readonly<PullThresholds> = {
  minPedal: 90,
  minSeconds: 1.5,
  minRpmSpan: 1000,
  minRpmRate: 50,
  smoothSeconds: 0.25,
  maxGapSeconds: 1,
};

export interface PullInput {
  /** Seconds; ascending but for restarts (see maxGapSeconds). */
  time: ArrayLike<number>;
  rpm: ArrayLike<number>;
  throttle?: ArrayLike<number>;
  /** Preferred over the throttle: the driver's demand, where a throttle may be closed by the ECU. */
  pedal?: ArrayLike<number>;
  gear?: ArrayLike<number>;
  boost?: ArrayLike<number>;
  mixture?: { values: ArrayLike<number>; kind: "afr" | "lambda" };
  /** Timing corrections in degrees, negative = retard; one per cylinder, or one for the engine. */
  corrections?: ReadonlyArray<{ cylinder?: number; values: ArrayLike<number> }>;
}

/** A value and when it was logged. */
export interface TimedValue {
  value: number;
  time: number;
}

export interface Pull {
  startIndex: number;
  /** Inclusive. */
  endIndex: number;
  startTime: number;
  endTime: number;
  duration: number;
  /** Lowest and highest logged engine speed in the pull. */
  rpmFrom: number;
  rpmTo: number;
  /** The gear logged most often in the pull; null without a gear channel. */
  gear: number | null;
  peakBoost: TimedValue | null;
  /** Richest is the lowest AFR or lambda, leanest the highest. */
  richest: TimedValue | null;
  leanest: TimedValue | null;
  mixtureKind: "afr" | "lambda" | null;
  /** The most retard (lowest correction) of any cylinder; cylinder null for an engine-wide channel. */
  largestCorrection: (TimedValue & { cylinder: number | null }) | null;
}

/** The thresholds with defaults filled in, each checked; a bad one throws naming it. */
export function pullThresholds(given: Partial<PullThresholds> = {}): PullThresholds {
  const thresholds = { ...DEFAULT_PULL_THRESHOLDS, ...given };
  const check = (name: keyof PullThresholds, ok: (v: number) => boolean, rule: string) => {
    const value = thresholds[name];
    if (typeof value !== "number" || !Number.isFinite(value) || !ok(value))
      throw new LogAnalysisError(name, `Pull threshold ${name} must be ${rule}, got ${String(value)}`);
  };
  check("minPedal", (v) => v >= 0 && v <= 100, "a percentage from 0 to 100");
  check("minSeconds", (v) => v > 0, "more than 0 seconds");
  check("minRpmSpan", (v) => v > 0, "more than 0 rpm");
  check("minRpmRate", (v) => v >= 0, "0 rpm/s or more");
  check("smoothSeconds", (v) => v >= 0, "0 seconds or more");
  check("maxGapSeconds", (v) => v > 0, "more than 0 seconds");
  if (thresholds.minPeakBoost !== undefined) check("minPeakBoost", () => true, "a number");
  return thresholds;
}

function checkInput(input: PullInput): void {
  const rows = input.time.length;
  checkLength("rpm", input.rpm, rows);
  for (const name of ["throttle", "pedal", "gear", "boost"] as const) {
    const values = input[name];
    if (values) checkLength(name, values, rows);
  }
  if (input.mixture) checkLength("mixture", input.mixture.values, rows);
  input.corrections?.forEach((c, k) => {
    checkLength(`corrections[${k}]`, c.values, rows);
  });
}

/** Index ranges [start, end] (inclusive) of every pull, by the thresholds. */
export function pullRanges(input: PullInput, given: Partial<PullThresholds> = {}): Array<[number, number]> {
  const thresholds = pullThresholds(given);
  checkInput(input);
  const { time, boost } = input;
  const { minPeakBoost } = thresholds;
  const boostReached = (start: number, end: number) =>
    minPeakBoost === undefined ||
    !boost ||
    (extreme(time, boost, start, end, true)?.value ?? -Infinity) >= minPeakBoost;
  const half = samplesIn(time, thresholds.smoothSeconds);
  const rpmSmooth = smooth(input.rpm, half);
  const demand = input.pedal ?? input.throttle;
  const { minPedal, maxGapSeconds, minRpmRate } = thresholds;
  const open = (i: number) => !demand || demand[i] >= minPedal;
  // Sample i can follow sample i - 1 in one pull: time moved forward, by no more than the largest gap,
  // and (joins) the pedal stayed open.
  const steps = (i: number) => time[i] - time[i - 1] >= 0 && time[i] - time[i - 1] <= maxGapSeconds;
  const joins = (i: number) => steps(i) && open(i) && open(i - 1);
  const ranges: Array<[number, number]> = [];
  let start = -1;
  const close = (end: number) => {
    if (
      start >= 0 &&
      time[end] - time[start] >= thresholds.minSeconds &&
      rpmSmooth[end] - rpmSmooth[start] >= thresholds.minRpmSpan &&
      boostReached(start, end)
    )
      ranges.push(sharpen(input.rpm, start, end, half, joins));
    start = -1;
  };
  // The row loop reads the demand array itself rather than through open(), as it runs once per row.
  for (let i = 0; i < time.length; i++) {
    if (start >= 0 && !steps(i)) close(i - 1);
    const rising = derivativeAt(time, rpmSmooth, i) > minRpmRate && (demand === undefined || demand[i] >= minPedal);
    if (rising && start < 0) start = i;
    else if (!rising && start >= 0) close(i - 1);
  }
  if (start >= 0) close(time.length - 1);
  return ranges;
}

/**
 * The smoothing blurs a pull's ends by up to `half` samples: its start moves to the last lowest
 * logged engine speed near it, its end to the first highest, never across a gap or a closed pedal.
 */
function sharpen(
  rpm: ArrayLike<number>,
  start: number,
  end: number,
  half: number,
  joins: (i: number) => boolean,
): [number, number] {
  let from = start;
  while (from > 0 && start - from < half && joins(from)) from--;
  let to = end;
  while (to < rpm.length - 1 && to - end < half && joins(to + 1)) to++;
  // Reading up for the start and down for the end, `<=` and `>=` keep the last low and the first peak.
  const takes = (i: number, best: number, beats: (a: number, b: number) => boolean) =>
    !Number.isNaN(rpm[i]) && (Number.isNaN(rpm[best]) || beats(rpm[i], rpm[best]));
  let low = start;
  for (let i = from; i <= Math.min(start + half, to); i++) if (takes(i, low, (a, b) => a <= b)) low = i;
  let high = end;
  for (let i = to; i >= Math.max(end - half, low); i--) if (takes(i, high, (a, b) => a >= b)) high = i;
  return [low, high];
}

/** Every wide-open-throttle pull of the log, with what a tuner reads off it. */
export function findPulls(input: PullInput, thresholds: Partial<PullThresholds> = {}): Pull[] {
  return pullRanges(input, thresholds).map(([start, end]) => describePull(input, start, end));
}

/** The sample with the lowest (or, with `highest`, highest) value in [start, end], gaps skipped. */
function extreme(
  time: ArrayLike<number>,
  values: ArrayLike<number>,
  start: number,
  end: number,
  highest: boolean,
): TimedValue | null {
  let best = -1;
  for (let i = start; i <= end; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    if (best < 0 || (highest ? v > values[best] : v < values[best])) best = i;
  }
  return best < 0 ? null : { value: values[best], time: time[best] };
}

/** The most common whole gear in [start, end]; null when none is logged. */
function usualGear(gear: ArrayLike<number>, start: number, end: number): number | null {
  const counts = new Map<number, number>();
  for (let i = start; i <= end; i++) {
    if (Number.isNaN(gear[i])) continue;
    const g = Math.round(gear[i]);
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  let best: number | null = null;
  for (const [g, count] of counts) if (best === null || count > (counts.get(best) ?? 0)) best = g;
  return best;
}

/**
 * What a tuner reads off the pull at rows [start, end] (a range of pullRanges): only those rows of
 * each channel are read, so a caller holding coded columns may decode just them.
 */
export function describePull(input: PullInput, start: number, end: number): Pull {
  const { time, mixture } = input;
  const rpmLow = extreme(time, input.rpm, start, end, false);
  const rpmHigh = extreme(time, input.rpm, start, end, true);
  let largestCorrection: Pull["largestCorrection"] = null;
  for (const correction of input.corrections ?? []) {
    const lowest = extreme(time, correction.values, start, end, false);
    if (lowest && (!largestCorrection || lowest.value < largestCorrection.value))
      largestCorrection = { ...lowest, cylinder: correction.cylinder ?? null };
  }
  return {
    startIndex: start,
    endIndex: end,
    startTime: time[start],
    endTime: time[end],
    duration: time[end] - time[start],
    rpmFrom: rpmLow?.value ?? NaN,
    rpmTo: rpmHigh?.value ?? NaN,
    gear: input.gear ? usualGear(input.gear, start, end) : null,
    peakBoost: input.boost ? extreme(time, input.boost, start, end, true) : null,
    richest: mixture ? extreme(time, mixture.values, start, end, false) : null,
    leanest: mixture ? extreme(time, mixture.values, start, end, true) : null,
    mixtureKind: mixture?.kind ?? null,
    largestCorrection,
  };
}
