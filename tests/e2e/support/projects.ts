/**
 * Which specs each browser project runs (playwright.config.ts), by file name. The walk over every
 * route runs with specs that sign nobody out and change no one's role, so that its signed-in
 * pages are never cut short; every other spec runs in main. The two take about as long, so both
 * browsers are busy to the end (docs/develop/testing.md).
 */
const WALK_SPECS = [
  "layout.spec.ts",
  "catalogue.spec.ts",
  "public-site.spec.ts",
  "tune-viewer.spec.ts",
  "unknown-ids.spec.ts",
  "vehicles.spec.ts",
];

export const PROJECT_SPECS: Record<"walk" | "main", { testMatch?: string[]; testIgnore?: string[] }> = {
  walk: { testMatch: WALK_SPECS },
  main: { testIgnore: WALK_SPECS },
};

/** The project that runs the spec file at `file` (a path or a name). */
export function projectOfSpec(file: string): keyof typeof PROJECT_SPECS {
  return WALK_SPECS.includes(file.split("/").pop() ?? file) ? "walk" : "main";
}

/**
 * The line scripts/e2e-server.ts prints once every named project's server answers, with each one's
 * port and inbox as named groups (`e2e_<name>_port`, `e2e_<name>_inbox`): Playwright's webServer
 * and `npm test` wait for it and hand the groups to the tests as E2E_<NAME>_PORT and E2E_<NAME>_INBOX.
 */
export function serversReadyPattern(names: readonly string[]): RegExp {
  const each = names.map(
    (name) => `${name} http://127\\.0\\.0\\.1:(?<e2e_${name}_port>\\d+) inbox (?<e2e_${name}_inbox>\\S+) .*?`,
  );
  return new RegExp(`e2e servers ready: ${each.join("")}$`, "m");
}
