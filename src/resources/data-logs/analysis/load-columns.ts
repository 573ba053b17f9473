/**
 * Loads a log's columnar form into its worker in parts, so the view draws before the whole log is
 * in: the header first (the channel list), then time and the channels the view opens with, then
 * every other channel in one request. Used for the log being read and for each compared log.
 */
import type { ColumnsOffsets, LoadedLog, LogWorker } from "./log-worker-client";

/** The first request: the columnar form's preamble and JSON header fit in this for logs of a few hundred channels. */
const HEAD_BYTES = 64 * 1024;

type FetchColumns = (range?: { start: number; end: number }) => Promise<Blob>;

export interface LoadSteps {
  /** The header is in: the channels and the logger. */
  onLayout?: (layout: ColumnsOffsets) => void;
  /** The channel ids to load before the rest, read from the header (when they are known). */
  first: (layout: ColumnsOffsets) => readonly string[] | Promise<readonly string[]>;
  /** After the first part (`first` true) and again once every channel is in. */
  onReady: (summary: LoadedLog, first: boolean) => void;
}

export async function loadColumns(log: LogWorker, fetchColumns: FetchColumns, steps: LoadSteps): Promise<void> {
  let head = await fetchColumns({ start: 0, end: HEAD_BYTES - 1 });
  let layout = await log.layout({ blob: head });
  if ("headerBytes" in layout) {
    head = await fetchColumns({ start: 0, end: layout.headerBytes - 1 });
    layout = await log.layout({ blob: head });
  }
  if ("headerBytes" in layout) throw new Error("The log's header did not arrive whole");
  steps.onLayout?.(layout);
  // A small log, or a server that sent the whole form instead of the range.
  if (head.size >= layout.byteLength) return steps.onReady(await log.load({ blob: head }), true);
  const channelIds = layout.channels.map((channel) => channel.id);
  // The first bytes hold more than the header (with deflated arrays, often the time and the
  // first channels): what they hold is taken from them, only the rest is fetched.
  const inHead = head.size;
  const range = async ({ at, bytes }: { at: number; bytes: number }): Promise<Blob> => {
    const end = at + bytes;
    if (end <= inHead) return head.slice(at, end);
    if (at >= inHead) return fetchColumns({ start: at, end: end - 1 });
    return new Blob([head.slice(at), await fetchColumns({ start: inHead, end: end - 1 })]);
  };
  // The first channels' bytes by where they start: the rest is fetched around them, not again.
  const fetched = new Map<number, Blob>();
  const first = [...new Set(await steps.first(layout))]
    .map((id) => channelIds.indexOf(id))
    .filter((index) => index >= 0);
  const columns = layout.columns;
  const parts = await Promise.all([
    range(layout.time).then((blob) => log.time({ blob })),
    ...first.map((index) =>
      range(columns[index]).then((blob) => {
        fetched.set(columns[index].at, blob);
        return log.channel({ index, blob });
      }),
    ),
  ]);
  // Each answer counts what the worker held when it came; the fullest is the last.
  steps.onReady(
    parts.reduce((a, b) => (b.bytesHeld > a.bytesHeld ? b : a)),
    true,
  );
  const channelsAt = columns[0]?.at ?? layout.byteLength;
  // The first channels need not be the file's first (they come by role), so the gaps between
  // them are fetched and joined with what is held.
  const pieces: Promise<Blob>[] = [];
  let at = channelsAt;
  for (const [start, blob] of [...fetched].sort(([a], [b]) => a - b)) {
    if (start < at) continue;
    if (start > at) pieces.push(range({ at, bytes: start - at }));
    pieces.push(Promise.resolve(blob));
    at = start + blob.size;
  }
  if (at < layout.byteLength) pieces.push(range({ at, bytes: layout.byteLength - at }));
  steps.onReady(await log.channels({ blob: new Blob(await Promise.all(pieces)) }), false);
}
