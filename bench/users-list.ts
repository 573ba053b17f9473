/**
 * `GET /users` at 100,000 users on PostgreSQL, through the real server (buildApp, app.inject, every
 * hook and schema; only token verification is a fixed admin, bench/lib/fixed-identity.ts): the
 * searches support makes, each run 200 times after a warm-up, p50/p95/p99 per kind and over all.
 * Target: p99 ≤ 50 ms.
 *
 *   npx tsx bench/users-list.ts
 */
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { buildApp } from "../server/app";
import { loadConfig } from "../server/config";
import { fixedIdentity } from "./lib/fixed-identity";
import { openScratchDatabase } from "./lib/scratch-database";

const USERS = 100_000;
const RUNS = 200;
const P99_TARGET_MS = 50;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const fmt = (ms: number) => `${ms.toFixed(1).padStart(6)} ms`;

const FIRST = [
  "anna",
  "ben",
  "carla",
  "dora",
  "erik",
  "fatima",
  "georg",
  "hana",
  "ivan",
  "jonas",
  "kemal",
  "lena",
  "marco",
  "nina",
  "oskar",
  "paula",
  "quinn",
  "rosa",
  "sven",
  "tara",
];
const LAST = [
  "mueller",
  "schmidt",
  "rossi",
  "novak",
  "garcia",
  "kowalski",
  "jensen",
  "dubois",
  "silva",
  "smith",
  "nagy",
  "berg",
  "costa",
  "wagner",
  "ivanov",
];

console.log(
  `load average at start: ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")}`,
);
const { database, drop } = await openScratchDatabase("postgres", "bench_users");
try {
  await database.migrate();
  const { db } = database;
  const started = performance.now();
  // Names and emails from small lists with a number, roles 90/9/1 %, 2 % disabled, sign-ups over three years.
  await db.execute(sql`
    INSERT INTO users (uid, email, display_name, role, disabled, email_verified, created_at, last_sign_in_at)
    SELECT 'u' || i,
           (${sql.param(FIRST)}::text[])[1 + i % 20] || '.' || (${sql.param(LAST)}::text[])[1 + (i / 20) % 15] || i || '@' || (ARRAY['example.com','mail.test','garage.test'])[1 + i % 3],
           initcap((${sql.param(FIRST)}::text[])[1 + i % 20]) || ' ' || initcap((${sql.param(LAST)}::text[])[1 + (i / 20) % 15]),
           CASE WHEN i % 100 = 0 THEN 'admin' WHEN i % 11 = 0 THEN 'dealer' ELSE 'customer' END,
           i % 50 = 0, i % 7 <> 0,
           now() - (i % 1095) * interval '1 day' - (i % 86400) * interval '1 second',
           CASE WHEN i % 5 = 0 THEN NULL ELSE now() - (i % 400) * interval '1 day' END
    FROM generate_series(1, ${USERS}) AS i`);
  await db.execute(sql`ANALYZE users`);
  console.log(`${USERS} users inserted and analysed in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: `.test-data/bench-${randomBytes(4).toString("hex")}`,
    DIST_DIR: ".test-data/no-dist",
    LOG_LEVEL: "warn",
  });
  const app = await buildApp(config, { database, identity: fixedIdentity(), logger: false });
  const kinds: Array<[string, (i: number) => string]> = [
    ["first page, newest first", () => "/users?pageSize=20"],
    // The middle of a real user's email, as support pastes it from a customer's message.
    [
      "search an email fragment",
      (i) => {
        const k = 1000 + i * 37;
        return `/users?q=${FIRST[k % 20]}.${LAST[Math.floor(k / 20) % 15]}${k}`;
      },
    ],
    ["search a name", (i) => `/users?q=${encodeURIComponent(`${FIRST[i % 20]} ${LAST[(i * 7) % 15]}`)}`],
    ["search a short prefix", (i) => `/users?q=${FIRST[i % 20].slice(0, 3)}`],
    ["role filter, by last sign-in", (i) => `/users?role[eq]=${["dealer", "admin"][i % 2]}&sort=-lastSignInAt`],
    ["disabled accounts", () => "/users?disabled[eq]=true"],
    [
      "signed up in a month",
      (i) =>
        `/users?createdAt[between]=${new Date(Date.now() - ((i % 30) + 30) * 86400_000).toISOString().slice(0, 10)},${new Date(Date.now() - (i % 30) * 86400_000).toISOString().slice(0, 10)}`,
    ],
    ["page 40 of a role", (i) => `/users?role[eq]=customer&page=${40 + (i % 5)}&pageSize=25`],
  ];
  const call = async (url: string) => {
    const start = performance.now();
    const response = await app.inject({
      method: "GET",
      url: `/api/v1${url}`,
      headers: { authorization: "Bearer bench" },
    });
    const ms = performance.now() - start;
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
    return { ms, total: response.json().total as number };
  };
  for (const [, url] of kinds) for (let i = 0; i < 20; i++) await call(url(i));

  const all: number[] = [];
  console.log(`GET /users at ${USERS} users, ${RUNS} runs per kind, one at a time (target p99 ≤ ${P99_TARGET_MS} ms):`);
  for (const [name, url] of kinds) {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < RUNS; i++) {
      const result = await call(url(i));
      times.push(result.ms);
      total = result.total;
    }
    times.sort((a, b) => a - b);
    all.push(...times);
    console.log(
      `  ${name.padEnd(30)} p50 ${fmt(percentile(times, 50))}  p95 ${fmt(percentile(times, 95))}  p99 ${fmt(percentile(times, 99))}  (last total ${total})`,
    );
  }
  all.sort((a, b) => a - b);
  const p99 = percentile(all, 99);
  console.log(
    `  all ${all.length} requests: p50 ${fmt(percentile(all, 50))}  p95 ${fmt(percentile(all, 95))}  p99 ${fmt(p99)}  p99/target ${(p99 / P99_TARGET_MS).toFixed(2)}  ${p99 <= P99_TARGET_MS ? "ok" : "OVER TARGET"}`,
  );
  await app.close();
} finally {
  await database.close();
  await drop();
}
