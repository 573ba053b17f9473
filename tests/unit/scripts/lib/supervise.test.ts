import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { hasExited, supervise } from "../../../../scripts/lib/supervise";

/** A stand-in for the API or Vite: a node process that runs until it is stopped. */
const standIn = () => spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
const started = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("supervise stops everything when the API dies", () => {
  const spawned: ChildProcess[] = [];
  afterEach(() => {
    for (const child of spawned) if (!hasExited(child)) child.kill("SIGKILL");
  });

  it("notices an API killed by SIGKILL, says so, stops the other child and the rest, and exits non-zero", async () => {
    const api = standIn();
    const vite = standIn();
    spawned.push(api, vite);
    const lines: string[] = [];
    let restStopped = false;
    const exited = new Promise<number>((exit) => {
      const supervisor = supervise(api, {
        name: "The API server",
        stopRest: async () => void (restStopped = true),
        exit,
        log: (line) => lines.push(line),
      });
      supervisor.add(vite);
    });
    await started();
    api.kill("SIGKILL");
    const code = await exited;
    expect(code).not.toBe(0);
    expect(lines.join("\n")).toContain("The API server was killed (SIGKILL)");
    expect(hasExited(vite)).toBe(true);
    expect(restStopped).toBe(true);
  });

  it("stops with 0 when asked (Ctrl-C), without calling the API's exit a death", async () => {
    const api = standIn();
    spawned.push(api);
    const lines: string[] = [];
    let supervisor: ReturnType<typeof supervise> | undefined;
    const exited = new Promise<number>((exit) => {
      supervisor = supervise(api, {
        name: "The API server",
        stopRest: async () => {},
        exit,
        log: (l) => lines.push(l),
      });
    });
    await supervisor?.stop(0);
    expect(await exited).toBe(0);
    expect(hasExited(api)).toBe(true);
    expect(lines.join("\n")).not.toContain("was killed");
  });
});
