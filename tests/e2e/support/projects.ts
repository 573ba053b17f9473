/**
 * Which specs each browser project runs (playwright.config.ts), by file name: the walk over every
 * route alone, every other spec in main.
 */
const WALK_SPEC = "layout.spec.ts";

export const PROJECT_SPECS: Record<"walk" | "main", { testMatch?: string[]; testIgnore?: string[] }> = {
  walk: { testMatch: [WALK_SPEC] },
  main: { testIgnore: [WALK_SPEC] },
};

/** The project that runs the spec file at `file` (a path or a name). */
export function projectOfSpec(file: string): keyof typeof PROJECT_SPECS {
  return (file.split("/").pop() ?? file) === WALK_SPEC ? "walk" : "main";
}
