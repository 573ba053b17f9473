import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { freePort, TEST_PORTS, TEST_PROJECT_ID } from "./ports";

export interface EmulatorOptions {
  projectId: string;
  port: number;
  /** The emulator hub and logging ports must differ between concurrently running emulators. */
  hubPort: number;
  loggingPort: number;
  /** Folder for the generated firebase.json (and the accounts export when persisting). */
  workDir: string;
  /** Keep accounts across runs: import at start, export on exit. */
  persist?: boolean;
  log?: (line: string) => void;
}

export interface RunningEmulator {
  host: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

const firebaseBin = path.resolve("node_modules/.bin/firebase");

export async function isAuthEmulatorUp(host: string): Promise<boolean> {
  try {
    const response = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

export async function startAuthEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const host = `127.0.0.1:${options.port}`;
  mkdirSync(options.workDir, { recursive: true });
  // Read after the start (portTaken): an earlier start's log must not speak for this one.
  rmSync(path.join(options.workDir, "firebase-debug.log"), { force: true });
  const configPath = path.join(options.workDir, "firebase.json");
  writeFileSync(
    configPath,
    JSON.stringify({
      emulators: {
        auth: { host: "127.0.0.1", port: options.port },
        hub: { host: "127.0.0.1", port: options.hubPort },
        logging: { host: "127.0.0.1", port: options.loggingPort },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const exportDir = path.join(options.workDir, "export");
  const args = ["emulators:start", "--only", "auth", "--project", options.projectId, "--config", configPath];
  if (options.persist) {
    mkdirSync(exportDir, { recursive: true });
    args.push("--import", exportDir, "--export-on-exit", exportDir);
  }
  const child = spawn(firebaseBin, args, {
    cwd: options.workDir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: "", CI: "true" },
    detached: false,
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const line of chunk.toString().split("\n")) if (line.trim()) options.log?.(line);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);

  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const deadline = Date.now() + 180_000;
  // Our own child must say it is ready: another run's emulator answering on the port is not ours.
  while (!output.includes("All emulators ready") || !(await isAuthEmulatorUp(host))) {
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("waiting"), 300))]);
    if (code !== "waiting") throw new Error(`The Auth emulator exited (code ${code}) before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`The Auth emulator did not answer on ${host} within 180 s:\n${output}`);
    }
  }
  // The CLI says it is ready even when a port it was given was taken meanwhile (it only logs the
  // EADDRINUSE), and another run's emulator may then be the one answering on that port.
  if (portTaken(options.workDir)) {
    child.kill("SIGKILL");
    await exited;
    throw new PortTaken(`The Auth emulator found one of its ports taken (${host}, hub ${options.hubPort})`);
  }
  return {
    host,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      // SIGINT lets the emulator export accounts before it exits.
      child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * An Auth emulator of the test project in `workDir`, on the test ports moved by `offset` (or free ones):
 * runs started side by side ask for different ports, so neither takes one the other found free.
 */
export async function startTestEmulator(workDir: string, offset = 0): Promise<RunningEmulator> {
  // A port found free can be taken by another run before the emulator binds it: then try others.
  for (let attempt = 1; ; attempt++) {
    const moved = attempt > 1 ? PORT_TAKEN_SHIFT * attempt : 0;
    try {
      return await startAuthEmulator({
        projectId: TEST_PROJECT_ID,
        port: await freePort(TEST_PORTS.emulator + offset + moved),
        hubPort: await freePort(TEST_PORTS.emulatorHub + offset + moved),
        loggingPort: await freePort(TEST_PORTS.emulatorLogging + offset + moved),
        workDir,
      });
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

/** How far a retry moves the preferred ports, past those of the other projects' emulators. */
const PORT_TAKEN_SHIFT = 10;

class PortTaken extends Error {}

/** Whether the emulator's debug log says a port it was to listen on was in use. */
function portTaken(workDir: string): boolean {
  try {
    return readFileSync(path.join(workDir, "firebase-debug.log"), "utf8").includes("EADDRINUSE");
  } catch {
    return false;
  }
}

/**
 * The Auth emulator of `npm start` and `npm run cluster` on its usual port, keeping its accounts
 * under `dataDir`; one already running there (another command's) is used instead, and not stopped.
 */
export async function localAuthEmulator(
  dataDir: string,
  projectId: string,
): Promise<{ host: string; emulator: RunningEmulator | null }> {
  const host = `127.0.0.1:${LOCAL_EMULATOR_PORT}`;
  if (await isAuthEmulatorUp(host)) {
    console.log(`Using the Auth emulator already running on ${host}`);
    return { host, emulator: null };
  }
  const emulator = await startAuthEmulator({
    projectId,
    port: LOCAL_EMULATOR_PORT,
    hubPort: 4400,
    loggingPort: 4500,
    workDir: path.join(dataDir, "auth-emulator"),
    persist: true,
  });
  return { host, emulator };
}

const LOCAL_EMULATOR_PORT = 9099;
