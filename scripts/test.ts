/**
 * npm test: the dependency check and the lint and format check, then every suite (unit, API on
 * PGlite and PostgreSQL, browser) against a private Auth emulator, ending with one line
 * "N passed, N failed" for all of them together (each of the two checks counts as one test).
 * `npm test -- deps`, `npm test -- lint`, `npm test -- vitest` or `npm test -- browser` runs one of them; further arguments
 * go to that runner (`npm test -- browser tests/e2e/my-tunes.spec.ts`, `npm test -- vitest tests/api/tune-files`).
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { PROJECT_SPECS, projectOfSpec } from "../tests/e2e/support/projects";
import type { BrowserSummary } from "../tests/e2e/support/summary-reporter";
import { type BrowserServers, startBrowserServers } from "./lib/browser-servers";
import { buildSpaInBackground } from "./lib/build";
import { ensureChromium } from "./lib/chromium";
import { checkDependencies } from "./lib/dependency-check";
import { startTestEmulator } from "./lib/emulator";
import { errorHead } from "./lib/error-head";
import { TEST_PROJECT_ID } from "./lib/ports";

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

/** A build that failed: one failure, named at the end (vite printed why above). */
function buildFailed(error: unknown): Tally {
  const reason = error instanceof Error ? error.message : String(error);
  return { suite: "unit + api", passed: 0, failed: 1, skipped: 0, failures: [`The web app's build: ${reason}`] };
}

/** A browser run that could not start: said at once, and counted as one failure named at the end. */
function browserRunFailed(error: unknown): Tally {
  const reason = `Browser tests could not run: ${error instanceof Error ? error.message : String(error)}`;
  console.error(reason);
  return { suite: "browser", passed: 0, failed: 1, skipped: 0, failures: [reason] };
}

/** Runs a command to its end, its output on the terminal. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env });
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

/** This run's own build of the current sources: another run rebuilding dist/ meanwhile cannot pull files from under it. */
const runDist = () => path.join(workDir, "dist");

/**
 * Which projects of playwright.config.ts a filtered run needs (and so which servers it starts): those
 * of the spec files the filters name; all when no filter names a file (`-g <title>`).
 */
function projectsFor(filters: string[]): string[] {
  const files = filters.filter((filter) => !filter.startsWith("-"));
  if (files.length === 0) return Object.keys(PROJECT_SPECS);
  return [...new Set(files.map(projectOfSpec))];
}

/** The bundle budget test: in a whole run it waits for the build the other tests run beside. */
const BUDGET_TEST = "tests/unit/scripts/lib/bundle-budget.test.ts";

/** Two Vitest runs' tallies as one. */
function joined(first: Tally, second: Tally): Tally {
  return {
    suite: first.suite,
    passed: first.passed + second.passed,
    failed: first.failed + second.failed,
    skipped: first.skipped + second.skipped,
    failures: [...(first.failures ?? []), ...(second.failures ?? [])],
  };
}

/**
 * The browser tests: one Playwright run of its projects side by side (playwright.config.ts), each
 * against its own server, data folder, inbox and Auth emulator (scripts/e2e-server.ts), which this
 * run started before (`servers`, with the build they serve). Its summary reporter writes the totals
 * and every failure, named, for the end.
 */
async function runBrowserTests(
  env: NodeJS.ProcessEnv,
  filters: string[],
  projects: string[],
  servers: BrowserServers,
  chromium: string,
): Promise<Tally> {
  const started = await servers.ready;
  const summaryFile = path.join(workDir, "browser-summary.json");
  rmSync(summaryFile, { force: true });
  const code = await run(bin("playwright"), ["test", ...filters], {
    ...env,
    ...started,
    E2E_SERVERS_STARTED: "1",
    E2E_PROJECTS: projects.join(","),
    CHROMIUM_PATH: chromium,
    E2E_RUN_DIR: workDir,
    E2E_SUMMARY_FILE: summaryFile,
    PLAYWRIGHT_OUTPUT_DIR: path.join(workDir, "playwright-output"),
  });
  const summary = readJson<BrowserSummary>(summaryFile);
  if (!summary)
    return {
      suite: "browser",
      passed: 0,
      failed: 1,
      skipped: 0,
      failures: [`Playwright wrote no summary (exit code ${code})`],
    };
  const failed = summary.failed + (code !== 0 && summary.failed === 0 ? 1 : 0);
  const failures = [...summary.failures];
  if (code !== 0 && failures.length === 0) failures.push(`Playwright exited with code ${code} outside any test`);
  return { suite: "browser", passed: summary.passed, failed, skipped: summary.skipped, failures };
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
  const filters = process.argv.slice(3);
  const whole = !only;
  // The whole suite builds the web app once, beside the unit and API tests: the bundle budget test
  // reads this build (BUNDLE_DIST) once it is written, and the browser tests are served from it. As
  // soon as it is, the browser projects' servers start, while the unit and API tests go on.
  const browser = only !== "vitest";
  const projects = browser ? (process.env.E2E_PROJECTS?.split(",") ?? projectsFor(filters)) : [];
  // A whole run is a browser run too; `npm test -- vitest` alone builds nothing here.
  if (browser) console.log("Building the web app for the browser tests and the bundle budgets…");
  const build = browser ? buildSpaInBackground(runDist()) : Promise.resolve();
  const servers: Promise<BrowserServers | undefined> = build.then(() =>
    browser ? startBrowserServers(projects, { ...process.env, DIST_DIR: runDist(), E2E_RUN_DIR: workDir }) : undefined,
  );
  // Awaited where they are used; a failure is reported there.
  servers.catch(() => {});
  try {
    if (only !== "browser") {
      // The API tests' Auth emulator; each browser project's server has its own (scripts/e2e-server.ts).
      const emulator = await startTestEmulator(path.join(workDir, "auth-emulator"));
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
        FIREBASE_PROJECT_ID: TEST_PROJECT_ID,
      };
      try {
        if (!whole) tallies.push(await runVitest(env, filters));
        else {
          const rest = await runVitest(env, ["--exclude", BUDGET_TEST]);
          const budgets = await build.then(
            () => runVitest({ ...env, BUNDLE_DIST: runDist() }, [BUDGET_TEST]),
            (error: unknown) => buildFailed(error),
          );
          tallies.push(joined(rest, budgets));
        }
      } finally {
        await emulator.stop();
      }
    }
    if (browser)
      try {
        const started = (await servers)!;
        tallies.push(await runBrowserTests(process.env, filters, projects, started, ensureChromium("headless-shell")));
      } catch (error) {
        tallies.push(browserRunFailed(error));
      }
  } finally {
    await servers.then(
      (started) => started?.stop(),
      () => {},
    );
  }
  if (tallies.every((tally) => tally.failed === 0)) rmSync(workDir, { recursive: true, force: true });
  report(tallies);
}

/**
 * The tallies, and before them every failure named again: the two browser projects share the
 * terminal, so a failure reported early by one is far above the end of the other's output, where a
 * CI log is cut.
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
