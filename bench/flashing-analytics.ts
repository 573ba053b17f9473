/**
 * Flashing analytics on 1,000,000 flash sessions in PostgreSQL: the p50/p95/max latency of
 * each endpoint (overview, occurrences, over time) over a year, with and without filters.
 * Target: p95 ≤ 200 ms for each.
 *
 * Sessions are inserted through the real trigger (so the rollup is built the way the portal
 * builds it, and the insert time shows the trigger's cost): a year of sessions across 12
 * firmwares in 4 ECU families, 4 adapters and app versions rolled out over the year, about
 * 7 % failing at a plausible step with a plausible negative response. Requests go through the
 * real server (buildApp, app.inject) with every hook and schema; only token verification is a
 * fixed admin caller.
 *
 *   npx tsx bench/flashing-analytics.ts            (1,000,000 sessions)
 *   npx tsx bench/flashing-analytics.ts 200000     (fewer, for a quick look)
 */
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../server/app";
import { loadConfig } from "../server/config";
import { fixedIdentity } from "./lib/fixed-identity";
import { openScratchDatabase } from "./lib/scratch-database";

const SESSIONS = Number(process.argv[2] ?? 1_000_000);
const BATCH = 100_000;
const REQUESTS = 50;
const TARGET_MS = 200;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const fmt = (ms: number) => `${ms.toFixed(1).padStart(7)} ms`;

async function seed(db: Awaited<ReturnType<typeof openScratchDatabase>>["database"]["db"]) {
  await db.execute(sql`INSERT INTO users (uid, email, role) VALUES ('bench-owner', 'owner@example.test', 'customer')`);
  await db.execute(
    sql`INSERT INTO user_vehicles (id, owner_uid, name) SELECT ('00000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, 'bench-owner', 'Car ' || i FROM generate_series(1, 1000) AS i`,
  );
  for (let from = 1; from <= SESSIONS; from += BATCH) {
    const to = Math.min(SESSIONS, from + BATCH - 1);
    // Deterministic from the row number; failures are rows whose hash falls under 7 %.
    await db.execute(sql`
      INSERT INTO flash_logs (vehicle_id, kind, sha256, result, reported_by, flashed_at, ended_at, duration_ms,
                              firmware_id, ecu_family, adapter_kind, app_version, failed_step, failed_nrc)
      SELECT ('00000000-0000-4000-8000-' || lpad((1 + i % 1000)::text, 12, '0'))::uuid,
             CASE WHEN i % 9 = 0 THEN 'stock' ELSE 'tune' END,
             md5(i::text) || md5((i + 1)::text),
             CASE WHEN h < 40 THEN 'failed' WHEN h < 55 THEN 'recovered' WHEN h < 62 THEN 'abandoned' WHEN h < 70 THEN 'aborted' ELSE 'success' END,
             'bench-owner',
             t, t + make_interval(secs => d / 1000.0), d,
             (ARRAY['SC8S50','SC8S60','SC8F40','MED17A','MED17B','MED17C','MG1CS1','MG1CS2','MG1CS3','MEVD1','MEVD2','MEVD3'])[1 + i % 12],
             (ARRAY['Simos18','Simos18','Simos18','MED17','MED17','MED17','MG1','MG1','MG1','MEVD17','MEVD17','MEVD17'])[1 + i % 12],
             (ARRAY['OBDLink MX+','ENET','Vgate iCar Pro','virtual'])[1 + (i / 7) % 4],
             CASE WHEN t < now() - interval '270 days' THEN '2.1.0' WHEN t < now() - interval '180 days' THEN '2.2.0'
                  WHEN t < now() - interval '90 days' THEN '2.3.1' ELSE '2.4.0' END,
             CASE WHEN h < 62 AND h >= 0 THEN (ARRAY['connecting','security-access','erasing','block','block','block','verifying','reset'])[1 + (i / 3) % 8] END,
             CASE WHEN h < 62 THEN (ARRAY[114, 115, 53, 120, 147, 51, 34, 113])[1 + (i / 5) % 8] END
      FROM (SELECT i,
                   (i * 2654435761) % 1000 AS h,
                   now() - make_interval(secs => (i * 7919) % (365 * 86400)) AS t,
                   30000 + (i * 104729) % 600000 AS d
            FROM generate_series(${from}::bigint, ${to}::bigint) AS i) AS s`);
    process.stdout.write(`  ${to.toLocaleString("en")} sessions\r`);
  }
  await db.execute(sql`VACUUM ANALYZE flash_logs`);
  await db.execute(sql`VACUUM ANALYZE flash_stats_daily`);
}

