/**
 * Where a page's cold load spends the main thread, by script and by function: the question behind a page's
 * total blocking time, which Lighthouse answers only by script.
 *
 *   npx tsx bench/cold-load-profile.ts [--path /dashboard | --path log] [--signed-out] [--seconds 8] [--dist DIR] [--callers NAME] [--names]
 *
 * Opens the page on the production build as a phone (412 × 823, 4× slower CPU, as Lighthouse's mobile
 * profile; the network is not slowed), signed in as a new customer unless `--signed-out`, with the HTTP
 * cache cleared, and samples Chromium's CPU profiler for `--seconds` from the navigation. Prints the
 * long tasks, the self time by script (the browser's own work — style, layout, compiling — is
 * "(program)"), the costliest functions with their place in the built file, and React's commits with
 * the number of components each rendered (counted through React's devtools hook). With `--callers`,
 * also the stacks (the six frames above it) through which a function of that name spent its self time:
 * a helper's cost (babel's object spread, a hash) belongs to whoever calls it. With `--names`, the
 * components each large commit rendered, most frequent first.
 */
import type { CDPSession } from "playwright-core";
import { benchPath, phonePage, startBrowserPortal } from "./lib/browser-portal";

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const PATH_ARG = arg("--path") ?? "/dashboard";
const SIGNED_IN = !process.argv.includes("--signed-out");
const SECONDS = Number(arg("--seconds") ?? 8);
const CALLERS = arg("--callers");

/**
 * Runs in the page before its scripts: records long tasks and, as React's devtools hook, each commit's
 * count of components rendered, with their names.
 * A string, not a function: tsx would wrap a function's inner functions in a helper the page lacks.
 */
const PAGE_PROBE = `
  window.__probe = { long: [], commits: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__probe.long.push([Math.round(entry.startTime), Math.round(entry.duration)]);
  }).observe({ type: "longtask", buffered: true });
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    renderers: new Map(), supportsFiber: true, checkDCE() {}, inject() { return 1; },
    onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
    onCommitFiberRoot(_id, root) {
      let count = 0;
      const names = {};
      const starts = {};
      const nameOf = (type) => type.displayName || type.name || (type.render && (type.render.displayName || type.render.name)) || (type.type && nameOf(type.type)) || (type._context ? "Context" : type.$$typeof ? String(type.$$typeof).slice(13, -1) : "?");
      // As React's devtools count: a fiber rendered when it is new or did work in this commit; a subtree
      // whose children are the previous tree's own was not visited at all (its flags are from before).
      const walk = (fiber) => {
        for (; fiber; fiber = fiber.sibling) {
          const was = fiber.alternate;
          if (typeof fiber.type !== "string" && fiber.type && (!was || (fiber.flags & 1) === 1)) {
            count++;
            const name = nameOf(fiber.type);
            names[name] = (names[name] || 0) + 1;
            // Where a commit starts: a component already mounted that rendered with the same props.
            if (was && fiber.memoizedProps === was.memoizedProps) starts[name] = (starts[name] || 0) + 1;
          }
          if (!was || fiber.child !== was.child) walk(fiber.child);
        }
      };
      walk(root.current.child);
      const top = Object.entries(names).sort((a, b) => b[1] - a[1]).slice(0, 12).map(([name, n]) => name + " " + n).join(", ");
      const started = Object.entries(starts).map(([name, n]) => name + " " + n).join(", ");
      window.__probe.commits.push([Math.round(performance.now()), count, top + " | rendered with the same props: " + started]);
    },
  };
`;

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

