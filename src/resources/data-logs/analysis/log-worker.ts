/**
 * The log's columns live here, off the page's thread: a million-row log is read, reduced to the
 * points of each view (min/max per pixel column), summarised over the visible range, sampled
 * under the cursor, extended with computed channels and run through the virtual dyno without
 * the page ever waiting on a loop over every sample.
 */
import { compileExpression, ExpressionError } from "../../../../domain/expression";
import { codePosition, decodeColumn, decoder, type EncodedColumn, gapCode } from "../../../../domain/logs/column-codes";
import { keptCount } from "../../../../domain/logs/sample-filter";
import { type ArrayPlace, arrayCodes, readColumnsLayout, storedBytes } from "../../../../domain/logs/serialize";
import type { LogChannel } from "../../../../domain/logs/types";
import {
  blocksOf,
  indexAtTime,
  minMaxIndices,
  type RangeStats,
  rangeStats,
  type SampleBlocks,
  type SeriesPoints,
} from "../../../lib/downsample";
import { dynoPulls, metresPerSecondPer } from "../../../lib/dyno";
import { variableOf } from "./channels";
import { cursorGrid } from "./cursor-grid";
import { filterMask, maskedSpans, maskedStats, pullsOf, xyPoints } from "./log-worker-analysis";
import type { WorkerRequest, WorkerResponse } from "./log-worker-protocol";