async function measure(app: FastifyInstance, urls: string[]): Promise<{ p50: number; p95: number; max: number }> {
  const latencies: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const url = urls[i % urls.length];
    const start = performance.now();
    const response = await app.inject({ method: "GET", url, headers: { authorization: "Bearer bench" } });
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
    latencies.push(performance.now() - start);
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), max: latencies[latencies.length - 1] };
}

console.log(
  `load average at start: ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")}`,
);
const { database, drop } = await openScratchDatabase("postgres", "bench_analytics");
try {
  await database.migrate();
  const t = performance.now();
  await seed(database.db);
  const seconds = (performance.now() - t) / 1000;
  const count = async (table: string) =>
    Number(
      (
        (await database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table}`))) as unknown as {
          rows: Array<{ n: number }>;
        }
      ).rows[0].n,
    );
  const [stats, failures] = [await count("flash_stats_daily"), await count("flash_failures_daily")];
  console.log(
    `${SESSIONS.toLocaleString("en")} sessions inserted through the trigger in ${seconds.toFixed(1)} s (${((seconds * 1e6) / SESSIONS).toFixed(0)} µs each); rollup rows: ${stats.toLocaleString("en")} counts, ${failures.toLocaleString("en")} failures`,
  );
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: `.test-data/bench-${randomBytes(4).toString("hex")}`,
    DIST_DIR: ".test-data/no-dist",
    LOG_LEVEL: "warn",
  });
  const app = await buildApp(config, { database, identity: fixedIdentity(), logger: false });
  const today = new Date().toISOString().slice(0, 10);
  const yearAgo = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
  const year = `from=${yearAgo}&to=${today}`;
  const filters = ["", "&ecuFamily=MG1", "&adapterKind=ENET", "&appVersion=2.4.0", "&firmwareId=SC8S50&kind=tune"];
  const scenarios: Array<[string, string[]]> = [
    ["overview, a year, no filter", [`/api/v1/analytics/flashing-overview?${year}`]],
    ["overview, a year, each filter", filters.map((f) => `/api/v1/analytics/flashing-overview?${year}${f}`)],
    [
      "occurrences, a year, by failed NRC / adapter",
      [
        `/api/v1/analytics/flashing-occurences?${year}&dimension=failedNrc`,
        `/api/v1/analytics/flashing-occurences?${year}&dimension=adapterKind`,
      ],
    ],
    ["over time, a year by day", [`/api/v1/analytics/flashing-overtime?${year}&bucket=day`]],
    [
      "over time, a year by week, each filter",
      filters.map((f) => `/api/v1/analytics/flashing-overtime?${year}&bucket=week${f}`),
    ],
  ];
  for (const [, urls] of scenarios) await measure(app, urls); // warm-up
  console.log(`${REQUESTS} requests each, one at a time (target p95 ≤ ${TARGET_MS} ms):`);
  for (const [label, urls] of scenarios) {
    const r = await measure(app, urls);
    console.log(
      `  ${label.padEnd(42)} p50 ${fmt(r.p50)}  p95 ${fmt(r.p95)}  max ${fmt(r.max)}  p95/target ${(r.p95 / TARGET_MS).toFixed(2)}  ${r.p95 <= TARGET_MS ? "ok" : "OVER TARGET"}`,
    );
  }
  await app.close();
} finally {
  await database.close();
  await drop();
}
