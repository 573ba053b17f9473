/**
 * The main thread's tasks in a Chromium trace, and what each holds: shared by the cold-load trace
 * (a real 4× slower CPU) and the Lighthouse bench (an unthrottled load that Lighthouse then
 * simulates on a 4× slower CPU, where every task over 12.5 ms becomes one that blocks).
 */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event (µs): unlike `dur`, it leaves out the time the thread waited for a core. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; frame?: string; data?: { url?: string; functionName?: string; frame?: string } };
}

/** A CPU profile's call tree and samples (the Profiler domain's, or a trace's ProfileChunk events put together). */
export interface Profile {
  startTime: number;
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    parent?: number;
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

export const shortUrl = (url: string | undefined) =>
  (url ?? "").replace(/^https?:\/\/[^/]+/, "").replace(/^\/assets\//, "");

/** The largest entries of `map`, as "key value" with values divided by `unit`. */
export const top = (map: Map<string, number>, n: number, unit: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, value]) => `${key} ${(value / unit).toFixed(0)}`)
    .join(", ");

/**
 * The complete events of the page's main thread, in order: of the renderer threads that parsed HTML
 * (a trace can hold the page before, about:blank and the page), the one busiest with tasks.
 */
export function mainThreadEvents(events: TraceEvent[]): TraceEvent[] {
  const parsers = new Set(
    events.filter((event) => event.name === "ParseHTML").map((event) => `${event.pid}:${event.tid}`),
  );
  const busy = new Map<string, number>();
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    if (event.name === "RunTask" && parsers.has(thread)) busy.set(thread, (busy.get(thread) ?? 0) + (event.dur ?? 0));
  }
  const main = [...busy].sort((a, b) => b[1] - a[1])[0]?.[0];
  return events
    .filter((event) => event.ph === "X" && event.dur !== undefined && `${event.pid}:${event.tid}` === main)
    .sort((a, b) => a.ts - b.ts);
}

/** The main thread's top-level tasks of at least `minMs`. */
export const longTasks = (onMain: TraceEvent[], minMs: number) =>
  onMain.filter((event) => event.name === "RunTask" && event.dur! >= minMs * 1000);

/** The trace events inside `task`, summed by name (a script's evaluation and a call by their script, a call by its function), in µs. */
export function eventsInside(onMain: TraceEvent[], task: TraceEvent): Map<string, number> {
  const end = task.ts + task.dur!;
  const inside = new Map<string, number>();
  for (const event of onMain) {
    if (event === task || event.ts < task.ts || event.ts + event.dur! > end) continue;
    const url = event.args?.data?.url;
    const name = `${event.name}${url && /EvaluateScript|FunctionCall|TimerFire/.test(event.name) ? ` ${shortUrl(url)}` : ""}${event.name === "FunctionCall" && event.args?.data?.functionName ? ` ${event.args.data.functionName}` : ""}`;
    inside.set(name, (inside.get(name) ?? 0) + event.dur!);
  }
  return inside;
}

/** The samples of `profile` by the script and by the function they were in, for a window of time (µs, the trace's clock). */
export function samplesIn(profile: Profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) {
    if (node.parent !== undefined) parents.set(node.id, node.parent);
    for (const child of node.children ?? []) parents.set(child, node.id);
  }
  /** The nearest caller with a script: a native call (a forced layout, say) is named by who made it. */
  const scriptedCaller = (id: number) => {
    for (let at = parents.get(id); at !== undefined; at = parents.get(at))
      if (nodes.get(at)!.url) return nodes.get(at)!;
    return undefined;
  };
  const samples: Array<[number, number]> = [];
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    samples.push([at, id]);
  });
  return (from: number, to: number) => {
    const scripts = new Map<string, number>();
    const functions = new Map<string, number>();
    for (const [time, id] of samples) {
      if (time < from || time > to) continue;
      const frame = nodes.get(id);
      if (!frame) continue;
      const script = shortUrl(frame.url) || frame.functionName || "(native)";
      scripts.set(script, (scripts.get(script) ?? 0) + 1);
      const caller = frame.url ? undefined : scriptedCaller(id);
      const named = frame.url ? frame : caller;
      if (named) {
        const key = `${caller ? `${frame.functionName} from ` : ""}${named.functionName || "(anonymous)"} ${shortUrl(named.url)}:${(named.lineNumber ?? -1) + 1}`;
        functions.set(key, (functions.get(key) ?? 0) + 1);
      }
    }
    return { scripts, functions };
  };
}

/**
 * The CPU profile a trace holds when recorded with `disabled-by-default-v8.cpu_profiler`: its
 * Profile event and ProfileChunk events put together, for the page's main thread.
 */
export function profileFromTrace(events: TraceEvent[], mainThread: { pid: number; tid: number }): Profile | undefined {
  type Chunk = { cpuProfile?: { nodes?: Profile["nodes"]; samples?: number[] }; timeDeltas?: number[] };
  const head = events.find(
    (event) => event.name === "Profile" && event.pid === mainThread.pid && event.tid === mainThread.tid,
  ) as (TraceEvent & { id?: string; args: { data?: { startTime?: number } } }) | undefined;
  if (!head) return undefined;
  const id = (head as { id?: string }).id;
  const profile: Profile = { startTime: head.args.data?.startTime ?? head.ts, nodes: [], samples: [], timeDeltas: [] };
  for (const event of events) {
    if (event.name !== "ProfileChunk" || event.pid !== mainThread.pid || (event as { id?: string }).id !== id) continue;
    const data = (event.args as { data?: Chunk } | undefined)?.data;
    profile.nodes.push(...(data?.cpuProfile?.nodes ?? []));
    profile.samples.push(...(data?.cpuProfile?.samples ?? []));
    profile.timeDeltas.push(...(data?.timeDeltas ?? []));
  }
  return profile;
}
