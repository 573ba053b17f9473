/**
 * The browser projects' servers (scripts/e2e-server.ts) started by `npm test` itself rather than by
 * Playwright's webServer, so that they start while the unit and API tests still run: their start
 * (an Auth emulator, migrations and the demo data for each project) then costs the suite nothing.
 * The same process Playwright would start, waited for by the same line.
 */
import { spawn } from "node:child_process";
import { serversReadyPattern } from "../../tests/e2e/support/projects";

export interface BrowserServers {
  /** Settles with what Playwright's webServer would hand the tests (E2E_<NAME>_PORT, E2E_<NAME>_INBOX). */
  ready: Promise<Record<string, string>>;
  /** Stops them all (SIGTERM: they stop their emulators and inboxes), once. */
  stop: () => Promise<void>;
}

/** Starts the servers of `names` on `env` (DIST_DIR, E2E_RUN_DIR); their error output is printed as `[servers] …`. */
export function startBrowserServers(names: readonly string[], env: NodeJS.ProcessEnv): BrowserServers {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/e2e-server.ts", names.join(",")], {
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  child.stderr.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) if (line) process.stderr.write(`[servers] ${line}\n`);
  });
  const pattern = serversReadyPattern(names);
  const ready = new Promise<Record<string, string>>((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const groups = pattern.exec(output)?.groups;
      if (groups)
        resolve(Object.fromEntries(Object.entries(groups).map(([name, value]) => [name.toUpperCase(), value])));
    });
    void exited.then(() => reject(new Error(`the browser tests' servers exited (code ${child.exitCode})`)));
  });
  // Awaited where it is used; a rejection nobody waits for (a run that fails before) is not a crash.
  ready.catch(() => {});
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      // As Playwright's gracefulShutdown: SIGKILL when they have not stopped after 30 s.
      const kill = setTimeout(() => child.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(kill);
    })());
  return { ready, stop };
}
