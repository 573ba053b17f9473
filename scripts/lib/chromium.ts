import { existsSync } from "node:fs";
import { ensureDebianPackage } from "./debian-packages";

/**
 * Debian's two builds of Chromium: the whole browser, which the benches drive so their figures are
 * what a user's browser does, and its headless shell, which the browser tests drive because it
 * leaves out the parts of a desktop browser no test sees (Playwright drives the same shell by
 * default where it can download its own).
 */
const BUILDS = {
  browser: { pkg: "chromium", candidates: ["/usr/bin/chromium", "/usr/bin/chromium-browser"] },
  "headless-shell": { pkg: "chromium-headless-shell", candidates: ["/usr/bin/chromium-headless-shell"] },
} as const;

/**
 * Playwright cannot download its own browser here: use Debian's, installing it when a fresh machine
 * does not have it yet. CHROMIUM_PATH, when set, wins for either build.
 */
export function ensureChromium(build: keyof typeof BUILDS = "browser"): string {
  const configured = process.env.CHROMIUM_PATH;
  if (configured && existsSync(configured)) return configured;
  const { pkg, candidates } = BUILDS[build];
  try {
    return ensureDebianPackage(pkg, candidates);
  } catch (error) {
    throw new Error(`${(error as Error).message} Or set CHROMIUM_PATH.`);
  }
}
