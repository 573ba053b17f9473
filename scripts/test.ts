/**
 * npm test: the dependency check and the lint and format check, then every suite (unit, API on
 * PGlite and PostgreSQL, browser) against a private Auth emulator, ending with one line
 * "N passed, N failed" for all of them together (each of the two checks counts as one test).
 * `npm test -- deps`, `npm test -- lint`, `npm test -- vitest` or `npm test -- browser` runs one of them; further arguments
 * go to that runner (`npm test -- browser tests/e2e/my-tunes.spec.ts`, `npm test -- vitest tests/api/tune-files`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { buildSpa } from "./lib/build";
import { ensureChromium } from "./lib/chromium";
import { checkDependencies } from "./lib/dependency-check";
import { startTestEmulator } from "./lib/emulator";
import { startMailCatcher } from "./lib/mail-catcher";
import { freePort, TEST_PORTS, TEST_PROJECT_ID } from "./lib/ports";
import { SERVER_ENTRY, SERVER_NODE_FLAGS } from "./lib/server-process";

const root = process.cwd();
// Per run, so two runs on one machine keep apart.
const workDir = path.resolve(".test-data", `run-${process.pid}`);
const bin = (name: string) => path.join(root, "node_modules/.bin", name);

interface Tally {
  suite: string;
  passed: number;
  failed: number;
  skipped: number;
  /** Each failed test, named, with the start of its error: printed again at the very end. */
  failures?: string[];
}

/** The first lines of an error, without the colours the reporters add. */
function errorHead(message: string | undefined): string {
  const lines = (message ?? "")
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .map((line) => line.trimEnd())
    .filter(Boolean);
  // The message and where it was thrown; the rest of the stack is in the runner's own output above.
  const firstFrame = lines.findIndex((line) => line.trimStart().startsWith("at "));
  const kept = firstFrame < 0 ? lines : lines.slice(0, firstFrame + 1);
  return kept
    .slice(0, 8)
    .map((line) => `      ${line.trim()}`)
    .join("\n");
}

/** A browser run that could not start: said at once, and counted as one failure named at the end. */
function browserRunFailed(error: unknown): Tally {
  const reason = `Browser tests could not run: ${error instanceof Error ? error.message : String(error)}`;
  console.error(reason);
  return { suite: "browser", passed: 0, failed: 1, skipped: 0, failures: [reason] };
}

/** Runs a command to its end; with a `label`, each line of its output is printed after `[label]`. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, label?: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: label ? ["ignore", "pipe", "pipe"] : "inherit", env });
    if (label) {
      for (const [stream, out] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ] as const) {
        createInterface({ input: stream! }).on("line", (line) => out.write(`[${label}] ${line}\n`));
      }
    }
    // "close", not "exit": the last lines of its output are printed by then.
    child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return null;
  }
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: Array<{
    name: string;
    status: string;
    message?: string;
    assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }>;
  }>;
}

interface PlaywrightSuite {
  title: string;
  file?: string;
  suites?: PlaywrightSuite[];
  specs?: Array<{
    title: string;
    file: string;
    line: number;
    tests: Array<{ status: string; results: Array<{ status: string; error?: { message?: string } }> }>;
  }>;
}

interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  suites?: PlaywrightSuite[];
  errors?: Array<{ message?: string }>;
}

/** Every test of a Playwright report that did not pass at its first try, with its last error. */
function playwrightFailures(report: PlaywrightReport, label: string): string[] {
  const failures: string[] = [];
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    const here = suite.file && suite.title === suite.file ? titles : [...titles, suite.title];
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== "unexpected" && test.status !== "flaky") continue;
        const failedTry = [...test.results].reverse().find((result) => result.error) ?? test.results[0];
        failures.push(
          `[${label}] tests/e2e/${spec.file}:${spec.line} › ${[...here, spec.title].filter(Boolean).join(" › ")} (${test.status})\n${errorHead(failedTry?.error?.message)}`,
        );
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  for (const error of report.errors ?? []) failures.push(`[${label}] outside any test\n${errorHead(error.message)}`);
  return failures;
}

