/**
 * Corrections from logs: laying 10 logs of 100,000 rows on a 16 × 16 map (the tune viewer's
 * "Logs on this map" and the correction dialog, in the browser), and writing a correction of a
 * whole map into a 4 MiB image with its checksums fixed (the server's part of a correction, before
 * the revision's own checks).
 *
 *   npx tsx bench/log-corrections.ts
 */
import { readItem, writeCell } from "../domain/tune";
import { generateDemo } from "../server/seed/generator";
import { fixAll } from "../server/services/tune-engine";
import { type LogColumns, logsOnMap, mapOnAxes, proposeCorrection } from "../src/lib/logs-on-map";

const ROUNDS = 20;
const median = (times: number[]) => times.toSorted((a, b) => a - b)[Math.floor(times.length / 2)];
async function time(name: string, target: number, run: () => unknown) {
  for (let i = 0; i < 3; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  console.log(`${name.padEnd(60)} median ${median(times).toFixed(1)} ms (target ≤ ${target} ms)`);
}

const demo = generateDemo({ size: 4 * 1024 * 1024, itemCount: 40 });
const timing = demo.firmware.definition.items.find((item) => item.id === "ignition_base")!;
const values = readItem(demo.stock, timing);
const map = mapOnAxes(values)!;

/** A pull sweeping the map's rpm and load, knock correction pulling timing at high load. */
function log(seed: number, rows = 100_000): LogColumns {
  const names = ["Engine speed", "Load", "Knock correction"];
  const [rpm, load, knock] = names.map(() => new Float32Array(rows));
  for (let i = 0; i < rows; i++) {
    const t = (i + seed * 977) / rows;
    rpm[i] = 800 + ((t * 7919) % 1) * 6800;
    load[i] = 10 + ((t * 104729) % 1) * 135;
    knock[i] = load[i] > 100 && rpm[i] > 4000 ? -1.5 : 0;
  }
  const channels = names.map((name, k) => ({ id: `c${k}`, name, unit: ["rpm", "mg/stk", "°"][k] }));
  return { channels, columns: new Map([rpm, load, knock].map((column, k) => [`c${k}`, column])) };
}
const logs = Array.from({ length: 10 }, (_, k) => log(k));

await time("10 logs × 100,000 rows laid on a 16 × 16 map", 1000, () =>
  logsOnMap(logs, map, { x: "Load", y: "Engine speed", z: "Knock correction", minSamples: 1 }),
);
const correction = proposeCorrection(
  logs,
  map,
  { kind: "timing", x: "Load", y: "Engine speed", inputs: { correction: "Knock correction" } },
  { minSamples: 5, maxChangePerCell: { absolute: 3 } },
);
const cells = correction.cells.flatMap((cell, k) => (cell ? [{ k, value: cell.after }] : []));
console.log(`(${cells.length} of ${values.values.length} cells changed)`);
await time("the correction written into a 4 MiB image, checksums fixed", 50, async () => {
  const image = new Uint8Array(demo.stock);
  for (const { k, value } of cells) writeCell(image, timing, Math.floor(k / values.cols), k % values.cols, value);
  await fixAll(image, demo.firmware.checksums);
});
