/**
 * Log analysis (pulls, filters, X–Y) on a synthetic 1,000,000-row × 20-channel log held as the columns a
 * parsed log has (Float64 time, Float32 channels with gaps), against these targets:
 *   - a sample filter (`throttle > 90 && gear >= 3`) compiled and applied ≤ 100 ms,
 *   - pull detection with every summary (gear, boost, lambda, four cylinders' corrections) ≤ 100 ms,
 *   - lambda binned on a 16 × 16 rpm × boost map, every row, ≤ 100 ms,
 * and, without a target, the X–Y statistics of rpm against boost under that filter on a 16-cell
 * axis, and the points of that plot worth drawing 1,000 px wide.
 *
 *   npx tsx bench/log-analysis.ts
 *
 * Each figure: one warm-up run, then the median and the range of 7 runs in wall time and in the
 * process's CPU time (garbage collection included), with the load average, as the machine is shared.
 */
import { loadavg } from "node:os";
import { mapHistogram } from "../domain/logs/map-histogram";
import { findPulls } from "../domain/logs/pulls";
import { compileSampleFilter, keptCount } from "../domain/logs/sample-filter";
import { xyPointsToDraw, xyStatistics } from "../domain/logs/xy";

const ROWS = 1_000_000;
const HZ = 100;
/** A pull every minute: 5 s of full throttle from 2,000 to 6,500 rpm, then a lift to 2,500 rpm. */
const PULL_EVERY_S = 60;
const PULL_S = 5;
const RUNS = 7;
const TARGET_MS = { filter: 100, pulls: 100, histogram: 100 };

function syntheticLog() {
  const time = new Float64Array(ROWS);
  const names = ["rpm", "throttle", "gear", "boost", "lambda", "knock1", "knock2", "knock3", "knock4"];
  const fillers = Array.from({ length: 20 - names.length }, (_, k) => `channel${k + 1}`);
  const columns: Record<string, Float32Array> = {};
  for (const name of [...names, ...fillers]) columns[name] = new Float32Array(ROWS);
  const { rpm, throttle, gear, boost, lambda } = columns;
  for (let i = 0; i < ROWS; i++) {
    const t = i / HZ;
    time[i] = t;
    const phase = t % PULL_EVERY_S;
    const inPull = phase >= 10 && phase < 10 + PULL_S;
    const noise = Math.sin(i * 0.37) * 15;
    rpm[i] = (inPull ? 2000 + ((phase - 10) / PULL_S) * 4500 : 2500) + noise;
    throttle[i] = inPull ? 100 : 20 + Math.sin(t) * 10;
    gear[i] = 3 + (Math.floor(t / PULL_EVERY_S) % 3);
    boost[i] = inPull ? ((phase - 10) / PULL_S) * 20 : -5;
    lambda[i] = inPull ? 0.8 + Math.sin(i * 0.1) * 0.02 : 1;
    for (let c = 1; c <= 4; c++) columns[`knock${c}`][i] = inPull && i % (97 * c) === 0 ? -c : 0;
    for (let k = 0; k < fillers.length; k++) columns[fillers[k]][i] = Math.sin(i * 0.001 * (k + 1)) * 100;
  }
  // Gaps, as a logger leaves them: one sample in 1,000 of each channel.
  for (const column of Object.values(columns)) for (let i = 500; i < ROWS; i += 1000) column[i] = NaN;
  return { time, columns, pullsMade: Math.floor((ROWS / HZ - 10 - PULL_S) / PULL_EVERY_S) + 1 };
}

const summary = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    median: sorted[RUNS >> 1],
    text: `${sorted[RUNS >> 1].toFixed(1).padStart(6)} ms (${sorted[0].toFixed(1)}–${sorted[RUNS - 1].toFixed(1)})`,
  };
};

/** Wall time, and the process's CPU time: on a shared machine the gap between them is time spent waiting for a core. */
function measure(label: string, run: () => unknown, target?: number): void {
  run();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let k = 0; k < RUNS; k++) {
    const [start, cpuStart] = [performance.now(), process.cpuUsage()];
    run();
    wall.push(performance.now() - start);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
  }
  const [w, c] = [summary(wall), summary(cpu)];
  const verdict = target === undefined ? "" : `  target ≤ ${target} ms: ${w.median <= target ? "met" : "NOT MET"}`;
  console.log(`  ${label.padEnd(52)} wall ${w.text}  cpu ${c.text}${verdict}`);
}

const log = syntheticLog();
const { time, columns } = log;
console.log(`Log: ${ROWS.toLocaleString("en")} rows × ${Object.keys(columns).length} channels at ${HZ} Hz`);
console.log(
  `Load average at the start: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")}`,
);

const condition = "throttle > 90 && gear >= 3";
const mask = compileSampleFilter(condition, Object.keys(columns)).mask(columns, ROWS);
const pullInput = {
  time,
  rpm: columns.rpm,
  throttle: columns.throttle,
  gear: columns.gear,
  boost: columns.boost,
  mixture: { values: columns.lambda, kind: "lambda" as const },
  corrections: [1, 2, 3, 4].map((cylinder) => ({ cylinder, values: columns[`knock${cylinder}`] })),
};
const pulls = findPulls(pullInput);
console.log(
  `  filter keeps ${keptCount(mask).toLocaleString("en")} rows; ${pulls.length} pulls found of ${log.pullsMade} made`,
);
const axis = Array.from({ length: 16 }, (_, k) => 1000 + k * 400);
const boostAxis = Array.from({ length: 16 }, (_, k) => -5 + k * 1.6);

measure(
  `filter "${condition}", compiled and applied`,
  () => compileSampleFilter(condition, Object.keys(columns)).mask(columns, ROWS),
  TARGET_MS.filter,
);
measure("pull detection with every summary", () => findPulls(pullInput), TARGET_MS.pulls);
measure(
  "histogram, lambda on 16 × 16 rpm × boost, every row",
  () =>
    mapHistogram(
      { x: columns.rpm, y: columns.boost, z: columns.lambda },
      { xBreakpoints: axis, yBreakpoints: boostAxis, minSamples: 10 },
    ),
  TARGET_MS.histogram,
);
measure("X–Y statistics, rpm × boost, 16-cell axis, masked", () =>
  xyStatistics({ x: columns.rpm, y: columns.boost, mask }, axis),
);
measure("X–Y points to draw, 1,000 px, masked", () => xyPointsToDraw({ x: columns.rpm, y: columns.boost, mask }, 2000));
console.log(
  `Load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")}`,
);