async function runVitest(env: NodeJS.ProcessEnv, filters: string[]): Promise<Tally> {
  const report = path.join(workDir, "vitest.json");
  rmSync(report, { force: true });
  const code = await run(
    bin("vitest"),
    ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...filters],
    env,
  );
  const json = readJson<VitestReport>(report);
  if (!json) return { suite: "unit + api", passed: 0, failed: 1, skipped: 0, failures: ["vitest wrote no report"] };
  // A crash outside any test (a failing import, a setup error) still fails the run.
  const failed = json.numFailedTests + (code !== 0 && json.numFailedTests === 0 ? 1 : 0);
  const failures = json.testResults.flatMap((file) => [
    ...(file.status === "failed" && file.assertionResults.every((test) => test.status !== "failed")
      ? [`${path.relative(root, file.name)}\n${errorHead(file.message)}`]
      : []),
    ...file.assertionResults
      .filter((test) => test.status === "failed")
      .map((test) => `${path.relative(root, file.name)} › ${test.fullName}\n${errorHead(test.failureMessages[0])}`),
  ]);
  if (code !== 0 && failures.length === 0) failures.push(`vitest exited with code ${code} outside any test`);
  return {
    suite: "unit + api",
    passed: json.numPassedTests,
    failed,
    skipped: json.numPendingTests + json.numTodoTests,
    failures,
  };
}

/** Waits for the server to write the port it bound (PORT=0) and answer its health check there. */
async function waitForServer(portFile: string, child: ChildProcess): Promise<number> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the e2e server exited with code ${child.exitCode}`);
    const port = Number(readJson<number>(portFile));
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

/** This run's own build of the current sources: another run rebuilding dist/ meanwhile cannot pull files from under it. */
const runDist = () => path.join(workDir, "dist");

/**
 * One browser run: its own mail inbox, its own server with demo data in its own folder, and the
 * Auth emulator it is given, then Playwright with `filters`. Its output lines carry `label` when
 * two runs share the terminal.
 */
async function runBrowserShard(
  env: NodeJS.ProcessEnv,
  filters: string[],
  label: string,
  distDir: string,
  chromium: string,
  portOffset = 0,
): Promise<Tally> {
  const shardDir = path.join(workDir, `e2e-${label}`);
  rmSync(shardDir, { recursive: true, force: true });
  mkdirSync(shardDir, { recursive: true });
  const portFile = path.join(shardDir, "port");
  // The portal's mail goes to a local inbox of this run; the browser tests open its page as a user would.
  // Two runs side by side ask for different ports, so neither takes the one the other found free.
  const inbox = await startMailCatcher({
    smtpPort: await freePort(TEST_PORTS.mailSmtp + portOffset),
    httpPort: await freePort(TEST_PORTS.mailWeb + portOffset),
  });
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...env,
      PORT: "0",
      PORT_FILE: portFile,
      DATA_DIR: path.join(shardDir, "data"),
      DIST_DIR: distDir,
      SEED_DEMO: "1",
      LOG_LEVEL: "warn",
      NODE_ENV: "test",
      SMTP_URL: inbox.smtpUrl,
    },
  });
  try {
    const port = await waitForServer(portFile, server);
    const report = path.join(shardDir, "playwright.json");
    const code = await run(
      bin("playwright"),
      ["test", "--reporter=list,json", ...filters],
      {
        ...env,
        CHROMIUM_PATH: chromium,
        E2E_BASE_URL: `http://127.0.0.1:${port}`,
        E2E_MAIL_INBOX_URL: inbox.webUrl,
        PLAYWRIGHT_JSON_OUTPUT_NAME: report,
        PLAYWRIGHT_OUTPUT_DIR: path.join(shardDir, "playwright-output"),
      },
      label,
    );
    const json = readJson<PlaywrightReport>(report);
    if (!json)
      return {
        suite: "browser",
        passed: 0,
        failed: 1,
        skipped: 0,
        failures: [`[${label}] Playwright wrote no report (exit code ${code})`],
      };
    const failed = json.stats.unexpected + json.stats.flaky + (code !== 0 && json.stats.unexpected === 0 ? 1 : 0);
    const failures = playwrightFailures(json, label);
    if (code !== 0 && failures.length === 0)
      failures.push(`[${label}] Playwright exited with code ${code} outside any test`);
    return { suite: "browser", passed: json.stats.expected, failed, skipped: json.stats.skipped, failures };
  } finally {
    server.kill("SIGTERM");
    await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once("exit", resolve)));
    await inbox.stop();
  }
}

/**
 * The spec run beside the others in the whole suite: the walk over every route, a third of the
 * browser suite's time. One Playwright process keeps both cores only about half busy (it mostly
 * waits on pages), so two side by side finish sooner. Each has its own server, data, inbox and
 * Auth emulator: other specs sign demo users out everywhere and change their roles, which must
 * never reach the walk's signed-in pages.
 */
const SIDE_SPECS = ["tests/e2e/layout.spec.ts"];

/** Every spec file but the side ones, as Playwright filters (each a path, matched as a pattern). */
function mainSpecs(): string[] {
  return readdirSync(path.join(root, "tests/e2e"))
    .filter((name) => name.endsWith(".spec.ts"))
    .map((name) => `tests/e2e/${name}`)
    .filter((spec) => !SIDE_SPECS.includes(spec));
}

