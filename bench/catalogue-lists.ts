/**
 * Catalogue list endpoints on 100,000 rows, on PGlite and on PostgreSQL
 * the p99 latency of a filtered, sorted page requested at a fixed
 * rate, for the first page and for the deepest page the API serves (by offset,
 * where the ids are read first, and by keyset cursor, where paging goes on past
 * any offset), plus a year range and a text search. Targets: p99 ≤ 10 ms on
 * PostgreSQL at 200 requests/s, ≤ 25 ms on PGlite, and the deepest page no
 * slower than the first.
 *
 * Requests go through the real server (buildApp, app.inject) with every hook,
 * schema and the list helper; only token verification is replaced by a fixed
 * caller, because the emulator's HTTP round trip is not what is measured.
 * Latency counts from when a request was due, not when it was sent, so a
 * server that falls behind the rate shows it (no coordinated omission).
 *
 *   npx tsx bench/catalogue-lists.ts            (both databases)
 *   npx tsx bench/catalogue-lists.ts pglite     (one)
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../server/app";
import { loadConfig } from "../server/config";
import type { Database } from "../server/db/connection";
import { MAX_OFFSET } from "../server/http/list";
import { fixedIdentity } from "./lib/fixed-identity";
import { openScratchDatabase } from "./lib/scratch-database";

const ROWS = 100_000;
const PAGE_SIZE = 20;
const RATE_PER_SECOND = 200;
const REQUESTS = 400;
const WARM_UP = 50;
/** Requests one after another: the service time of one request, apart from any queueing. */
const SEQUENTIAL = 200;
const TARGET_MS = { postgres: 10, pglite: 25 } as const;

const MAKES = ["Audi", "Bmw", "Cupra", "Ford", "Mini", "Porsche", "Seat", "Skoda", "Toyota", "Volkswagen"];

/** One INSERT … SELECT: deterministic rows from the row number, seeded in seconds even on PGlite. */
async function seed(database: Database): Promise<void> {
  const makes = sql.raw(`ARRAY[${MAKES.map((m) => `'${m}'`).join(",")}]`);
  await database.db.execute(sql`
    INSERT INTO supported_vehicles (make, model, engine, year_from, ecu, firmware_ids)
    SELECT (${makes})[1 + (i * 7919) % ${MAKES.length}],
           'Model' || lpad(((i * 104729) % 2000)::text, 4, '0'),
           'Engine' || lpad(((i * 31) % 60)::text, 2, '0'),
           1990 + (i * 13) % 35,
           'Ecu' || (i % 30),
           ARRAY['FW' || lpad(((i * 17) % 500)::text, 4, '0')]
    FROM generate_series(1::bigint, ${ROWS}) AS i`);
  // What autovacuum does on a live database: statistics for the planner, visibility for index-only scans.
  await database.db.execute(sql`VACUUM ANALYZE supported_vehicles`);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function sequential(app: FastifyInstance, url: string): Promise<{ p50: number; p99: number }> {
  const latencies: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const start = performance.now();
    const response = await app.inject({ method: "GET", url, headers: { authorization: "Bearer bench" } });
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
    latencies.push(performance.now() - start);
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** Requests `url` at a fixed rate; latency from each request's due time. */
async function atFixedRate(
  app: FastifyInstance,
  url: string,
): Promise<{ p50: number; p99: number; max: number; achieved: number }> {
  const interval = 1000 / RATE_PER_SECOND;
  const fire = async () => {
    const response = await app.inject({ method: "GET", url, headers: { authorization: "Bearer bench" } });
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
  };
  for (let i = 0; i < WARM_UP; i++) await fire();
  const latencies: number[] = [];
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(fire().then(() => void latencies.push(performance.now() - due)));
  }
  await Promise.all(pending);
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1],
    achieved: REQUESTS / seconds,
  };
}

const fmt = (ms: number) => `${ms.toFixed(2).padStart(7)} ms`;

async function benchKind(kind: "pglite" | "postgres") {
  const { database, drop } = await openScratchDatabase(kind, "bench_catalogue");
  try {
    await database.migrate();
    const t = performance.now();
    await seed(database);
    console.log(
      `\n${kind}: ${ROWS.toLocaleString("en")} supported vehicles seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: `.test-data/bench-${randomBytes(4).toString("hex")}`,
      DIST_DIR: ".test-data/no-dist",
      LOG_LEVEL: "warn",
    });
    const app = await buildApp(config, { database, identity: fixedIdentity(), logger: false });
    const base = "/api/v1/firmware-support/supported-vehicle";
    const deepest = Math.floor((MAX_OFFSET - 1) / PAGE_SIZE) + 1;
    const listUrl = `${base}?make[eq]=Audi&sort=model&pageSize=${PAGE_SIZE}`;
    // The cursor a client holds after reading the page before the deepest one.
    const before = await app.inject({
      method: "GET",
      url: `${listUrl}&page=${deepest - 1}`,
      headers: { authorization: "Bearer bench" },
    });
    const cursor = (before.json() as { nextCursor: string }).nextCursor;
    const scenarios: Array<[string, string]> = [
      ["make=Audi, by model, first page", `${listUrl}&page=1`],
      [`make=Audi, by model, page ${deepest} by offset`, `${listUrl}&page=${deepest}`],
      [`make=Audi, by model, page ${deepest} by cursor`, `${listUrl}&page=${deepest}&after=${cursor}`],
      [
        "make=Audi, years 2005–2015, by -year,model",
        `${base}?make[eq]=Audi&yearFrom[between]=2005,2015&sort=-yearFrom,model&pageSize=${PAGE_SIZE}`,
      ],
      ["search q=Model012, by make", `${base}?q=Model012&sort=make&pageSize=${PAGE_SIZE}`],
    ];
    console.log(`  at ${RATE_PER_SECOND} requests/s, ${REQUESTS} requests each (target p99 ≤ ${TARGET_MS[kind]} ms)`);
    const results: Record<string, number> = {};
    for (const [label, url] of scenarios) {
      const r = await atFixedRate(app, url);
      const alone = await sequential(app, url);
      results[label] = r.p99;
      const verdict = r.p99 <= TARGET_MS[kind] ? "ok" : "OVER TARGET";
      console.log(
        `  ${label.padEnd(44)} at rate: p50 ${fmt(r.p50)}  p99 ${fmt(r.p99)}  max ${fmt(r.max)}  ${r.achieved.toFixed(0)} req/s  ${verdict}`,
      );
      console.log(`  ${"".padEnd(44)} one at a time: p50 ${fmt(alone.p50)}  p99 ${fmt(alone.p99)}`);
    }
    const [first, byOffset, byCursor] = [0, 1, 2].map((i) => results[scenarios[i][0]]);
    console.log(
      `  deepest page p99 / first page p99: by cursor ${(byCursor / first).toFixed(2)}, by offset ${(byOffset / first).toFixed(2)}`,
    );
    await app.close();
  } finally {
    await database.close();
    await drop();
  }
}

const only = process.argv[2];
console.log(
  `load average at start: ${(await import("node:os"))
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")}`,
);
for (const kind of ["postgres", "pglite"] as const) {
  if (!only || only === kind) await benchKind(kind);
}
