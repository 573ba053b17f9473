import { defineConfig, type PlaywrightTestConfig } from "@playwright/test";

/**
 * The browser tests as two projects, each against its own server that Playwright starts
 * (scripts/e2e-server.ts: its own Auth emulator, inbox, data folder with demo data):
 * - walk: tests/e2e/layout.spec.ts, the walk over every route, a third of the suite's time;
 * - main: every other spec, one at a time.
 * They run side by side (one worker each): one Playwright worker keeps both cores only about half
 * busy (it mostly waits on pages). Apart, because other specs sign demo users out everywhere and
 * change their roles, which must never reach the walk's signed-in pages.
 * E2E_PROJECTS (a comma-separated list) limits the projects and so the servers started:
 * `npm test -- browser <spec>` starts only the one its spec needs.
 */
const PROJECTS = ["walk", "main"] as const;
type ProjectName = (typeof PROJECTS)[number];
const selected = (process.env.E2E_PROJECTS?.split(",") ?? PROJECTS).filter((name): name is ProjectName =>
  (PROJECTS as readonly string[]).includes(name),
);
if (selected.length === 0) throw new Error(`E2E_PROJECTS names none of ${PROJECTS.join(", ")}`);

const specs: Record<ProjectName, { testMatch?: string; testIgnore?: string }> = {
  walk: { testMatch: "layout.spec.ts" },
  main: { testIgnore: "layout.spec.ts" },
};

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
  // three users) take 18-20 s on a normal day and ran past 60 s on a machine three times slower (CI, 2026-11-28).
  timeout: 120_000,
  // 20 s, not 10: on a slow day, with both projects side by side, an admin's first page after
  // signing in (the portal's code and the whole admin menu) took over 10 s to show.
  expect: { timeout: 20_000 },
  reporter: [["list"], ["./tests/e2e/support/summary-reporter.ts", { outputFile: process.env.E2E_SUMMARY_FILE }]],
  webServer: selected.map((name) => ({
    name,
    command: `node --import tsx scripts/e2e-server.ts ${name}`,
    wait: {
      stdout: new RegExp(
        `e2e server ${name} ready: http://127\\.0\\.0\\.1:(?<e2e_${name}_port>\\d+) inbox (?<e2e_${name}_inbox>\\S+) `,
      ),
    },
    // The emulator may take up to 180 s on a loaded machine (scripts/lib/emulator.ts), the server 120 s.
    timeout: 300_000,
    // SIGTERM lets it stop its emulator, inbox and server; SIGKILL after 30 s.
    gracefulShutdown: { signal: "SIGTERM", timeout: 30_000 },
    // Its only line on stdout is the one above: which server is up, and where.
    stdout: "pipe",
    stderr: "pipe",
  })),
  use: {
    browserName: "chromium",
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    // The app turns antd's motion off for this (src/components/theme/reduced-motion.ts): a click never lands on a
    // dialog or menu still zooming in, which on a loaded machine Playwright could take for stable.
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
    ...specs[name],
    workers: 1,
    outputDir: `${outputDir}/${name}`,
    // Read by tests/e2e/pages/inbox.ts.
    metadata: { inboxUrl: process.env[`E2E_${name.toUpperCase()}_INBOX`] },
    use: { baseURL: portOf(name) ? `http://127.0.0.1:${portOf(name)}` : undefined },
  })),
});

export default config;
