/**
 * The log's columns live here, off the page's thread: a million-row log is read, reduced to the
 * points of each view (min/max per pixel column), summarised over the visible range, sampled
 * under the cursor, extended with computed channels and run through the virtual dyno without
 * the page ever waiting on a loop over every sample.
 */
import { compileExpression, ExpressionError } from "../../../../contracts/expression";
import { deserializeColumns, readColumnsLayout } from "../../../../server/domain/logs/serialize";
import type { LogChannel } from "../../../../server/domain/logs/types";
import { dynoPulls, metresPerSecondPer } from "../../../lib/dyno";
import { indexAtTime, minMaxPerPixel, rangeStats } from "../../../lib/downsample";
import { variableOf } from "./channels";
import type { WorkerRequest, WorkerResponse } from "./log-worker-client";

const scope = self as unknown as {
  postMessage(message: WorkerResponse, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
};

let time: Float64Array = new Float64Array(0);
const columns = new Map<string, Float32Array>();
const units = new Map<string, string>();
let channelIds: string[] = [];
let durationSeconds = 0;
let columnBytes = 0;

/** Typed arrays held, each buffer counted once (after the full load, channels share one). */
function bytesHeld(): number {
  const buffers = new Set<ArrayBufferLike>([time.buffer, ...[...columns.values()].map((c) => c.buffer)]);
  return [...buffers].reduce((sum, buffer) => sum + buffer.byteLength, 0);
}

let channelList: Array<{ id: string; name: string; unit: string; min: number; max: number; mean: number }> = [];

function keepChannels(channels: LogChannel[]) {
  channelIds = channels.map((channel) => channel.id);
  channelList = channels.map(({ id, name, unit, min, max, mean }) => ({ id, name, unit, min, max, mean }));
  for (const channel of channels) units.set(channel.id, channel.unit);
}

const summary = (complete: boolean) => ({
  channels: channelList,
  rowCount: time.length,
  durationSeconds,
  complete,
  bytesHeld: bytesHeld(),
  samples: time.length * channelIds.length,
});

function column(id: string): Float32Array {
  const values = columns.get(id);
  if (!values) throw new Error(`No channel "${id}" in this log`);
  return values;
}

async function handle(request: WorkerRequest): Promise<{ result: unknown; transfer?: Transferable[] }> {
  switch (request.type) {
    case "load": {
      const log = deserializeColumns(await request.blob.arrayBuffer());
      time = log.time;
      durationSeconds = log.durationSeconds;
      keepChannels(log.channels);
      columns.clear();
      log.channels.forEach((channel, i) => columns.set(channel.id, log.columns[i]));
      return { result: summary(true) };
    }
    case "layout": {
      const layout = readColumnsLayout(new Uint8Array(await request.blob.arrayBuffer()));
      if ("headerBytes" in layout) return { result: layout };
      durationSeconds = layout.header.durationSeconds;
      keepChannels(layout.header.channels);
      columnBytes = layout.columnBytes;
      const { header, ...offsets } = layout;
      return { result: { ...offsets, channels: channelList, durationSeconds } };
    }
    case "time":
      time = new Float64Array(await request.blob.arrayBuffer());
      return { result: summary(false) };
    case "channel":
      columns.set(channelIds[request.index], new Float32Array(await request.blob.arrayBuffer()));
      return { result: summary(false) };
    case "channels": {
      // Every channel in one buffer: the separate first arrays are let go for views of it.
      const buffer = await request.blob.arrayBuffer();
      channelIds.forEach((id, i) => columns.set(id, new Float32Array(buffer, i * columnBytes, time.length)));
      return { result: summary(true) };
    }
    case "compute": {
      const byVariable: Record<string, Float32Array> = {};
      for (const [id, values] of columns) byVariable[variableOf(id)] = values;
      try {
        const compiled = compileExpression(request.expression, { variables: Object.keys(byVariable) });
        const values = Float32Array.from(compiled.evaluateColumns(byVariable, time.length));
        columns.set(request.channelId, values);
        units.set(request.channelId, request.unit);
        const stats = rangeStats(values, 0, values.length);
        return { result: { ok: true, min: stats.min, max: stats.max, mean: stats.mean } };
      } catch (error) {
        if (error instanceof ExpressionError) return { result: { ok: false, message: error.message, position: error.position } };
        throw error;
      }
    }
    case "view": {
      // A channel still on its way (the full load follows the first paint) draws nothing yet.
      const ids = request.ids.filter((id) => columns.has(id));
      const series = ids.map((id) => minMaxPerPixel(time, column(id), request.t0, request.t1, request.pixels));
      const [i0, i1] = [indexAtTime(time, request.t0), indexAtTime(time, request.t1) + 1];
      const stats = ids.map((id) => rangeStats(column(id), i0, i1));
      const transfer = series.flatMap((s) => [s.time.buffer, s.values.buffer]);
      return { result: { ids, series, stats }, transfer };
    }
    case "valuesAt": {
      const i = indexAtTime(time, request.t);
      const values: Record<string, number> = {};
      for (const [id, samples] of columns) values[id] = i < 0 ? NaN : samples[i];
      return { result: { time: i < 0 ? NaN : time[i], values } };
    }
    case "dyno": {
      const speedFactor = request.speedId ? metresPerSecondPer(units.get(request.speedId) ?? "") : null;
      const speedMps = request.speedId && speedFactor ? Float64Array.from(column(request.speedId), (v) => v * speedFactor) : undefined;
      const pulls = dynoPulls(
        {
          time,
          rpm: column(request.rpmId),
          speedMps,
          gear: request.gearId ? column(request.gearId) : (request.gear ?? undefined),
          throttle: request.throttleId ? column(request.throttleId) : undefined,
        },
        request.profile,
      );
      return { result: pulls };
    }
  }
}

scope.onmessage = (event) => {
  const { id } = event.data;
  handle(event.data).then(
    ({ result, transfer }) => scope.postMessage({ id, ok: true, result }, transfer),
    (error: unknown) => scope.postMessage({ id, ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
};
