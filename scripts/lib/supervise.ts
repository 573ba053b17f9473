/**
 * What `npm start` does with the processes it runs: when the API dies (an exit, or a signal such
 * as the OOM killer's SIGKILL) it says so, stops the rest and exits non-zero; Ctrl-C or SIGTERM
 * stops everything with 0.
 */
import type { ChildProcess } from "node:child_process";

/** A child killed by a signal has `exitCode` null and its `signalCode` set: both mean it is gone. */
export const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

export function waitForExit(child: ChildProcess): Promise<void> {
  return hasExited(child) ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

export interface SuperviseOptions {
  /** How the main child is named when it dies ("The API server"). */
  name: string;
  /** Stops what is not a child process (the Auth emulator, the inbox). */
  stopRest: () => Promise<void>;
  exit: (code: number) => void;
  log: (line: string) => void;
}

export interface Supervisor {
  /** Another child stopped with the main one (Vite in development). */
  add(child: ChildProcess): void;
  stop(code: number): Promise<void>;
}

export function supervise(main: ChildProcess, options: SuperviseOptions): Supervisor {
  const children: ChildProcess[] = [main];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    options.log("\nStopping…");
    for (const child of children) if (!hasExited(child)) child.kill("SIGTERM");
    await Promise.all(children.map(waitForExit));
    await options.stopRest();
    options.exit(code);
  };
  main.once("exit", (code, signal) => {
    if (stopping) return;
    options.log(`\n${options.name} ${signal ? `was killed (${signal})` : `exited (code ${code})`}.`);
    void stop(code || 1);
  });
  return { add: (child) => void children.push(child), stop };
}
