/**
 * One browser-test server, started by Playwright's `webServer` (playwright.config.ts) for the
 * project `name` (walk or main): its own Auth emulator, local inbox, data folder with demo data and
 * portal server, in the foreground until SIGTERM or SIGINT, which stops them all. When the server
 * answers it prints one line with its address and its inbox's, which Playwright waits for and
 * hands to the tests (E2E_<NAME>_PORT, E2E_<NAME>_INBOX).
 *
 * Environment: E2E_RUN_DIR (the run's folder, `.test-data/e2e-<pid>` alone), DIST_DIR (the build
 * it serves, `dist` alone).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { startTestEmulator } from "./lib/emulator";
import { startMailCatcher } from "./lib/mail-catcher";
import { freePort, TEST_PORTS, TEST_PROJECT_ID } from "./lib/ports";
import { SERVER_ENTRY, SERVER_NODE_FLAGS } from "./lib/server-process";

/** Each project's preferred ports are apart, so neither takes one the other found free. */
const PORT_OFFSETS: Record<string, number> = { main: 0, walk: 1 };

const name = process.argv[2];
if (!name || !(name in PORT_OFFSETS)) {
  console.error(`usage: e2e-server.ts <${Object.keys(PORT_OFFSETS).join("|")}>`);
  process.exit(2);
}
const offset = PORT_OFFSETS[name];
const runDir = path.resolve(process.env.E2E_RUN_DIR ?? path.join(".test-data", `e2e-${process.pid}`));
const dir = path.join(runDir, `e2e-${name}`);

/** Waits for the server to write the port it bound (PORT=0) and answer its health check there. */
async function waitForServer(portFile: string, child: ChildProcess): Promise<number> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the e2e server exited with code ${child.exitCode}`);
    let port = 0;
    try {
      port = Number(readFileSync(portFile, "utf8"));
    } catch {
      // not written yet
    }
    if (port > 0) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`, { signal: AbortSignal.timeout(1000) })).ok)
          return port;
      } catch {
        // not answering yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error("the e2e server did not start within 120 s");
}

async function main() {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const stops: Array<() => Promise<void>> = [];
  let stopping: Promise<void> | undefined;
  // Newest first; each stop waits for its process, so nothing outlives this one.
  const stopAll = () =>
    (stopping ??= (async () => {
      for (const stop of stops.reverse()) await stop().catch(() => {});
    })());
  for (const signal of ["SIGTERM", "SIGINT"] as const)
    process.once(signal, () => void stopAll().then(() => process.exit(0)));
  try {
    const emulator = await startTestEmulator(path.join(dir, "auth-emulator"), offset);
    stops.push(() => emulator.stop());
    // The portal's mail goes to this server's own inbox; the browser tests open its page as a user would.
    const inbox = await startMailCatcher({
      smtpPort: await freePort(TEST_PORTS.mailSmtp + offset),
      httpPort: await freePort(TEST_PORTS.mailWeb + offset),
    });
    stops.push(() => inbox.stop());
    const portFile = path.join(dir, "port");
    const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
        FIREBASE_PROJECT_ID: TEST_PROJECT_ID,
        PORT: "0",
        PORT_FILE: portFile,
        DATA_DIR: path.join(dir, "data"),
        DIST_DIR: path.resolve(process.env.DIST_DIR ?? "dist"),
        SEED_DEMO: "1",
        LOG_LEVEL: "warn",
        NODE_ENV: "test",
        SMTP_URL: inbox.smtpUrl,
      },
    });
    const exited = new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once("exit", resolve)));
    stops.push(async () => {
      if (server.exitCode === null) server.kill("SIGTERM");
      await exited;
    });
    const port = await waitForServer(portFile, server);
    console.log(
      `e2e server ${name} ready: http://127.0.0.1:${port} inbox ${inbox.webUrl} auth emulator ${emulator.host}`,
    );
    // A server that dies under the tests ends this too, so Playwright reports it.
    await exited;
    throw new Error(`the e2e server exited with code ${server.exitCode}`);
  } catch (error) {
    if (stopping) return;
    // Playwright prints this after [name].
    console.error(error instanceof Error ? error.message : String(error));
    await stopAll();
    process.exit(1);
  }
}

void main();
