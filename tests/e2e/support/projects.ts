/**
 * Which specs each browser project runs (playwright.config.ts), by file name. The site list is
 * chosen so the site and main projects each take about as long as the walk.
 */
const SITE_SPECS = [
  "account-stream",
  "admin-user-payments",
  "admin-users",
  "google-sign-in",
  "guards",
  "identity",
  "mail",
  "notifications",
  "portal-shell",
  "profile",
  "profile-change-requests",
  "public-site",
].map((name) => `${name}.spec.ts`);

const WALK_SPEC = "layout.spec.ts";

export const PROJECT_SPECS: Record<"walk" | "site" | "main", { testMatch?: string[]; testIgnore?: string[] }> = {
  walk: { testMatch: [WALK_SPEC] },
  site: { testMatch: SITE_SPECS },
  main: { testIgnore: [WALK_SPEC, ...SITE_SPECS] },
};

/** The project that runs the spec file at `file` (a path or a name). */
export function projectOfSpec(file: string): keyof typeof PROJECT_SPECS {
  const name = file.split("/").pop() ?? file;
  if (name === WALK_SPEC) return "walk";
  return SITE_SPECS.includes(name) ? "site" : "main";
}
