import { writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { buildApp } from "./app";
import { loadConfig } from "./config";
import { logDestinationFor } from "./http/log-format";
import { seedDemo } from "./seed";
import { JOB_KINDS } from "./services/background-jobs";
import { checkBlobStores } from "./services/blob-stores";
import { sealStoredPasswords } from "./services/secret-box";
import { removeStaleTempFiles, tempFileMaxAgeMs } from "./services/temp-files";

/** Reads config, migrates, optionally seeds, listens; SIGINT/SIGTERM close it gracefully. */
async function main() {
  const config = loadConfig();
  const app = await buildApp(config, { logStream: logDestinationFor(process.env, process.stdout) });
  // A bucket that is missing, refuses the keys or does not answer is said now, not at the first upload.
  app.log.info({ storage: await checkBlobStores(app.ctx) }, "file storage ready");
  // Temp files of uploads a killed process was receiving; blob collection removes later ones.
  const temps = await removeStaleTempFiles(config.dataDir, tempFileMaxAgeMs(config));
  if (temps.removed) app.log.info(temps, "removed temp files of interrupted requests");
  await app.ctx.database.migrate();
  const sealed = await sealStoredPasswords(app.ctx.db, app.ctx.secrets);
  if (sealed) app.log.info({ sealed }, "stored passwords sealed at rest");
  if (process.env.SEED_DEMO === "1") {
    const accounts = await seedDemo(app);
    app.log.info({ accounts: accounts.map((account) => account.email) }, "demo data ready");
  }
  await app.listen({ host: config.host, port: config.port });
  // Files of deleted tunes, replaced reads and expired previews are removed a minute after start,
  // then on the queue's schedule (every 6 hours, services/background-jobs.ts).
  await app.ctx.jobs.send(JOB_KINDS.collectBlobs, {}, { startAfterSeconds: 60 });
  // With PORT=0 the system picks the port; a supervisor (the test runner) reads it from here.
  if (process.env.PORT_FILE) writeFileSync(process.env.PORT_FILE, String((app.server.address() as AddressInfo).port));

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: finishing in-flight requests`);
    app.shuttingDown = true;
    const force = setTimeout(() => {
      app.log.error("shutdown took longer than 10 s; exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
