/**
 * A patch-apply request end to end (issue 6: p99 ≤ 50 ms): multipart upload
 * of an 8 MiB image over HTTP on loopback into the real server, which receives
 * the file to disk, identifies the firmware, verifies checksums, loads the
 * patches from the database (PGlite in memory), applies 1,000 entries, fixes
 * checksums and answers the image with its report. Printed next to the same
 * work done by the domain alone and a plain zlib.crc32 pass, the floor.
 *
 *   npx tsx bench/tune-api.ts
 *
 * Identity is a stub that accepts one token: verifying a real ID token is a
 * call to the identity service, which this figure is not about. HTTP rather
 * than app.inject: inject turns every response body into a string, which
 * for 8 MiB costs more than the request itself.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { Auth, DecodedIdToken } from "firebase-admin/auth";
import { buildApp } from "../server/app";
import { loadConfig } from "../server/config";
import { openDatabase } from "../server/db/connection";
import { firmwareSupport, tuneFilePatches } from "../server/db/schema";
import { applyPatches, generateDemo, verifyAll } from "../server/domain/tune";
import type { Identity, VerifiedCaller } from "../server/services/identity";
import { multipart } from "../tests/api/multipart";

const ROUNDS = 100;
const WARMUP = 5;
const TARGET_MS = 50;

const demo = generateDemo({ itemCount: 2000, patchEntries: 1000 });
const { firmware, stock, patches } = demo;
const entries = patches.reduce((n, p) => n + p.entries.length, 0);

const caller: VerifiedCaller = { uid: "bench-dealer", email: "bench@example.com", emailVerified: true, role: "dealer", claims: {} as DecodedIdToken };
const identity: Identity = {
  auth: {} as Auth,
  verifyIdToken: async (token) => {
    if (token !== "bench") throw Object.assign(new Error("bad token"), { code: "auth/argument-error" });
    return caller;
  },
  verifySessionCookie: async () => {
    throw Object.assign(new Error("no cookies here"), { code: "auth/argument-error" });
  },
  ping: async () => true,
  close: async () => {},
};

const dataDir = await mkdtemp(path.join(tmpdir(), "tune-api-bench-"));
const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, DIST_DIR: path.join(dataDir, "no-dist"), FIREBASE_PROJECT_ID: "bench" });
const database = await openDatabase({ pgliteDir: "memory://" });
await database.migrate();
const app = await buildApp(config, { database, identity, logger: false });
const { db } = app.ctx;

await db.insert(firmwareSupport).values({
  firmwareId: firmware.firmwareId,
  ecuFamily: "DEMO",
  manufacturer: "Bench",
  imageSize: firmware.imageSize,
  identify: firmware.identify,
  checksums: firmware.checksums,
  definition: firmware.definition as unknown as Record<string, unknown>,
  stockSha256: await app.ctx.blobs.put(stock),
  stockSize: stock.length,
});
const ids = [];
for (const patch of patches) {
  const [row] = await db.insert(tuneFilePatches).values({ title: patch.title, description: patch.description, firmwareIds: patch.firmwareIds, entries: patch.entries }).returning();
  ids.push(row.id);
}
const body = multipart([{ name: "file", filename: "stock.bin", content: stock }], { patchIds: JSON.stringify(ids) });
const address = await app.listen({ host: "127.0.0.1", port: 0 });
/** Tools ask for the bytes (report in a header); the browser takes JSON with the image as base64. */
async function apply(accept: string): Promise<void> {
  const response = await fetch(`${address}/api/v1/tune-file-patches/apply`, {
    method: "POST",
    headers: { authorization: "Bearer bench", accept, ...body.headers },
    body: new Uint8Array(body.payload),
  });
  const answer = await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`apply answered ${response.status}: ${Buffer.from(answer).toString().slice(0, 300)}`);
}
await apply("application/octet-stream");

const operations = [
  { name: "zlib.crc32 over 8 MiB (floor)", run: async () => zlib.crc32(stock) },
  {
    name: `domain: verify + apply ${entries} entries + fix`,
    run: async () => {
      verifyAll(stock, firmware.checksums);
      applyPatches(stock, patches, { firmwareId: firmware.firmwareId, checksums: firmware.checksums });
    },
  },
  {
    name: "POST /tune-file-patches/apply (bytes)",
    target: TARGET_MS,
    run: () => apply("application/octet-stream"),
  },
  {
    name: "  same, JSON with base64 (the browser)",
    run: () => apply("application/json"),
  },
];

const samples = operations.map(() => [] as number[]);
for (let round = 0; round < WARMUP + ROUNDS; round++) {
  for (const [i, op] of operations.entries()) {
    const start = performance.now();
    await op.run();
    if (round >= WARMUP) samples[i].push(performance.now() - start);
  }
}
await app.close();
await database.close();
await rm(dataDir, { recursive: true, force: true });

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)];
const figures = operations.map((op, i) => {
  const sorted = samples[i].sort((a, b) => a - b);
  return { ...op, median: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
});
const floor = figures[0].median;
console.log(`8 MiB upload, ${patches.length} patches with ${entries} entries, ${firmware.checksums.length} checksum schemes; ${ROUNDS} interleaved rounds`);
console.log("");
console.log(`${"".padEnd(44)}${"median ms".padStart(10)}${"p99 ms".padStart(10)}${"× floor".padStart(9)}${"target".padStart(9)}`);
let over = false;
for (const f of figures) {
  const target = "target" in f ? f.target : undefined;
  const verdict = target === undefined ? "" : f.p99 <= target ? "  ok" : "  OVER";
  over ||= target !== undefined && f.p99 > target;
  console.log(
    f.name.padEnd(44) +
      f.median.toFixed(2).padStart(10) +
      f.p99.toFixed(2).padStart(10) +
      (f.median / floor).toFixed(1).padStart(9) +
      (target === undefined ? "" : `≤ ${target}`).padStart(9) +
      verdict,
  );
}
if (over) process.exitCode = 1;
