/**
 * A data log's ingest on the real server: the generated 1,000,000-row × 20-channel CSV
 * (about 137 MiB) uploaded over loopback to `POST /api/v1/data-logs`, parsed in the worker
 * thread, its columnar form deflated and stored; the answer is the stored log. Target ≤ 2.5 s.
 * Also, in turns in this process, the columnar step alone as the worker does it: each array
 * deflated one after another, and all arrays handed to zlib's thread pool at once.
 *
 *   npx tsx bench/log-ingest.ts [--runs N]
 *
 * PGlite in memory, files in `.test-data/bench-*`; identity is a fixed caller
 * (bench/lib/fixed-identity.ts), which this figure is not about.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { promisify } from "node:util";
import { deflateRaw, deflateRawSync } from "node:zlib";
import { parseLog, serializeColumns, serializeColumnsConcurrently } from "../domain/logs";
import { buildApp } from "../server/app";
import { loadConfig } from "../server/config";
import { fixedIdentity } from "./lib/fixed-identity";
import { generateCsv } from "./lib/generate-log";
import { openScratchDatabase } from "./lib/scratch-database";

const ROWS = 1_000_000;
const CHANNELS = 20;
const TARGET_SECONDS = 2.5;
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const csv = generateCsv(ROWS, CHANNELS);
console.log(`${ROWS.toLocaleString("en")} rows × ${CHANNELS} channels: ${(csv.length / 2 ** 20).toFixed(0)} MiB`);

// The columnar step alone, the two ways in turns.
const log = parseLog(csv);
const deflateAsync = promisify(deflateRaw);
const oneByOne: number[] = [];
const concurrent: number[] = [];
for (let run = 0; run < RUNS; run++) {
  let start = performance.now();
  const a = serializeColumns(log, (bytes) => deflateRawSync(bytes));
  oneByOne.push(performance.now() - start);
  start = performance.now();
  const b = await serializeColumnsConcurrently(log, (bytes) => deflateAsync(bytes));
  concurrent.push(performance.now() - start);
  if (Buffer.compare(a, b) !== 0) throw new Error("the two ways wrote different columnar forms");
}
console.log(
  `columnar form, arrays deflated one by one     ${seconds(median(oneByOne))} (spread ${seconds(spread(oneByOne))})`,
);
console.log(
  `columnar form, arrays deflated concurrently   ${seconds(median(concurrent))} (spread ${seconds(spread(concurrent))}), ${(median(oneByOne) / median(concurrent)).toFixed(2)}× faster`,
);

// The whole ingest through the API.
const dataDir = `.test-data/bench-${randomBytes(4).toString("hex")}`;
const { database } = await openScratchDatabase("pglite", "bench_ingest");
await database.migrate();
const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, DIST_DIR: ".test-data/no-dist", LOG_LEVEL: "warn" });
const app = await buildApp(config, { database, identity: fixedIdentity(), logger: false });
try {
  const origin = await app.listen({ port: 0, host: "127.0.0.1" });
  const ingest: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const form = new FormData();
    form.append("file", new Blob([csv as BlobPart]), `bench-${run}.csv`);
    const start = performance.now();
    const response = await fetch(`${origin}/api/v1/data-logs`, {
      method: "POST",
      body: form,
      headers: { authorization: "Bearer bench" },
    });
    if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
    await response.json();
    ingest.push(performance.now() - start);
  }
  const ok = median(ingest) / 1000 <= TARGET_SECONDS;
  console.log(
    `upload + parse + store through the API         ${seconds(median(ingest))} (spread ${seconds(spread(ingest))}; target ≤ ${TARGET_SECONDS} s: ${ok ? "met" : "NOT MET"})`,
  );
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
