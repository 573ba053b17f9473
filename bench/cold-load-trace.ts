/**
 * What each long task of a page's cold load holds: the browser's own trace events (parsing a sheet,
 * evaluating modules, requesting them, a microtask checkpoint, a timer, React's scheduler) and, from
 * the CPU profile taken at the same time, the scripts and functions that ran in it. The question
 * `bench/cold-load-profile.ts` leaves open: it sums the whole load, this splits it by task (a render
 * that React did at once shows as one task of a microtask checkpoint, a sliced one as many
 * `performWorkUntilDeadline`).
 *
 *   npx tsx bench/cold-load-trace.ts [--path /dashboard | --path log] [--dist DIR] [--min-ms 30] [--forced]
 *
 * `--path log` opens a log the new customer uploads first (`BENCH_LOG_FIXTURE`). Signed in as a new customer, a phone (412 × 823) with a 4× slower CPU, the HTTP cache cleared;
 * tasks of at least `--min-ms` on the page's main thread, in ms from the first task traced.
 * Function names survive in a build without minifying (`vite build --minify false --outDir DIR`).
 * `--forced` adds the style recalculations and layouts that a script forced (it read a size, set a
 * canvas font while the page's style was out of date), summed by the script's first frames: work the
 * browser would otherwise do once per frame, done again in the middle of a task.
 */
import type { CDPSession } from "playwright-core";
import { benchPath, phonePage, startBrowserPortal } from "./lib/browser-portal";
import {
  eventsInside,
  longTasks,
  mainThreadEvents,
  type Profile,
  samplesIn,
  shortUrl,
  type TraceEvent,
  top,
} from "./lib/trace-tasks";

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const PATH_ARG = arg("--path") ?? "/dashboard";
const MIN_MS = Number(arg("--min-ms") ?? 30);
const FORCED = process.argv.includes("--forced");
const TRACE_CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "toplevel",
  "blink",
  "loading",
];
// The JavaScript stack of each forced style recalculation and layout.
if (FORCED) TRACE_CATEGORIES.push("disabled-by-default-devtools.timeline.stack");

type StackFrame = { functionName: string; url: string; lineNumber: number };

/** Forced style recalculations and layouts on the main thread, summed by the first frames of the script that forced them. */
function forcedByCaller(onMain: TraceEvent[]) {
  const byCaller = new Map<string, { count: number; us: number }>();
  for (const event of onMain) {
    if (event.name !== "Layout" && event.name !== "UpdateLayoutTree") continue;
    const args = event.args as
      | { beginData?: { stackTrace?: StackFrame[] }; data?: { stackTrace?: StackFrame[] } }
      | undefined;
    const stack = args?.beginData?.stackTrace ?? args?.data?.stackTrace;
    if (!stack?.length) continue;
    const caller = stack
      .slice(0, 4)
      .map((frame) => `${frame.functionName || "(anonymous)"} ${shortUrl(frame.url)}:${frame.lineNumber}`)
      .join(" ← ");
    const key = `${event.name === "Layout" ? "layout" : "style"} ← ${caller}`;
    const entry = byCaller.get(key) ?? { count: 0, us: 0 };
    entry.count += 1;
    entry.us += event.dur!;
    byCaller.set(key, entry);
  }
  return [...byCaller].sort((a, b) => b[1].us - a[1].us);
}

async function traceLoad(
  cdp: CDPSession,
  start: () => Promise<void>,
  stop: () => Promise<Buffer>,
  load: () => Promise<unknown>,
) {
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
    () => portal.browser.startTracing(page, { categories: TRACE_CATEGORIES }),
    () => portal.browser.stopTracing(),
    () => page.goto(`${portal.origin}${PATH}`, { waitUntil: "load" }),
  );

  const onMain = mainThreadEvents(events);
  const origin = onMain[0]?.ts ?? 0;
  const samplesOf = samplesIn(profile);

  console.log(`${PATH} signed in: cold load, 4× slower CPU; tasks of ${MIN_MS} ms or more (ms from the first task)\n`);
  for (const task of longTasks(onMain, MIN_MS)) {
    const { scripts, functions } = samplesOf(task.ts, task.ts + task.dur!);
    console.log(
      `task at ${((task.ts - origin) / 1000).toFixed(0)} ms, ${(task.dur! / 1000).toFixed(0)} ms: ${top(eventsInside(onMain, task), 8, 1000)}`,
    );
    console.log(`  samples by script: ${top(scripts, 8, 1)}`);
    console.log(`  samples by function: ${top(functions, 10, 1)}`);
  }
  if (FORCED) {
    const forced = forcedByCaller(onMain);
    console.log(
      `\nforced style and layout: ${(forced.reduce((sum, [, entry]) => sum + entry.us, 0) / 1000).toFixed(1)} ms in ${forced.reduce((sum, [, entry]) => sum + entry.count, 0)}, by the script that forced it`,
    );
    for (const [caller, entry] of forced.slice(0, 20))
      console.log(`  ${(entry.us / 1000).toFixed(1)} ms in ${entry.count}: ${caller}`);
  }
} finally {
  await portal.close();
}