async function runBrowserTests(env: NodeJS.ProcessEnv, filters: string[], built: boolean): Promise<Tally> {
  const chromium = ensureChromium();
  const distDir = runDist();
  if (!built) {
    console.log("Building the web app for the browser tests…");
    buildSpa(distDir);
  }
  if (filters.length > 0) return runBrowserShard(env, filters, "browser", distDir, chromium);
  const sideEmulator = await startTestEmulator(path.join(workDir, "auth-emulator-side"), 1);
  try {
    // Settled, not all: a run that cannot start is a failure of its own while the other runs to its end
    // (its server and the side emulator are not stopped from under it).
    const runs = await Promise.allSettled([
      runBrowserShard(env, mainSpecs(), "browser", distDir, chromium),
      runBrowserShard(
        { ...env, FIREBASE_AUTH_EMULATOR_HOST: sideEmulator.host },
        SIDE_SPECS,
        "walk",
        distDir,
        chromium,
        1,
      ),
    ]);
    const tallies = runs.map((run): Tally => (run.status === "fulfilled" ? run.value : browserRunFailed(run.reason)));
    return tallies.reduce((sum, tally) => ({
      suite: "browser",
      passed: sum.passed + tally.passed,
      failed: sum.failed + tally.failed,
      skipped: sum.skipped + tally.skipped,
      failures: [...(sum.failures ?? []), ...(tally.failures ?? [])],
    }));
  } finally {
    await sideEmulator.stop();
  }
}

async function main() {
  const only = process.argv[2];
  if (only && only !== "vitest" && only !== "browser" && only !== "deps" && only !== "lint")
    throw new Error(`Unknown suite "${only}": use deps, lint, vitest or browser`);
  const tallies: Tally[] = [];
  if (!only || only === "deps") {
    const deps = checkDependencies(root);
    tallies.push({
      suite: "dependency check",
      passed: deps.ok ? 1 : 0,
      failed: deps.ok ? 0 : 1,
      skipped: 0,
      failures: deps.ok ? [] : ["the dependency check (its problems are printed above)"],
    });
  }
  if (!only || only === "lint") {
    // biome ci: the format check, the linter and the import order; any diagnostic fails it.
    const code = await run(bin("biome"), ["ci", "."], process.env);
    tallies.push({
      suite: "lint and format",
      passed: code === 0 ? 1 : 0,
      failed: code === 0 ? 0 : 1,
      skipped: 0,
      failures: code === 0 ? [] : ["the lint and format check, biome ci (its diagnostics are printed above)"],
    });
  }
  if (only === "deps" || only === "lint") return report(tallies);
  mkdirSync(workDir, { recursive: true });
  const emulator = await startTestEmulator(path.join(workDir, "auth-emulator"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    FIREBASE_PROJECT_ID: TEST_PROJECT_ID,
  };
  const filters = process.argv.slice(3);
  // The whole suite builds the web app once: the bundle budget test reads this build (BUNDLE_DIST)
  // instead of making its own beside the API tests, and the browser tests are served from it.
  const built = !only;
  if (built) {
    console.log("Building the web app for the bundle budgets and the browser tests…");
    buildSpa(runDist());
    env.BUNDLE_DIST = runDist();
  }
  try {
    if (only !== "browser") tallies.push(await runVitest(env, filters));
    if (only !== "vitest")
      try {
        tallies.push(await runBrowserTests(env, filters, built));
      } catch (error) {
        tallies.push(browserRunFailed(error));
      }
  } finally {
    await emulator.stop();
  }
  if (tallies.every((tally) => tally.failed === 0)) rmSync(workDir, { recursive: true, force: true });
  report(tallies);
}

/**
 * The tallies, and before them every failure named again: two browser runs share the terminal, so a
 * failure reported early by one is far above the end of the other's output, where a CI log is cut.
 */
function report(tallies: Tally[]): never {
  const failures = tallies.flatMap((tally) => tally.failures ?? []);
  if (failures.length > 0) {
    console.log(`\nFailed (${failures.length}):`);
    for (const failure of failures) console.log(`  ✘ ${failure}`);
    console.log("");
  }
  for (const tally of tallies)
    console.log(`  ${tally.suite}: ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped`);
  const passed = tallies.reduce((sum, tally) => sum + tally.passed, 0);
  const failed = tallies.reduce((sum, tally) => sum + tally.failed, 0);
  const skipped = tallies.reduce((sum, tally) => sum + tally.skipped, 0);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  console.log("0 passed, 1 failed");
  process.exit(1);
});
