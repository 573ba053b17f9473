/**
 * The dependency rules of .dependency-cruiser.cjs (which room may import which), run by
 * dependency-cruiser from tools/depcheck (installed by the root postinstall). One pass or one
 * failure in the test tally; a failure prints every broken arrow and the count per rule.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

export interface DependencyCheck {
  ok: boolean;
  /** Violations per rule name, in the order first reported. */
  byRule: Map<string, number>;
}

export function checkDependencies(root: string): DependencyCheck {
  const depcruise = path.join(root, "tools/depcheck/node_modules/.bin/depcruise");
  if (!existsSync(depcruise)) {
    console.error("Dependency check: tools/depcheck is not installed (npm ci at the root installs it).");
    return { ok: false, byRule: new Map([["tools/depcheck not installed", 1]]) };
  }
  const result = spawnSync(depcruise, ["--output-type", "err", "."], { cwd: root, encoding: "utf8" });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  const byRule = new Map<string, number>();
  for (const match of output.matchAll(/^\s*(?:error|warn)\s+([\w-]+):/gm))
    byRule.set(match[1], (byRule.get(match[1]) ?? 0) + 1);
  const ok = result.status === 0 && byRule.size === 0;
  if (ok) console.log("Dependency check: every import keeps to the rules of .dependency-cruiser.cjs.");
  else {
    process.stdout.write(output);
    if (byRule.size === 0) byRule.set(`depcruise exited with ${result.status ?? result.signal}`, 1);
    console.log(`Dependency check failed: ${[...byRule].map(([rule, count]) => `${rule} (${count})`).join(", ")}`);
  }
  return { ok, byRule };
}
