/**
 * npm start: the whole portal on embedded defaults: Auth emulator, API + built SPA on one origin, demo data.
 * npm run dev: the same server plus Vite's hot reload on :5173.
 * Ctrl-C stops everything; accounts, records and files stay in DATA_DIR for the next run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { DEMO_PASSWORD, demoAccounts } from "../server/seed";
import { buildSpa, spaIsStale } from "./lib/build";
import { isAuthEmulatorUp, startAuthEmulator } from "./lib/emulator";
import { startMailCatcher } from "./lib/mail-catcher";
import { freePort, START_MAIL_PORTS } from "./lib/ports";
import { SERVER_ENTRY, SERVER_NODE_FLAGS } from "./lib/server-process";
import { hasExited, supervise } from "./lib/supervise";

const dev = process.argv.includes("--dev");
const dataDir = path.resolve(process.env.DATA_DIR ?? ".data");
const port = Number(process.env.PORT ?? 8080);
const projectId = process.env.FIREBASE_PROJECT_ID ?? "demo-tuning-portal";
const emulatorPort = 9099;

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (hasExited(child))
      throw new Error(`The server exited (${child.signalCode ?? `code ${child.exitCode}`}) during start-up`);
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`The server did not answer ${url} within 120 s`);
}

async function main() {
  if (!dev && spaIsStale()) {
    console.log("Building the web app (first start, or sources changed)…");
    buildSpa();
  }

  const emulatorHost = `127.0.0.1:${emulatorPort}`;
  const emulator = (await isAuthEmulatorUp(emulatorHost))
    ? null
    : await startAuthEmulator({
        projectId,
        port: emulatorPort,
        hubPort: 4400,
        loggingPort: 4500,
        workDir: path.join(dataDir, "auth-emulator"),
        persist: true,
      });
  if (!emulator) console.log(`Using the Auth emulator already running on ${emulatorHost}`);

  // Mail goes to the local inbox unless SMTP_URL names a real server.
  const inbox = process.env.SMTP_URL
    ? null
    : await startMailCatcher({
        smtpPort: await freePort(START_MAIL_PORTS.smtp),
        httpPort: await freePort(START_MAIL_PORTS.web),
      });

  const env = {
    ...process.env,
    ...(inbox && { SMTP_URL: inbox.smtpUrl }),
    // Emailed links lead to the page the newcomer uses: Vite's in development.
    ...(dev && !process.env.PUBLIC_URL && { PUBLIC_URL: "http://127.0.0.1:5173" }),
    PORT: String(port),
    DATA_DIR: dataDir,
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    FIREBASE_PROJECT_ID: projectId,
    SEED_DEMO: "1",
  };
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], { stdio: "inherit", env });
  const supervisor = supervise(server, {
    name: "The API server",
    stopRest: async () => {
      await emulator?.stop();
      await inbox?.stop();
    },
    exit: (code) => process.exit(code),
    log: (line) => console.log(line),
  });
  process.on("SIGINT", () => void supervisor.stop(0));
  process.on("SIGTERM", () => void supervisor.stop(0));

  await waitForHealth(`http://127.0.0.1:${port}/api/v1/health`, server);
  if (dev) {
    const vite = spawn(path.resolve("node_modules/.bin/vite"), ["--host", "127.0.0.1"], { stdio: "inherit", env });
    supervisor.add(vite);
  }

  const accounts = demoAccounts.map((account) => `    ${account.email.padEnd(24)} ${account.role}`).join("\n");
  console.log(`
  Tuning portal is running
    Portal:         ${dev ? `http://127.0.0.1:5173 (Vite hot reload; API on :${port})` : `http://127.0.0.1:${port}`}
    Auth emulator:  http://${emulatorHost}
    Mail sent by the portal: ${inbox ? inbox.webUrl : `to the SMTP server of SMTP_URL`}
    Data folder:    ${dataDir}
  Demo accounts (password ${DEMO_PASSWORD}):
${accounts}
  Press Ctrl-C to stop.
`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
