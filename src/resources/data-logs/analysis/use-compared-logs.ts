/**
 * The logs overlaid on the one being read: each in a worker of its own, loaded as the log being
 * read is (the channels matching the charted ones first, load-columns.ts), its channels matched to
 * this log's by role (domain/logs/compare.ts), its pulls found with the default thresholds once it
 * is all in, and its offset on this log's time axis.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import type { DataLogChannel } from "../../../../contracts/data-logs";
import type { FormatId } from "../../../../domain/logs";
import { matchChannels } from "../../../../domain/logs/compare";
import type { Pull } from "../../../../domain/logs/pulls";
import { loadColumns } from "./load-columns";
import { LogWorker } from "./log-worker-client";
import { pullChannels } from "./pull-channels";

/** At most this many logs beside the one being read: four lines of one colour stay apart by their dashes. */
export const MAX_COMPARED = 3;
/** The line style of each compared log in turn; the log being read is drawn solid. */
export const COMPARE_DASHES: readonly number[][] = [
  [8, 4],
  [2, 3],
  [12, 3, 2, 3],
];

export type Alignment = "time" | "pull";

/** What a comparison is, as the URL keeps it. */
export interface ComparisonState {
  ids: string[];
  align: Alignment;
  /** Aligned at a pull: the start (s) of this log's pull the others meet; absent, its first pull. */
  at?: number;
  /** Aligned at a pull: each compared log's pull, by its place in that log's list (else its first). */
  pulls?: number[];
  /** A shared comparison: each log's offset as it was shared, whatever the alignment. */
  offsets?: ReadonlyMap<string, number>;
}

export interface ComparedLog {
  id: string;
  title: string;
  dash: number[];
  status: "loading" | "ready" | "failed";
  failure?: string;
  worker: LogWorker;
  channels: DataLogChannel[];
  format?: FormatId;
  durationSeconds: number;
  /** Every channel in (the first part draws before). */
  complete: boolean;
  pulls: Pull[];
  /** This log's channel id → the compared log's channel that measures the same. */
  matches: Map<string, DataLogChannel>;
  /** Added to the compared log's times to place them on this log's axis. */
  offset: number;
  /** The pull aligned with this log's when aligned at a pull (an index into `pulls`). */
  pull: number;
}

interface Loaded {
  worker: LogWorker;
  status: ComparedLog["status"];
  failure?: string;
  channels: DataLogChannel[];
  format?: FormatId;
  durationSeconds: number;
  complete: boolean;
  pulls: Pull[];
}

export interface ComparedLogsInput {
  state: ComparisonState;
  titleOf: (id: string) => string;
  fetchFor: (id: string) => (range?: { start: number; end: number }) => Promise<Blob>;
  /** This log's channels and logger, for the matching. */
  base: { channels: readonly DataLogChannel[]; format?: FormatId };
  /** This log's charted channels: their matches are loaded first. */
  charted: readonly string[];
  /** The start of this log's pull the others are aligned to, when aligned at a pull. */
  basePullStart: number | null;
}

export function useComparedLogs({ state, titleOf, fetchFor, base, charted, basePullStart }: ComparedLogsInput) {
  const { ids, align, pulls: pullChoice, offsets } = state;
  const [loaded, setLoaded] = useState<ReadonlyMap<string, Loaded>>(new Map());
  const workers = useRef(new Map<string, LogWorker>());
  // Read when a compared log's header is in: what is charted then comes first. Its header is fetched
  // beside this log's; the matching waits for this log's channel list when it is not in yet.
  const latest = useRef({ base, charted });
  latest.current = { base, charted };
  const baseKnown = useRef<{ known: Promise<void>; tell: () => void } | null>(null);
  if (!baseKnown.current) {
    let tell = () => {};
    const known = new Promise<void>((resolve) => (tell = resolve));
    baseKnown.current = { known, tell };
  }
  if (base.channels.length > 0) baseKnown.current.tell();

  const key = ids.join();
  useEffect(() => {
    const wanted = new Set(ids);
    for (const [id, worker] of workers.current)
      if (!wanted.has(id)) {
        worker.terminate();
        workers.current.delete(id);
      }
    setLoaded((was) => new Map([...was].filter(([id]) => wanted.has(id))));
    for (const id of wanted) {
      if (workers.current.has(id)) continue;
      const worker = new LogWorker();
      workers.current.set(id, worker);
      const put = (entry: Omit<Loaded, "worker">) =>
        !worker.terminated && setLoaded((was) => new Map(was).set(id, { worker, ...entry }));
      put({ status: "loading", channels: [], durationSeconds: 0, complete: false, pulls: [] });
      (async () => {
        let format: FormatId | undefined;
        await loadColumns(worker, fetchFor(id), {
          onLayout: (layout) => (format = layout.format),
          first: async (layout) => {
            await baseKnown.current?.known;
            const matches = matchChannels(latest.current.base, layout);
            return latest.current.charted.flatMap((charted) => matches.get(charted) ?? []);
          },
          onReady: (summary, first) => {
            const ready = { status: "ready" as const, channels: summary.channels, format };
            const { durationSeconds, complete } = summary;
            if (first && !complete) return put({ ...ready, durationSeconds, complete, pulls: [] });
            // Every channel in: the pulls can be found.
            const roles = pullChannels(summary.channels, format);
            const found = roles ? worker.pulls({ channels: roles, thresholds: {} }) : Promise.resolve([]);
            found.then((pulls) => put({ ...ready, durationSeconds, complete, pulls }));
          },
        });
      })().catch((error: Error) =>
        put({ status: "failed", failure: error.message, channels: [], durationSeconds: 0, complete: false, pulls: [] }),
      );
    }
  }, [key]);
  // The workers end with the view.
  useEffect(
    () => () => {
      for (const worker of workers.current.values()) worker.terminate();
      workers.current.clear();
    },
    [],
  );

  const compared = useMemo<ComparedLog[]>(
    () =>
      ids.flatMap((id, k) => {
        const entry = loaded.get(id);
        if (!entry) return [];
        const pull = Math.min(pullChoice?.[k] ?? 0, Math.max(0, entry.pulls.length - 1));
        const theirs = entry.pulls[pull];
        const aligned = align === "pull" && basePullStart !== null && theirs ? basePullStart - theirs.startTime : 0;
        const offset = offsets ? (offsets.get(id) ?? 0) : aligned;
        return [
          {
            id,
            title: titleOf(id),
            dash: COMPARE_DASHES[k % COMPARE_DASHES.length],
            ...entry,
            matches: entry.status === "ready" ? matchedChannels(base, entry.channels, entry.format) : new Map(),
            offset,
            pull,
          },
        ];
      }),
    [ids, loaded, pullChoice, align, basePullStart, base, titleOf, offsets],
  );
  return compared;
}

/** This log's channel ids with the compared log's channels that measure the same. */
function matchedChannels(
  base: ComparedLogsInput["base"],
  channels: DataLogChannel[],
  format: FormatId | undefined,
): Map<string, DataLogChannel> {
  const byId = new Map(channels.map((channel) => [channel.id, channel]));
  return new Map(
    [...matchChannels(base, { channels, format })].map(([baseId, theirId]) => [baseId, byId.get(theirId)!]),
  );
}
