/**
 * The server of bench/tune-api.ts in a process of its own, as it runs in
 * production: its heap holds the app, not the bench's demo and samples, so
 * its collections are the size they are for real. It stores the generated
 * demo's firmware and patches (PGlite in memory) and tells its parent the
 * address and the patch ids over IPC, then serves until it is killed.
 *
 * Identity is a stub that accepts one token: verifying a real ID token is a
 * call to the identity service, which this figure is not about.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Auth, DecodedIdToken } from "firebase-admin/auth";
import { buildApp } from "../../server/app";
import { loadConfig } from "../../server/config";
import { openDatabase } from "../../server/db/connection";
import { firmwareSupport, tuneFilePatches } from "../../server/db/schema";
import { type DemoOptions, generateDemo } from "../../server/seed/generator";
import type { Identity, VerifiedCaller } from "../../server/services/identity";

export interface BenchServerReady {
  address: string;
  patchIds: string[];
  stockSha256: string;
}

/** What the parent sends: the demo to generate and the one token the stub identity accepts. */
export interface BenchServerJob {
  demo: DemoOptions;
  token: string;
}

const caller: VerifiedCaller = {
  uid: "bench-dealer",
  email: "bench@example.com",
  emailVerified: true,
  role: "dealer",
  claims: {} as DecodedIdToken,
};
const identityAccepting = (accepted: string): Identity => ({
  auth: {} as Auth,
  verifyIdToken: async (token) => {
    if (token !== accepted) throw Object.assign(new Error("bad token"), { code: "auth/argument-error" });
    return caller;
  },
  verifySessionCookie: async () => {
    throw Object.assign(new Error("no cookies here"), { code: "auth/argument-error" });
  },
  ping: async () => true,
  close: async () => {},
});

async function serve(job: BenchServerJob): Promise<BenchServerReady> {
  const { firmware, stock, patches } = generateDemo(job.demo);
  const dataDir = await mkdtemp(path.join(tmpdir(), "tune-api-bench-"));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    DIST_DIR: path.join(dataDir, "no-dist"),
    FIREBASE_PROJECT_ID: "bench",
  });
  const database = await openDatabase({ pgliteDir: "memory://" });
  await database.migrate();
  const app = await buildApp(config, { database, identity: identityAccepting(job.token), logger: false });
  await app.ctx.db.insert(firmwareSupport).values({
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
  const patchIds: string[] = [];
  for (const patch of patches) {
    const [row] = await app.ctx.db
      .insert(tuneFilePatches)
      .values({
        title: patch.title,
        description: patch.description,
        firmwareIds: patch.firmwareIds,
        entries: patch.entries,
      })
      .returning();
    patchIds.push(row.id);
  }
  process.once("SIGTERM", async () => {
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
  const address = await app.listen({ host: "127.0.0.1", port: 0 });
  return { address, patchIds, stockSha256: createHash("sha256").update(stock).digest("hex") };
}

process.once("message", (job: BenchServerJob) => {
  serve(job).then(
    (ready) => process.send!(ready),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
