import { describe, expect, it, vi } from "vitest";

import { MAX_CONCURRENT_PRELOADS, PreloadScheduler } from "../../../../src/routing/preload";

/** A load the test finishes by hand. */
function deferredLoad() {
  let finish: (ok: boolean) => void = () => {};
  const load = vi.fn(
    () =>
      new Promise<void>((resolve, reject) => {
        finish = (ok) => (ok ? resolve() : reject(new Error("chunk failed")));
      }),
  );
  return { load, finish: (ok = true) => finish(ok) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("route preloads", () => {
  it("run at most 4 at once and queue the rest", async () => {
    expect(MAX_CONCURRENT_PRELOADS).toBe(4);
    const scheduler = new PreloadScheduler();
    const loads = Array.from({ length: 6 }, deferredLoad);
    loads.forEach((entry, index) => {
      scheduler.preload(`/route-${index}`, entry.load);
    });
    await tick();
    expect(loads.map((entry) => entry.load.mock.calls.length)).toEqual([1, 1, 1, 1, 0, 0]);
    expect([scheduler.active, scheduler.queued]).toEqual([4, 2]);

    loads[0].finish();
    await tick();
    expect(loads[4].load).toHaveBeenCalledTimes(1);
    expect(loads[5].load).not.toHaveBeenCalled();
  });

  it("free a slot when a load fails too", async () => {
    const scheduler = new PreloadScheduler();
    const loads = Array.from({ length: 5 }, deferredLoad);
    loads.forEach((entry, index) => {
      scheduler.preload(`/route-${index}`, entry.load);
    });
    await tick();
    loads[1].finish(false);
    await tick();
    expect(loads[4].load).toHaveBeenCalledTimes(1);
  });

  it("load each route once, returning the same promise", async () => {
    const scheduler = new PreloadScheduler();
    const { load, finish } = deferredLoad();
    const first = scheduler.preload("/my-tunes", load);
    const second = scheduler.preload("/my-tunes", load);
    expect(second).toBe(first);
    await tick();
    finish();
    await expect(first).resolves.toBe(true);
    await scheduler.preload("/my-tunes", load);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("resolve to false on failure and retry on the next request", async () => {
    const scheduler = new PreloadScheduler();
    const failing = deferredLoad();
    const attempt = scheduler.preload("/dashboard", failing.load);
    await tick();
    failing.finish(false);
    await expect(attempt).resolves.toBe(false);
    const retry = vi.fn(async () => {});
    await expect(scheduler.preload("/dashboard", retry)).resolves.toBe(true);
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it("put a hovered link's route at the front of the queue", async () => {
    const scheduler = new PreloadScheduler();
    const running = Array.from({ length: 4 }, deferredLoad);
    running.forEach((entry, index) => {
      scheduler.preload(`/busy-${index}`, entry.load);
    });
    const visible = deferredLoad();
    const hovered = deferredLoad();
    scheduler.preload("/visible", visible.load);
    scheduler.preload("/hovered", hovered.load, "high");
    await tick();
    running[0].finish();
    await tick();
    expect(hovered.load).toHaveBeenCalledTimes(1);
    expect(visible.load).not.toHaveBeenCalled();
  });

  it("move an already queued route to the front when it is hovered", async () => {
    const scheduler = new PreloadScheduler();
    const running = Array.from({ length: 4 }, deferredLoad);
    running.forEach((entry, index) => {
      scheduler.preload(`/busy-${index}`, entry.load);
    });
    const first = deferredLoad();
    const later = deferredLoad();
    scheduler.preload("/first", first.load);
    scheduler.preload("/later", later.load);
    scheduler.preload("/later", later.load, "high");
    await tick();
    running[0].finish();
    await tick();
    expect(later.load).toHaveBeenCalledTimes(1);
    expect(first.load).not.toHaveBeenCalled();
  });

  it("refuse a limit below 1", () => {
    expect(() => new PreloadScheduler(0)).toThrow(RangeError);
  });
});
