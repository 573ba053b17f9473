/**
 * npm start: the whole portal on embedded defaults: Auth emulator, API + built SPA on one origin, demo data.
 * npm run dev: the same server plus Vite's hot reload on :5173.
 * Ctrl-C stops everything; accounts, records and files stay in DATA_DIR for the next run.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { demoAccountsBanner, runMain } from "./lib/banner";
import { buildSpa, spaIsStale } from "./lib/build";
import { localAuthEmulator } from "./lib/emulator";
import { waitForHealth } from "./lib/health";
import { startMailCatcher } from "./lib/mail-catcher";
import { freePort, START_MAIL_PORTS } from "./lib/ports";
import { SERVER_ENTRY, SERVER_NODE_FLAGS } from "./lib/server-process";
import { supervise } from "./lib/supervise";

const dev = process.argv.includes("--dev");
const dataDir = path.resolve(process.env.DATA_DIR ?? ".data");
const port = Number(process.env.PORT ?? 8080);
const projectId = process.env.FIREBASE_PROJECT_ID ?? "demo-tuning-portal";

async function main() {
  if (!dev && spaIsStale()) {
    console.log("Building the web app (first start, or sources changed)…");
    buildSpa();
  }

  const { host: emulatorHost, emulator } = await localAuthEmulator(dataDir, projectId);

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

  console.log(`
  Tuning portal is running
    Portal:         ${dev ? `http://127.0.0.1:5173 (Vite hot reload; API on :${port})` : `http://127.0.0.1:${port}`}
    Auth emulator:  http://${emulatorHost}
    Mail sent by the portal: ${inbox ? inbox.webUrl : `to the SMTP server of SMTP_URL`}
    Data folder:    ${dataDir}
${demoAccountsBanner()}`);
}

runMain(main);
