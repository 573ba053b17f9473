/**
 * The log worker's analysis over its coded columns: pulls from the channels' roles, the sample
 * filter's mask and what it does to a view (the spans it hides, the statistics of what it keeps),
 * and the points of an X–Y plot. Pure functions, so they are tested without a worker.
 */
import { decodeColumn, decoder, type EncodedColumn, gapCode } from "../../../../domain/logs/column-codes";
import {
  describePull,
  type Pull,
  type PullInput,
  type PullThresholds,
  pullRanges,
} from "../../../../domain/logs/pulls";
import { compileSampleFilter } from "../../../../domain/logs/sample-filter";
import { xyStatistics } from "../../../../domain/logs/xy";
import type { RangeStats } from "../../../lib/downsample";
import type { PullChannels } from "./pull-channels";

const floats = (column: EncodedColumn) => decodeColumn(column, Float32Array);

/**
 * The log's pulls, read from the channels the roles picked. The detection reads engine speed and the
 * pedal or throttle over every row (and boost, given a peak-boost threshold); the summaries read the
 * other channels only inside the pulls found, so only those rows of them are decoded: a threshold
 * changed on a long log is a pass over three channels, not over every one the summaries name.
 */
export function pullsOf(
  time: EncodedColumn,
  columnOf: (id: string) => EncodedColumn,
  channels: PullChannels,
  thresholds: Partial<PullThresholds>,
): Pull[] {
  const whole = (id: string | undefined) => (id ? floats(columnOf(id)) : undefined);
  const detection: PullInput = {
    time: decodeColumn(time, Float64Array),
    rpm: floats(columnOf(channels.rpm)),
    pedal: whole(channels.pedal),
    throttle: whole(channels.throttle),
    boost: thresholds.minPeakBoost === undefined ? undefined : whole(channels.boost),
  };
  const ranges = pullRanges(detection, thresholds);
  const inPulls = (id: string, sign = 1) => rowsDecoded(columnOf(id), ranges, sign);
  const summaries: PullInput = {
    ...detection,
    gear: channels.gear ? inPulls(channels.gear) : undefined,
    boost: detection.boost ?? (channels.boost ? inPulls(channels.boost) : undefined),
    mixture: channels.mixture && { values: inPulls(channels.mixture.id), kind: channels.mixture.kind },
    corrections: channels.corrections.map(({ id, cylinder, retard }) => ({
      cylinder,
      values: inPulls(id, retard ? -1 : 1),
    })),
  };
  return ranges.map(([start, end]) => describePull(summaries, start, end));
}

/** A column as Float32 values, `sign` applied, decoded only in the row ranges given (inclusive); the other rows are NaN. */
export function rowsDecoded(
  column: EncodedColumn,
  ranges: ReadonlyArray<readonly [number, number]>,
  sign = 1,
): Float32Array {
  const { codes, encoding } = column;
  const decode = decoder(encoding);
  const out = new Float32Array(codes.length).fill(NaN);
  for (const [start, end] of ranges) for (let i = start; i <= end; i++) out[i] = sign * decode(codes[i]);
  return out;
}

/**
 * The rows a condition keeps, over the channels by their expression variables; only the channels
 * it reads are decoded. A syntax error or an unknown name throws the expression's ExpressionError.
 */
export function filterMask(condition: string, variables: ReadonlyMap<string, EncodedColumn>, rows: number): Uint8Array {
  const filter = compileSampleFilter(condition, [...variables.keys()]);
  const columns = Object.fromEntries(filter.variables.map((name) => [name, floats(variables.get(name)!)]));
  return filter.mask(columns, rows);
}

/** Minimum, maximum and mean of rows [i0, i1) the mask keeps, gaps left out, decoded. */
export function maskedStats(column: EncodedColumn, i0: number, i1: number, mask: Uint8Array): RangeStats {
  const { codes, encoding } = column;
  const gap = gapCode(encoding);
  let [min, max, sum, count] = [Infinity, -Infinity, 0, 0];
  for (let i = Math.max(0, i0); i < Math.min(i1, codes.length); i++) {
    const code = codes[i];
    if (!mask[i] || code === gap || Number.isNaN(code)) continue;
    if (code < min) min = code;
    if (code > max) max = code;
    sum += code;
    count++;
  }
  // The coding is linear and increasing, so the codes' extremes and mean decode to the values'.
  const value = decoder(encoding);
  return count === 0
    ? { min: NaN, max: NaN, mean: NaN, count }
    : { min: value(min), max: value(max), mean: value(sum / count), count };
}

/**
 * The stretches of rows [i0, i1) the mask leaves out, as time pairs [from, to, from, to…]: each
 * reaches halfway to the kept samples either side, and stretches closer than `join` seconds are
 * one, so a view gets at most about one per pixel.
 */
export function maskedSpans(time: EncodedColumn, mask: Uint8Array, i0: number, i1: number, join: number): Float64Array {
  const at = decoder(time.encoding);
  const t = (i: number) => at(time.codes[i]);
  const from = Math.max(0, i0);
  const to = Math.min(i1, mask.length);
  const last = mask.length - 1;
  const spans: number[] = [];
  for (let i = from; i < to; i++) {
    if (mask[i]) continue;
    let j = i;
    while (j + 1 < to && !mask[j + 1]) j++;
    const start = i > 0 ? (t(i - 1) + t(i)) / 2 : t(i);
    const end = j < last ? (t(j) + t(j + 1)) / 2 : t(j);
    if (spans.length > 0 && start - spans[spans.length - 1] <= join) spans[spans.length - 1] = end;
    else spans.push(start, end);
    i = j;
  }
  return Float64Array.from(spans);
}

