import { defineConfig, type PlaywrightTestConfig } from "@playwright/test";
import { PROJECT_SPECS, serversReadyPattern } from "./tests/e2e/support/projects";

/**
 * The browser tests as two projects side by side, one worker each, each against its own server
 * (scripts/e2e-server.ts: its own Auth emulator, inbox, data folder with demo data):
 * - walk: tests/e2e/layout.spec.ts, the walk over every route, with the specs that sign nobody out;
 * - main: every other spec, one at a time (the lists: tests/e2e/support/projects.ts).
 * Apart, because other specs sign demo users out everywhere and change their roles, which must
 * never reach the walk's signed-in pages. Not more than two: a third worker saturated the two cores
 * and every test ran slower (docs/develop/testing.md).
 * E2E_PROJECTS (a comma-separated list) limits the projects and so the servers started:
 * `npm test -- browser <spec>` starts only the one its spec needs.
 */
const PROJECTS = Object.keys(PROJECT_SPECS) as ProjectName[];
type ProjectName = keyof typeof PROJECT_SPECS;
const selected = (process.env.E2E_PROJECTS?.split(",") ?? PROJECTS).filter((name): name is ProjectName =>
  (PROJECTS as readonly string[]).includes(name),
);
if (selected.length === 0) throw new Error(`E2E_PROJECTS names none of ${PROJECTS.join(", ")}`);

const outputDir = process.env.PLAYWRIGHT_OUTPUT_DIR ?? ".test-data/playwright-output";

/**
 * The servers print their address once they answer (PORT=0: the system picks a free port, so two
 * runs on one machine never race for one); Playwright stores it in E2E_<NAME>_PORT and
 * E2E_<NAME>_INBOX before the workers start, and the workers, which load this file again, read it.
 */
const portOf = (name: ProjectName) => process.env[`E2E_${name.toUpperCase()}_PORT`];

const config: PlaywrightTestConfig = defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  // One per project (each project's own `workers` below): the walk beside the other specs.
  workers: selected.length,
  // 120 s, not 60: the longest flows (a log filed, viewed three times and filtered; a purchase across
  // three users) ran past 60 s on a CI machine three times slower than a normal one.
  timeout: 120_000,
  // 20 s, not 10: on a slow machine, with the projects side by side, an admin's first page after
  // signing in (the portal's code and the whole admin menu) took longer than 10 s to show.
  expect: { timeout: 20_000 },
  reporter: [["list"], ["./tests/e2e/support/summary-reporter.ts", { outputFile: process.env.E2E_SUMMARY_FILE }]],
  // One entry for every selected project's server: Playwright starts its entries one after the other.
  // `npm test` starts them itself while the unit and API tests run, and says so (E2E_SERVERS_STARTED).
  webServer: process.env.E2E_SERVERS_STARTED
    ? undefined
    : {
        name: "servers",
        command: `node --import tsx scripts/e2e-server.ts ${selected.join(",")}`,
        wait: { stdout: serversReadyPattern(selected) },
        // The emulator may take up to 180 s on a loaded machine (scripts/lib/emulator.ts), the server 120 s.
        timeout: 300_000,
        // SIGTERM lets it stop its emulators, inboxes and servers; SIGKILL after 30 s.
        gracefulShutdown: { signal: "SIGTERM", timeout: 30_000 },
        // Its only line on stdout is the one above: which servers are up, and where.
        stdout: "pipe",
        stderr: "pipe",
      },
  use: {
    browserName: "chromium",
    viewport: { width: 1280, height: 800 },
    // Off: recording a trace films every test (a screencast of each frame) for the few that fail, and
    // that filming was about a third of the browsers' work (docs/develop/testing.md). One spec's trace:
    // `npm test -- browser <spec> --trace=on`.
    trace: "off",
    screenshot: "only-on-failure",
    // The app turns antd's motion off for this (src/components/theme/reduced-motion.ts): a click never lands on a
    // dialog or menu still zooming in, which on a loaded machine Playwright could take for stable.
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
      // Chromium as root needs --no-sandbox; the closed network here makes background fetches fail loudly.
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: selected.map((name) => ({
    name,
    ...PROJECT_SPECS[name],
    workers: 1,
    outputDir: `${outputDir}/${name}`,
    // Read by tests/e2e/pages/inbox.ts.
    metadata: { inboxUrl: process.env[`E2E_${name.toUpperCase()}_INBOX`] },
    use: { baseURL: portOf(name) ? `http://127.0.0.1:${portOf(name)}` : undefined },
  })),
});

export default config;
