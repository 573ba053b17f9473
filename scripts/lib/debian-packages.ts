import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * A program from one of Debian's packages: where it is, installing the package with apt-get when a
 * fresh machine does not have it yet (as root, else through `sudo -n`).
 */
export function ensureDebianPackage(pkg: string, candidates: readonly string[]): string {
  const found = candidates.find((path) => existsSync(path));
  if (found) return found;
  console.log(`${pkg} is missing: installing Debian's ${pkg} package…`);
  const asRoot = process.getuid?.() === 0;
  const run = (command: string[]) => {
    const [bin, ...args] = asRoot ? command : ["sudo", "-n", ...command];
    return (
      spawnSync(bin, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }).status ===
      0
    );
  };
  if (!run(["apt-get", "update", "-qq"]) || !run(["apt-get", "install", "-y", "-qq", pkg]))
    throw new Error(`Could not install ${pkg} with apt-get. Install Debian's '${pkg}' package.`);
  const installed = candidates.find((path) => existsSync(path));
  if (!installed) throw new Error(`apt-get installed ${pkg} but none of ${candidates.join(", ")} exists`);
  return installed;
}
