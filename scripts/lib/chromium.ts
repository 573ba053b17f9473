import { existsSync } from "node:fs";
import { ensureDebianPackage } from "./debian-packages";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

/**
 * Playwright cannot download its own browser here: use Debian's Chromium, installing it when a
 * fresh machine does not have it yet.
 */
export function ensureChromium(): string {
  const configured = process.env.CHROMIUM_PATH;
  if (configured && existsSync(configured)) return configured;
  try {
    return ensureDebianPackage("chromium", CANDIDATES);
  } catch (error) {
    throw new Error(`${(error as Error).message} Or set CHROMIUM_PATH.`);
  }
}