/**
 * One row per pixel of a `width` × `height` plot of Y against X over the ranges given: the latest
 * row that falls on each pixel, so every pixel a sample reaches is drawn once, the cloud's inside
 * as well as its edges. Rows the mask drops or with a gap in X or Y are left out. In pixel order,
 * row by row from the bottom: a sort of a few hundred thousand rows cost more than the raster.
 */
export function rasterRows(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  mask: Uint8Array | undefined,
  xRange: { min: number; max: number },
  yRange: { min: number; max: number },
  width: number,
  height: number,
): Uint32Array {
  const cells = new Int32Array(width * height).fill(-1);
  const xSpan = xRange.max - xRange.min;
  const ySpan = yRange.max - yRange.min;
  const cell = (v: number, min: number, span: number, size: number) =>
    span > 0 ? Math.min(size - 1, Math.max(0, Math.floor(((v - min) / span) * size))) : 0;
  for (let i = 0; i < x.length; i++) {
    if (mask && !mask[i]) continue;
    const [xi, yi] = [x[i], y[i]];
    if (Number.isNaN(xi) || Number.isNaN(yi)) continue;
    cells[cell(yi, yRange.min, ySpan, height) * width + cell(xi, xRange.min, xSpan, width)] = i;
  }
  let count = 0;
  for (let k = 0; k < cells.length; k++) if (cells[k] >= 0) count++;
  const rows = new Uint32Array(count);
  let at = 0;
  for (let k = 0; k < cells.length; k++) if (cells[k] >= 0) rows[at++] = cells[k];
  return rows;
}

/** A stretch of an axis, lowest to highest. */
export interface AxisRange {
  min: number;
  max: number;
}

/** A zoomed X–Y plot's box, in the channels' stored units: only the points inside it are plotted. */
export interface XyBox {
  x: AxisRange;
  y: AxisRange;
}

export interface XyRequest {
  xId: string;
  yId: string;
  colourId?: string;
  box?: XyBox;
  /** Rows [i0, i1): the chart's time range. */
  i0: number;
  i1: number;
  /** The plot's cells across and up: at most one point per cell is sent. */
  width: number;
  height: number;
}

export interface XyPoints {
  /** Rows in the range the mask keeps with both X and Y logged. */
  count: number;
  x: Float32Array;
  y: Float32Array;
  /** The colour channel's value at each point; null without a colour channel. */
  colour: Float32Array | null;
  xRange: { min: number; max: number } | null;
  yRange: { min: number; max: number } | null;
  colourRange: { min: number; max: number } | null;
  correlation: number | null;
}

/** The rows the mask keeps (all without one) whose X and Y both lie inside the box, edges included. */
export function insideBox(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  mask: Uint8Array | undefined,
  box: XyBox,
): Uint8Array {
  const out = new Uint8Array(x.length);
  for (let i = 0; i < x.length; i++) {
    if (mask && !mask[i]) continue;
    const [xi, yi] = [x[i], y[i]];
    out[i] = xi >= box.x.min && xi <= box.x.max && yi >= box.y.min && yi <= box.y.max ? 1 : 0;
  }
  return out;
}

/** The points of an X–Y plot of the range, one per pixel at most, with the ranges its axes need. */
export function xyPoints(
  request: XyRequest,
  columnOf: (id: string) => EncodedColumn,
  mask: Uint8Array | undefined,
): XyPoints {
  const slice = (id: string) => {
    const { codes, encoding } = columnOf(id);
    return floats({ codes: codes.subarray(request.i0, request.i1), encoding });
  };
  const [x, y] = [slice(request.xId), slice(request.yId)];
  const filtered = mask?.subarray(request.i0, request.i1);
  const { box } = request;
  const kept = box ? insideBox(x, y, filtered, box) : filtered;
  const stats = xyStatistics({ x, y, mask: kept });
  // Zoomed, the axes span the box itself, whatever part of it the samples fill.
  const [xRange, yRange] = box ? [box.x, box.y] : [stats.x, stats.y];
  const width = Math.max(1, Math.floor(request.width));
  const height = Math.max(1, Math.floor(request.height));
  const rows =
    xRange && yRange && stats.count > 0 ? rasterRows(x, y, kept, xRange, yRange, width, height) : new Uint32Array(0);
  const colourValues = request.colourId ? slice(request.colourId) : null;
  const pick = (values: Float32Array) => {
    const out = new Float32Array(rows.length);
    for (let k = 0; k < rows.length; k++) out[k] = values[rows[k]];
    return out;
  };
  const colour = colourValues ? pick(colourValues) : null;
  let colourRange: XyPoints["colourRange"] = null;
  for (const v of colour ?? []) {
    if (Number.isNaN(v)) continue;
    colourRange = colourRange
      ? { min: Math.min(colourRange.min, v), max: Math.max(colourRange.max, v) }
      : { min: v, max: v };
  }
  return {
    count: stats.count,
    x: pick(x),
    y: pick(y),
    colour,
    xRange,
    yRange,
    colourRange,
    correlation: stats.correlation,
  };
}
