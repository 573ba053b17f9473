/**
 * Data-log parsing and chart downsampling at the sizes the issue sets:
 * a 1,000,000-row × 20-channel CSV (about 150 MB) parsed into columns in ≤ 2 s, next to a
 * naive split-and-parseFloat reader; then 1,000,000 points reduced to a 1,000 px view.
 *
 *   npx tsx bench/parse-log.ts
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { deserializeColumns, parseLog, serializeColumns } from "../domain/logs";
import { lttb, minMaxPerPixel } from "../src/lib/downsample";
import { generateCsv } from "./lib/generate-log";

const ROWS = 1_000_000;
const CHANNELS = 20;
const TARGET_SECONDS = 2;
const MiB = 1024 * 1024;

/** The baseline: what one writes without thinking about speed. */
function naiveParse(bytes: Uint8Array): { time: Float64Array; columns: Float32Array[] } {
  const lines = new TextDecoder().decode(bytes).split("\n");
  const width = lines[0].split(",").length;
  const rows = lines.length - 2;
  const time = new Float64Array(rows);
  const columns = Array.from({ length: width - 1 }, () => new Float32Array(rows));
  for (let r = 0; r < rows; r++) {
    const cells = lines[r + 1].split(",");
    time[r] = parseFloat(cells[0]);
    for (let c = 1; c < width; c++) columns[c - 1][r] = parseFloat(cells[c]);
  }
  return { time, columns };
}

function timed<T>(fn: () => T): { result: T; ms: number } {
  const start = performance.now();
  const result = fn();
  return { result, ms: performance.now() - start };
}

function times(runs: number, fn: () => unknown): number[] {
  return Array.from({ length: runs }, () => timed(fn).ms);
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
const rate = (bytes: number, ms: number) => `${(bytes / MiB / (ms / 1000)).toFixed(0)} MiB/s`;

const generated = timed(() => generateCsv(ROWS, CHANNELS));
const csv = generated.result;
console.log(
  `Generated ${ROWS.toLocaleString("en")} rows × ${CHANNELS} channels: ${(csv.length / MiB).toFixed(1)} MiB (${csv.length.toLocaleString("en")} bytes) in ${fmt(generated.ms)}`,
);

const first = timed(() => parseLog(csv));
const log = first.result;
const again = times(2, () => parseLog(csv));
const bestParse = Math.min(first.ms, ...again);
if (log.rowCount !== ROWS || log.channels.length !== CHANNELS || log.warnings.length > 0) {
  throw new Error(`parsed ${log.rowCount} rows, ${log.channels.length} channels, warnings: ${log.warnings.join("; ")}`);
}

const naive = timed(() => naiveParse(csv));
for (let c = 0; c < CHANNELS; c++) {
  const a = log.columns[c];
  const b = naive.result.columns[c];
  for (let r = 0; r < ROWS; r++) {
    if (a[r] !== b[r]) throw new Error(`channel ${c + 1} row ${r}: byte scanner ${a[r]}, parseFloat ${b[r]}`);
  }
}

console.log("\nParse into columns (parseLog: detection, scan, time, stats)");
console.log(`  byte scanner, first run   ${fmt(first.ms)}  ${rate(csv.length, first.ms)}`);
console.log(`  byte scanner, best of 3   ${fmt(bestParse)}  ${rate(csv.length, bestParse)}`);
console.log(`  naive split + parseFloat  ${fmt(naive.ms)}  ${rate(csv.length, naive.ms)}`);
console.log(`  ratio naive / scanner     ${(naive.ms / first.ms).toFixed(1)}× (first run)`);
console.log("  values identical to parseFloat's in all 20,000,000 cells");
const met = first.ms <= TARGET_SECONDS * 1000;
console.log(`  target ≤ ${TARGET_SECONDS} s: ${met ? "met" : "NOT MET"}`);

// The upload's worker thread writes the columnar form after parsing: its coding scans every sample once more.
const serialized = timed(() => serializeColumns(log));
const samples = ROWS * CHANNELS;
console.log("\nColumnar form (serializeColumns: integer codes of the printed decimals, else floats)");
console.log(
  `  coded in                  ${fmt(serialized.ms)}  ${(serialized.result.length / MiB).toFixed(1)} MiB, ${(serialized.result.length / samples).toFixed(2)} bytes a sample (Float32 + Float64 time: ${((samples * 4 + ROWS * 8) / samples).toFixed(2)})`,
);
// What the upload stores: every array deflated on its own (what the chart view downloads).
const deflated = timed(() => serializeColumns(log, (bytes) => deflateRawSync(bytes)));
console.log(
  `  deflated (as stored) in    ${fmt(deflated.ms)}  ${(deflated.result.length / MiB).toFixed(1)} MiB, ${(serialized.result.length / deflated.result.length).toFixed(1)}× smaller (random test data: real logs deflate 2.5–6×)`,
);
const decoded = deserializeColumns(deflated.result, inflateRawSync);
if (
  !decoded.columns.every((column, c) =>
    column.every((v, r) => v === log.columns[c][r] || (Number.isNaN(v) && Number.isNaN(log.columns[c][r]))),
  )
)
  throw new Error("the columnar form did not give back every sample");
console.log("  every sample read back exactly");

const t1 = log.time[log.rowCount - 1];
const values = log.columns[0];
const zoom: [number, number] = [t1 * 0.25, t1 * 0.3];
console.log("\nDownsample 1,000,000 points to 1,000 px (ms: first run, then best of 10)");
for (const [label, run] of [
  ["min/max per pixel, whole log", () => minMaxPerPixel(log.time, values, 0, t1, 1000)],
  ["LTTB to 1,000 points, whole log", () => lttb(log.time, values, 0, t1, 1000)],
  ["min/max per pixel, 5 % zoom", () => minMaxPerPixel(log.time, values, zoom[0], zoom[1], 1000)],
] as const) {
  const [once, ...rest] = times(11, run);
  console.log(
    `  ${label.padEnd(32)} ${once.toFixed(2).padStart(6)}  ${Math.min(...rest)
      .toFixed(2)
      .padStart(6)}`,
  );
}

if (!met) process.exitCode = 1;
