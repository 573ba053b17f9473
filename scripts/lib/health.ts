import type { ChildProcess } from "node:child_process";
import { hasExited } from "./supervise";

/** Waits until `url` answers 200, failing when `child` exits first or after two minutes. */
export async function waitForHealth(url: string, child: ChildProcess, name = "The server"): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (hasExited(child))
      throw new Error(`${name} exited (${child.signalCode ?? `code ${child.exitCode}`}) during start-up`);
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${name} did not answer ${url} within 120 s`);
}
