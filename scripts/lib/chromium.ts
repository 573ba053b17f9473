import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

/**
 * Playwright cannot download its own browser here: use Debian's Chromium, installing it when a
 * fresh machine does not have it yet.
 */
export function ensureChromium(): string {
  const configured = process.env.CHROMIUM_PATH;
  if (configured && existsSync(configured)) return configured;
  const found = CANDIDATES.find((path) => existsSync(path));
  if (found) return found;

  console.log("Chromium is missing: installing Debian's chromium package…");
  const asRoot = process.getuid?.() === 0;
  const run = (command: string[]) => {
    const [bin, ...args] = asRoot ? command : ["sudo", "-n", ...command];
    return (
      spawnSync(bin, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }).status ===
      0
    );
  };
  if (!run(["apt-get", "update", "-qq"]) || !run(["apt-get", "install", "-y", "-qq", "chromium"])) {
    throw new Error("Could not install Chromium with apt-get. Install the 'chromium' package, or set CHROMIUM_PATH.");
  }
  const installed = CANDIDATES.find((path) => existsSync(path));
  if (!installed) throw new Error("apt-get installed chromium but no binary was found at /usr/bin/chromium");
  return installed;
}