const scope = self as unknown as {
  postMessage(message: WorkerResponse, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
};

/** The columns as stored (column-codes.ts): decoded only for the points a view shows. */
let time: EncodedColumn = { codes: new Float64Array(0), encoding: { type: "f64" } };
const columns = new Map<string, EncodedColumn>();
/** Per column, its block summaries: a view of the whole log reads these, not every sample. */
const blocks = new Map<string, SampleBlocks>();

function keepColumn(id: string, column: EncodedColumn): void {
  columns.set(id, column);
  blocks.set(id, blocksOf(column.codes, gapCode(column.encoding)));
}
const units = new Map<string, string>();
let channelIds: string[] = [];
let durationSeconds = 0;
let rows = 0;
/** Where the channels lie in the columnar form, from its header. */
let channelPlaces: ArrayPlace[] = [];
/** Where the time lies in the columnar form, from its layout. */
let timePlace: ArrayPlace = { at: 0, bytes: 0, encoding: { type: "f64" }, deflated: false };
/** The sample filter's rows kept (1) and left out (0); undefined without a filter. */
let mask: Uint8Array | undefined;

/** Typed arrays held, each buffer counted once (after the full load, channels share one). */
function bytesHeld(): number {
  const summaries = [...blocks.values()].flatMap((b) => [b.minAt.buffer, b.maxAt.buffer, b.count.buffer, b.sum.buffer]);
  const buffers = new Set<ArrayBufferLike>([
    time.codes.buffer,
    ...[...columns.values()].map((c) => c.codes.buffer),
    ...summaries,
  ]);
  return [...buffers].reduce((sum, buffer) => sum + buffer.byteLength, 0);
}

const timeAt = (t: number) => indexAtTime(time.codes, codePosition(time.encoding, t));

/** The kept samples' times and values, decoded. */
function pointsAt(column: EncodedColumn, indices: Uint32Array): SeriesPoints {
  const [timeOf, valueFor] = [decoder(time.encoding), decoder(column.encoding)];
  const points = { time: new Float64Array(indices.length), values: new Float32Array(indices.length) };
  indices.forEach((index, k) => {
    points.time[k] = timeOf(time.codes[index]);
    points.values[k] = valueFor(column.codes[index]);
  });
  return points;
}

/** Minimum, maximum and mean found on the codes (an increasing, linear coding), then decoded. */
function statsOf(id: string, i0: number, i1: number): RangeStats {
  const column = columnOf(id);
  const stats = rangeStats(column.codes, i0, i1, gapCode(column.encoding), blocks.get(id));
  const valueFor = decoder(column.encoding);
  return { min: valueFor(stats.min), max: valueFor(stats.max), mean: valueFor(stats.mean), count: stats.count };
}

let channelList: Array<{ id: string; name: string; unit: string; min: number; max: number; mean: number }> = [];

function keepChannels(channels: LogChannel[]) {
  channelIds = channels.map((channel) => channel.id);
  channelList = channels.map(({ id, name, unit, min, max, mean }) => ({ id, name, unit, min, max, mean }));
  for (const channel of channels) units.set(channel.id, channel.unit);
}

const summary = (complete: boolean) => ({
  channels: channelList,
  rowCount: rows,
  durationSeconds,
  complete,
  loading: complete ? [] : channelIds.filter((id) => !columns.has(id)),
  bytesHeld: bytesHeld(),
  samples: rows * channelIds.length,
});

function columnOf(id: string): EncodedColumn {
  const values = columns.get(id);
  if (!values) throw new Error(`No channel "${id}" in this log`);
  return values;
}

/** Raw DEFLATE undone by the browser (the columnar form stores each array deflated: domain/logs/serialize.ts). */
async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** One array's codes from its bytes as stored. */
async function codesFrom(place: ArrayPlace, stored: Uint8Array): Promise<EncodedColumn> {
  const bytes = place.deflated ? await inflate(stored) : stored;
  return { codes: arrayCodes(place.encoding, bytes, rows), encoding: place.encoding };
}

async function handle(request: WorkerRequest): Promise<{ result: unknown; transfer?: Transferable[] }> {
  switch (request.type) {
    case "load": {
      const bytes = new Uint8Array(await request.blob.arrayBuffer());
      const layout = readColumnsLayout(bytes);
      if ("headerBytes" in layout || bytes.length < layout.byteLength)
        throw new Error("The log's columnar form arrived cut short");
      rows = layout.rows;
      mask = undefined;
      const [loadedTime, ...loaded] = await Promise.all(
        [layout.time, ...layout.columns].map((place) => codesFrom(place, storedBytes(bytes, place))),
      );
      time = loadedTime;
      durationSeconds = layout.header.durationSeconds;
      keepChannels(layout.header.channels);
      columns.clear();
      blocks.clear();
      layout.header.channels.forEach((channel, i) => {
        keepColumn(channel.id, loaded[i]);
      });
      return { result: summary(true) };
    }
    case "layout": {
      const layout = readColumnsLayout(new Uint8Array(await request.blob.arrayBuffer()));
      if ("headerBytes" in layout) return { result: layout };
      durationSeconds = layout.header.durationSeconds;
      keepChannels(layout.header.channels);
      rows = layout.rows;
      mask = undefined;
      timePlace = layout.time;
      channelPlaces = layout.columns;
      const place = ({ at, bytes }: ArrayPlace) => ({ at, bytes });
      const offsets = {
        rows,
        time: place(layout.time),
        columns: layout.columns.map(place),
        byteLength: layout.byteLength,
      };
      time = { codes: new Float64Array(0), encoding: layout.time.encoding };
      return { result: { ...offsets, channels: channelList, durationSeconds, format: layout.header.format } };
    }
    case "time":
      time = await codesFrom(timePlace, new Uint8Array(await request.blob.arrayBuffer()));
      return { result: summary(false) };
    case "channel": {
      keepColumn(
        channelIds[request.index],
        await codesFrom(channelPlaces[request.index], new Uint8Array(await request.blob.arrayBuffer())),
      );
      return { result: summary(false) };
    }
    case "channels": {
      // Every channel in one buffer; the first channels, which came on their own, are kept as they
      // are (the same samples), not inflated and summarised again.
      const bytes = new Uint8Array(await request.blob.arrayBuffer());
      const start = channelPlaces[0]?.at ?? 0;
      const missing = channelIds.flatMap((id, i) => (columns.has(id) ? [] : [i]));
      const loaded = await Promise.all(
        missing.map((i) => codesFrom(channelPlaces[i], storedBytes(bytes, channelPlaces[i], start))),
      );
      missing.forEach((i, k) => {
        keepColumn(channelIds[i], loaded[k]);
      });
      return { result: summary(true) };
    }
    case "compute": {
      const variables = new Map([...columns].map(([id, values]) => [variableOf(id), values]));
      try {
        const compiled = compileExpression(request.expression, { variables: [...variables.keys()] });
        // Only the channels the expression reads are decoded, and only while it runs.
        const inputs = Object.fromEntries(
          compiled.variables.map((name) => [name, decodeColumn(variables.get(name)!, Float32Array)]),
        );
        const values = Float32Array.from(compiled.evaluateColumns(inputs, rows));
        keepColumn(request.channelId, { codes: values, encoding: { type: "f32" } });
        units.set(request.channelId, request.unit);
        const stats = rangeStats(values, 0, values.length);
        return { result: { ok: true, min: stats.min, max: stats.max, mean: stats.mean } };
      } catch (error) {
        if (error instanceof ExpressionError)
          return { result: { ok: false, message: error.message, position: error.position } };
        throw error;
      }
    }
    case "view": {
      // A channel still on its way (the full load follows the first paint) draws nothing yet.
      const ids = request.ids.filter((id) => columns.has(id));
      const [c0, c1] = [codePosition(time.encoding, request.t0), codePosition(time.encoding, request.t1)];
      const series = ids.map((id) => {
        const values = columnOf(id);
        return pointsAt(
          values,
          minMaxIndices(time.codes, values.codes, gapCode(values.encoding), c0, c1, request.pixels, blocks.get(id)),
        );
      });
      const [i0, i1] = [timeAt(request.t0), timeAt(request.t1) + 1];
      const stats = ids.map((id) => (mask ? maskedStats(columnOf(id), i0, i1, mask) : statsOf(id, i0, i1)));
      // Stretches closer than a pixel are shaded as one.
      const masked = mask ? maskedSpans(time, mask, i0, i1, (request.t1 - request.t0) / request.pixels) : null;
      // Every channel under each column, so the readout follows the pointer without asking here.
      const all = [...columns.values()];
      const read = all.map((column) => decoder(column.encoding));
      const grid = cursorGrid(request, [...columns.keys()], timeAt, (k, i) => read[k](all[k].codes[i]));
      const transfer = [...series.flatMap((s) => [s.time.buffer, s.values.buffer]), grid.values.buffer];
      if (masked) transfer.push(masked.buffer);
      return { result: { ids, series, stats, grid, masked }, transfer };
    }
    case "valuesAt": {
      const i = timeAt(request.t);
      const values: Record<string, number> = {};
      for (const [id, samples] of columns) values[id] = i < 0 ? NaN : decoder(samples.encoding)(samples.codes[i]);
      return { result: { time: i < 0 ? NaN : decoder(time.encoding)(time.codes[i]), values } };
    }
    case "rows": {
      // Every sample of the range, decoded: what an export writes.
      const [i0, i1] = [Math.max(0, timeAt(request.t0)), timeAt(request.t1) + 1];
      const timeOf = decoder(time.encoding);
      const first = i0 < rows && timeOf(time.codes[i0]) < request.t0 ? i0 + 1 : i0;
      const count = Math.max(0, i1 - first);
      const times = Float64Array.from({ length: count }, (_, k) => timeOf(time.codes[first + k]));
      const values = request.ids.map((id) => {
        const column = columnOf(id);
        const valueFor = decoder(column.encoding);
        return Float32Array.from({ length: count }, (_, k) => valueFor(column.codes[first + k]));
      });
      return { result: { time: times, values }, transfer: [times.buffer, ...values.map((v) => v.buffer)] };
    }
    case "dyno": {
      const speedFactor = request.speedId ? metresPerSecondPer(units.get(request.speedId) ?? "") : null;
      const decoded = (id: string) => decodeColumn(columnOf(id), Float32Array);
      const speedMps =
        request.speedId && speedFactor
          ? Float64Array.from(decoded(request.speedId), (v) => v * speedFactor)
          : undefined;
      const pulls = dynoPulls(
        {
          time: decodeColumn(time, Float64Array),
          rpm: decoded(request.rpmId),
          speedMps,
          gear: request.gearId ? decoded(request.gearId) : (request.gear ?? undefined),
          throttle: request.throttleId ? decoded(request.throttleId) : undefined,
        },
        request.profile,
      );
      return { result: pulls };
    }
    case "pulls":
      return { result: pullsOf(time, columnOf, request.channels, request.thresholds) };
    case "filter": {
      if (!request.condition.trim()) {
        mask = undefined;
        return { result: { ok: true, kept: rows, rows } };
      }
      const variables = new Map([...columns].map(([id, values]) => [variableOf(id), values]));
      try {
        mask = filterMask(request.condition, variables, rows);
      } catch (error) {
        if (error instanceof ExpressionError)
          return { result: { ok: false, message: error.message, position: error.position } };
        throw error;
      }
      return { result: { ok: true, kept: keptCount(mask), rows } };
    }
    case "xy": {
      const [i0, i1] = [Math.max(0, timeAt(request.t0)), timeAt(request.t1) + 1];
      const points = xyPoints({ ...request, i0, i1 }, columnOf, mask);
      const transfer = [points.x.buffer, points.y.buffer, ...(points.colour ? [points.colour.buffer] : [])];
      return { result: points, transfer };
    }
  }
}

scope.onmessage = (event) => {
  const { id } = event.data;
  handle(event.data).then(
    ({ result, transfer }) => scope.postMessage({ id, ok: true, result }, transfer),
    (error: unknown) =>
      scope.postMessage({ id, ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
};
