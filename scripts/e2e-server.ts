/**
 * The browser tests' servers, one per project named (playwright.config.ts), started side by side by
 * Playwright's one `webServer` entry: each its own Auth emulator, local inbox, data folder with demo
 * data and portal server, in the foreground until SIGTERM or SIGINT, which stops them all. When every
 * server answers it prints one line with each one's address and inbox, in the order named, which
 * Playwright waits for and hands to the tests (E2E_<NAME>_PORT, E2E_<NAME>_INBOX). One entry, not one
 * per project: Playwright starts its entries one after the other, and most of a start is waiting.
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

/** Each project's preferred ports are apart, so none takes one another found free. */
const PORT_OFFSETS: Record<string, number> = { main: 0, walk: 1 };

const names = (process.argv[2] ?? "").split(",").filter(Boolean);
if (names.length === 0 || names.some((name) => !(name in PORT_OFFSETS))) {
  console.error(`usage: e2e-server.ts <name>[,<name>…] with names of ${Object.keys(PORT_OFFSETS).join(", ")}`);
  process.exit(2);
}
const runDir = path.resolve(process.env.E2E_RUN_DIR ?? path.join(".test-data", `e2e-${process.pid}`));

/** Waits for the server to write the port it bound (PORT=0) and answer its health check there. */
async function waitForServer(portFile: string, child: ChildProcess): Promise<number> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the e2e server exited (${child.exitCode ?? child.signalCode})`);
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

interface Started {
  /** "<name> http://127.0.0.1:<port> inbox <url> auth emulator <host>" */
  line: string;
  /** Settles when the server exits. */
  exited: Promise<unknown>;
}

/** Starts one project's emulator, inbox and server; each stop it needs is pushed on `stops` as it starts. */
async function startOne(name: string, stops: Array<() => Promise<void>>): Promise<Started> {
  const offset = PORT_OFFSETS[name];
  const dir = path.join(runDir, `e2e-${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
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
    if (server.exitCode === null && server.signalCode === null) server.kill("SIGTERM");
    await exited;
  });
  const port = await waitForServer(portFile, server);
  return { line: `${name} http://127.0.0.1:${port} inbox ${inbox.webUrl} auth emulator ${emulator.host}`, exited };
}

async function main() {
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
    const started = await Promise.all(names.map((name) => startOne(name, stops)));
    console.log(`e2e servers ready: ${started.map((one) => one.line).join(" · ")}`);
    // A server that dies under the tests ends this too, so Playwright reports it.
    await Promise.race(started.map((one) => one.exited));
    throw new Error("an e2e server exited under the tests");
  } catch (error) {
    if (stopping) return;
    // Playwright prints this after the entry's name.
    console.error(error instanceof Error ? error.message : String(error));
    await stopAll();
    process.exit(1);
  }
}

void main();
