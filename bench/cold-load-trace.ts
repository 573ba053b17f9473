/**
 * What each long task of a page's cold load holds: the browser's own trace events (parsing a sheet,
 * evaluating modules, requesting them, a microtask checkpoint, a timer, React's scheduler) and, from
 * the CPU profile taken at the same time, the scripts and functions that ran in it. The question
 * `bench/cold-load-profile.ts` leaves open: it sums the whole load, this splits it by task (a render
 * that React did at once shows as one task of a microtask checkpoint, a sliced one as many
 * `performWorkUntilDeadline`).
 *
 *   npx tsx bench/cold-load-trace.ts [--path /dashboard | --path log] [--dist DIR] [--min-ms 30]
 *
 * `--path log` opens a log the new customer uploads first (`BENCH_LOG_FIXTURE`). Signed in as a new customer, a phone (412 × 823) with a 4× slower CPU, the HTTP cache cleared;
 * tasks of at least `--min-ms` on the page's main thread, in ms from the first task traced.
 * Function names survive in a build without minifying (`vite build --minify false --outDir DIR`).
 */
import type { CDPSession } from "playwright-core";
import { benchPath, phonePage, startBrowserPortal } from "./lib/browser-portal";

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const PATH_ARG = arg("--path") ?? "/dashboard";
const MIN_MS = Number(arg("--min-ms") ?? 30);

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string } };
}
interface Profile {
  startTime: number;
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

const shortUrl = (url: string) => url.replace(/^https?:\/\/[^/]+/, "").replace(/^\/assets\//, "");
const top = (map: Map<string, number>, n: number, unit: number) =>
  [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([key, value]) => `${key} ${(value / unit).toFixed(0)}`).join(", ");

async function traceLoad(cdp: CDPSession, start: () => Promise<void>, stop: () => Promise<Buffer>, load: () => Promise<unknown>) {
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  await start();
  await load();
  await new Promise((resolve) => setTimeout(resolve, 6000));
  const trace = await stop();
  const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: Profile };
  const parsed = JSON.parse(trace.toString()) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return { events: Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []), profile };
}

const portal = await startBrowserPortal({ distDir: arg("--dist") });
try {
  const { context, page, user } = await phonePage(portal);
  const PATH = await benchPath(portal, user, PATH_ARG);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.clearBrowserCache");
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const { events, profile } = await traceLoad(
    cdp,
    () => portal.browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "toplevel", "blink", "loading"] }),
    () => portal.browser.stopTracing(),
    () => page.goto(`${portal.origin}${PATH}`, { waitUntil: "load" }),
  );

  // The page's main thread: the renderer thread that parsed the page's HTML.
  const parsers = new Set(events.filter((event) => event.name === "ParseHTML").map((event) => `${event.pid}:${event.tid}`));
  const onMain = events
    .filter((event) => event.ph === "X" && event.dur !== undefined && parsers.has(`${event.pid}:${event.tid}`))
    .sort((a, b) => a.ts - b.ts);
  const origin = onMain[0]?.ts ?? 0;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const parents = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node.id] as const)));
  /** The nearest caller with a script: a native call (a forced layout, say) is named by who made it. */
  const scriptedCaller = (id: number) => {
    for (let at = parents.get(id); at !== undefined; at = parents.get(at)) if (nodes.get(at)!.url) return nodes.get(at)!;
    return undefined;
  };
  const samples: Array<[number, number]> = [];
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    samples.push([at, id]);
  });

  console.log(`${PATH} signed in: cold load, 4× slower CPU; tasks of ${MIN_MS} ms or more (ms from the first task)\n`);
  for (const task of onMain.filter((event) => event.name === "RunTask" && event.dur! >= MIN_MS * 1000)) {
    const end = task.ts + task.dur!;
    const inside = new Map<string, number>();
    for (const event of onMain) {
      if (event === task || event.ts < task.ts || event.ts + event.dur! > end) continue;
      const url = event.args?.data?.url;
      const name = `${event.name}${url && /EvaluateScript|FunctionCall|TimerFire/.test(event.name) ? ` ${shortUrl(url)}` : ""}${event.name === "FunctionCall" && event.args?.data?.functionName ? ` ${event.args.data.functionName}` : ""}`;
      inside.set(name, (inside.get(name) ?? 0) + event.dur!);
    }
    const scripts = new Map<string, number>();
    const functions = new Map<string, number>();
    for (const [time, id] of samples) {
      if (time < task.ts || time > end) continue;
      const frame = nodes.get(id)!;
      const script = shortUrl(frame.url) || frame.functionName || "(native)";
      scripts.set(script, (scripts.get(script) ?? 0) + 1);
      const caller = frame.url ? undefined : scriptedCaller(id);
      const named = frame.url ? frame : caller;
      if (named) {
        const key = `${caller ? `${frame.functionName} from ` : ""}${named.functionName || "(anonymous)"} ${shortUrl(named.url)}:${named.lineNumber + 1}`;
        functions.set(key, (functions.get(key) ?? 0) + 1);
      }
    }
    console.log(`task at ${((task.ts - origin) / 1000).toFixed(0)} ms, ${(task.dur! / 1000).toFixed(0)} ms: ${top(inside, 8, 1000)}`);
    console.log(`  samples by script: ${top(scripts, 8, 1)}`);
    console.log(`  samples by function: ${top(functions, 10, 1)}`);
  }
} finally {
  await portal.close();
}