async function profileLoad(cdp: CDPSession, load: () => Promise<unknown>) {
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  await load();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const { profile } = await cdp.send("Profiler.stop");
  const nodes = new Map((profile.nodes as ProfileNode[]).map((node) => [node.id, node]));
  const bySample = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => {
    bySample.set(id, (bySample.get(id) ?? 0) + (deltas[i + 1] ?? 0));
  });
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, micros] of bySample) {
    const frame = nodes.get(id)!.callFrame;
    // Samples outside any script are named by what ran: "(program)" (the browser's own work), "(idle)", "(garbage collector)", a native function.
    const script = frame.url.replace(/^https?:\/\/[^/]+/, "") || frame.functionName || "(native)";
    byScript.set(script, (byScript.get(script) ?? 0) + micros);
    if (!frame.url) continue;
    const key = `${frame.functionName || "(anonymous)"} ${script}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .filter(([key]) => key !== "(idle)")
      .sort((a, b) => b[1] - a[1])
      .slice(0, n);
  return {
    scripts: top(byScript, 15),
    functions: top(byFunction, 20),
    callers: CALLERS ? top(stacksOf(CALLERS, nodes, bySample), 12) : [],
  };
}

/** Self time of the functions named `name` (or at a place, `dist-X.js:9622:46`), by the six frames above them. */
function stacksOf(name: string, nodes: Map<number, ProfileNode>, bySample: Map<number, number>): Map<string, number> {
  const parents = new Map<number, number>();
  for (const node of nodes.values()) for (const child of node.children ?? []) parents.set(child, node.id);
  const frameName = (frame: ProfileNode["callFrame"]) =>
    `${frame.functionName || "(anonymous)"}@${frame.url.replace(/^.*\/assets\//, "")}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
  const stacks = new Map<string, number>();
  for (const [id, micros] of bySample) {
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName !== name && !frameName(frame).includes(`@${name}`)) continue;
    const frames: string[] = [];
    for (let at = parents.get(id); at !== undefined && frames.length < 6; at = parents.get(at))
      frames.push(frameName(nodes.get(at)!.callFrame));
    const key = frames.join(" < ");
    stacks.set(key, (stacks.get(key) ?? 0) + micros);
  }
  return stacks;
}

const portal = await startBrowserPortal({ distDir: arg("--dist") });
try {
  const { context, page, user } = await phonePage(portal, SIGNED_IN);
  const PATH = await benchPath(portal, user, PATH_ARG);
  await page.addInitScript(PAGE_PROBE);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.clearBrowserCache");
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const { scripts, functions, callers } = await profileLoad(cdp, () =>
    page.goto(`${portal.origin}${PATH}`, { waitUntil: "load" }),
  );
  const probe = (await page.evaluate("window.__probe")) as {
    long: number[][];
    commits: Array<[number, number, string]>;
  };

  console.log(`${PATH}${SIGNED_IN ? " signed in" : ""}: cold load, 4× slower CPU, ${SECONDS} s sampled\n`);
  const blocking = probe.long.reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
  console.log(
    `long tasks (start+ms): ${probe.long.map(([at, duration]) => `${at}+${duration}`).join(" ")}; over 50 ms in all: ${blocking} ms`,
  );
  console.log(
    `self time by script (ms): ${scripts.map(([script, micros]) => `${script} ${(micros / 1000).toFixed(0)}`).join(", ")}`,
  );
  console.log("costliest functions (self ms):");
  for (const [name, micros] of functions) console.log(`  ${(micros / 1000).toFixed(0).padStart(5)}  ${name}`);
  if (CALLERS) {
    console.log(`${CALLERS}'s self time by the frames above it (self ms):`);
    for (const [stack, micros] of callers) console.log(`  ${(micros / 1000).toFixed(0).padStart(5)}  ${stack}`);
  }
  console.log(
    `React commits (at ms: components rendered): ${probe.commits.map(([at, count]) => `${at}: ${count}`).join(", ")}`,
  );
  if (process.argv.includes("--names")) {
    // Names survive in a build without minifying (vite build --minify false --outDir DIR, then --dist DIR).
    console.log("components rendered by commits of over 80:");
    for (const [at, count, names] of probe.commits) if (count > 80) console.log(`  ${at} (${count}): ${names}`);
  }
} finally {
  await portal.close();
}
