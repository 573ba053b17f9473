import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");

/** The shared real-logger fixtures live beside the project, never copied into it. */
export const FIXTURE_DIR = path.resolve(repoRoot, "../shared/fixtures/logs");

export function fixture(name: string): Buffer {
  return readFileSync(path.join(FIXTURE_DIR, name));
}

export function fixtureNames(): string[] {
  return readdirSync(FIXTURE_DIR)
    .filter((f) => f.endsWith(".csv"))
    .sort();
}

/** Real logs in layouts that need more of the parser (bootmod3, VCDS German and legacy, ECUx, MegaLogViewer). */
export const MORE_FIXTURE_DIR = path.resolve(repoRoot, "../shared/fixtures/more-logs");

export function moreFixture(name: string): Buffer {
  return readFileSync(path.join(MORE_FIXTURE_DIR, name));
}

export function moreFixtureNames(): string[] {
  return readdirSync(MORE_FIXTURE_DIR).sort();
}

/** Real files in formats read since the third round of real-world files (binary logs, MLG v2). */
export const NEW_FORMAT_DIR = path.resolve(repoRoot, "../shared/fixtures/new-formats");

export function newFormatFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(NEW_FORMAT_DIR, name)));
}
