import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const SOURCES = [
  "src",
  "contracts",
  "index.html",
  "vite.config.ts",
  "package-lock.json",
  "public",
  "scripts/lib/prerender.ts",
  "scripts/lib/critical-css.ts",
  "scripts/lib/precompress.ts",
];

/** True when dist/ is missing or older than anything the SPA is built from. */
export function spaIsStale(root = process.cwd()): boolean {
  const built = path.join(root, "dist", "index.html");
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(root, source)) > builtAt);
}

const viteBuild = (outDir: string) => ({
  command: path.resolve("node_modules/.bin/vite"),
  args: ["build", "--logLevel", "warn", "--outDir", outDir, "--emptyOutDir"],
  // A production build whoever calls (vitest sets NODE_ENV=test, which would bundle React's development build).
  env: { ...process.env, NODE_ENV: "production" },
});

/** Builds the SPA into outDir (dist/ by default); test runs build into their own folder. */
export function buildSpa(outDir = "dist"): void {
  const { command, args, env } = viteBuild(outDir);
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
}

/** buildSpa while the caller goes on: settles when the build is written, rejects when it fails. */
export function buildSpaInBackground(outDir: string): Promise<void> {
  const { command, args, env } = viteBuild(outDir);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`vite build failed (exit ${code})`))));
  });
}
