/**
 * The page's side of the log worker: one promise per request, answers matched by id.
 */
import type { DataLogChannel } from "../../../../contracts/data-logs";
import type { FormatId } from "../../../../domain/logs";
import type { Pull } from "../../../../domain/logs/pulls";
import type { RangeStats, SeriesPoints } from "../../../lib/downsample";
import type { DynoPull } from "../../../lib/dyno";
import type { CursorGrid } from "./cursor-grid";
import LogWorkerScript from "./log-worker?worker";
import type { XyPoints } from "./log-worker-analysis";
import type { WorkerRequest, WorkerResponse } from "./log-worker-protocol";

export interface LoadedLog {
  channels: DataLogChannel[];
  rowCount: number;
  durationSeconds: number;
  /** False while only the first channels are in (the rest are loading). */
  complete: boolean;
  /** The log's channels not in yet. */
  loading: string[];
  /** Bytes of typed arrays the worker holds, and the channel samples they store. */
  bytesHeld: number;
  samples: number;
}

export type ComputeResult =
  | { ok: true; min: number; max: number; mean: number }
  | { ok: false; message: string; position: number };

/** Byte offsets and lengths of the arrays in the columnar form (domain/logs/serialize.ts). */
export interface ColumnsOffsets {
  rows: number;
  time: { at: number; bytes: number };
  /** One per channel, in order and back to back: the last ends at `byteLength`. */
  columns: Array<{ at: number; bytes: number }>;
  byteLength: number;
  channels: DataLogChannel[];
  durationSeconds: number;
  /** The logger the form was parsed from (domain/logs FORMAT_IDS). */
  format: FormatId;
}

export interface ViewResult {
  /** The channels answered: those requested that are loaded. */
  ids: string[];
  series: SeriesPoints[];
  /** Of the samples the filter keeps, when one is applied. */
  stats: RangeStats[];
  grid: CursorGrid;
  /** The times the filter leaves out, as [from, to] pairs; null without a filter. */
  masked: Float64Array | null;
}

/** A filter applied (with the rows it keeps), or the expression's refusal. */
export type FilterResult = { ok: true; kept: number; rows: number } | { ok: false; message: string; position: number };

export interface ValuesAt {
  time: number;
  values: Record<string, number>;
}

type Body<T extends WorkerRequest["type"]> = Omit<Extract<WorkerRequest, { type: T }>, "id" | "type">;

export class LogWorker {
  private readonly worker = new LogWorkerScript();
  private next = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  constructor() {
    this.worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
      const waiting = this.pending.get(event.data.id);
      if (!waiting) return;
      this.pending.delete(event.data.id);
      if (event.data.ok) waiting.resolve(event.data.result);
      else waiting.reject(new Error(event.data.error));
    };
  }

  private send<T>(type: WorkerRequest["type"], body: object): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...body, type, id });
    });
  }

  /** The Blob is handed over by reference: its bytes are read once, in the worker. */
  load = (body: Body<"load">) => this.send<LoadedLog>("load", body);
  layout = (body: Body<"layout">) => this.send<ColumnsOffsets | { headerBytes: number }>("layout", body);
  time = (body: Body<"time">) => this.send<LoadedLog>("time", body);
  channel = (body: Body<"channel">) => this.send<LoadedLog>("channel", body);
  channels = (body: Body<"channels">) => this.send<LoadedLog>("channels", body);
  compute = (body: Body<"compute">) => this.send<ComputeResult>("compute", body);
  view = (body: Body<"view">) => this.send<ViewResult>("view", body);
  valuesAt = (body: Body<"valuesAt">) => this.send<ValuesAt>("valuesAt", body);
  /** Every sample between t0 and t1 of the named channels, as logged. */
  rows = (body: Body<"rows">) => this.send<{ time: Float64Array; values: Float32Array[] }>("rows", body);
  dyno = (body: Body<"dyno">) => this.send<DynoPull[]>("dyno", body);
  pulls = (body: Body<"pulls">) => this.send<Pull[]>("pulls", body);
  filter = (body: Body<"filter">) => this.send<FilterResult>("filter", body);
  xy = (body: Body<"xy">) => this.send<XyPoints>("xy", body);

  terminated = false;

  terminate(): void {
    this.terminated = true;
    this.worker.terminate();
    for (const waiting of this.pending.values()) waiting.reject(new Error("The log view was closed"));
    this.pending.clear();
  }
}

/**
 * Workers of analysis views that went off screen. A kept-alive page (src/lib/keep-alive.ts) is
 * hidden in React's <Activity>, which runs effect cleanups exactly as for a page that is gone: so a
 * view parks its worker instead of ending it, and when shown again takes it back with the columns
 * still loaded. Only the most recently parked are kept (each holds a whole log); older ones end.
 */
const PARKED_LIMIT = 2;
const parked: LogWorker[] = [];

export function parkWorker(worker: LogWorker): void {
  parked.push(worker);
  while (parked.length > PARKED_LIMIT) parked.shift()!.terminate();
}

/** Takes a parked worker back; false when it was ended meanwhile. */
export function unparkWorker(worker: LogWorker): boolean {
  const at = parked.indexOf(worker);
  if (at >= 0) parked.splice(at, 1);
  return !worker.terminated;
}
