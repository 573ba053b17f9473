import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import {
  RELEASE_MANIFEST_URL,
  RELEASE_POLL_INTERVAL_MS,
  ReleaseCheck,
  type ReleaseCheckOptions,
} from "../../../../src/lib/release-check";

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
}

/** A server whose manifest the test changes. */
function manifestServer(buildId: string) {
  const server = {
    buildId,
    status: 200,
    fetch: vi.fn(
      async (_url: string | URL | Request, _init?: RequestInit) =>
        new Response(JSON.stringify({ buildId: server.buildId, builtAt: "2026-01-01T00:00:00.000Z" }), {
          status: server.status,
        }),
    ),
  };
  return server;
}

let checks: ReleaseCheck[] = [];

function createCheck(options: Partial<ReleaseCheckOptions> & { fetch: ReleaseCheckOptions["fetch"] }) {
  const window = new EventTarget() as unknown as Window;
  const document = Object.assign(new EventTarget(), { visibilityState: "visible" }) as unknown as Document;
  const check = new ReleaseCheck({ currentBuildId: "build-1", storage: memoryStorage(), window, document, ...options });
  checks.push(check);
  return { check, window, document };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  for (const check of checks) check.stop();
  checks = [];
  vi.useRealTimers();
});

describe("release check", () => {
  it("polls /build-manifest.json every 60 s, bypassing the HTTP cache", async () => {
    expect(RELEASE_MANIFEST_URL).toBe("/build-manifest.json");
    expect(RELEASE_POLL_INTERVAL_MS).toBe(60_000);
    const server = manifestServer("build-1");
    createCheck({ fetch: server.fetch }).check.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.fetch).toHaveBeenCalledTimes(1);
    expect(server.fetch).toHaveBeenCalledWith("/build-manifest.json", expect.objectContaining({ cache: "no-store" }));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(server.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.fetch).toHaveBeenCalledTimes(2);
  });

  it("checks when the tab regains focus or becomes visible", async () => {
    const server = manifestServer("build-1");
    const { check, window, document } = createCheck({ fetch: server.fetch });
    check.start();
    await vi.advanceTimersByTimeAsync(0);
    window.dispatchEvent(new Event("focus"));
    await vi.advanceTimersByTimeAsync(0);
    document.dispatchEvent(new Event("visibilitychange"));
    await vi.advanceTimersByTimeAsync(0);
    expect(server.fetch).toHaveBeenCalledTimes(3);
  });

  it("does not check when the tab becomes hidden", async () => {
    const server = manifestServer("build-1");
    const { check, document } = createCheck({ fetch: server.fetch });
    check.start();
    await vi.advanceTimersByTimeAsync(0);
    (document as { visibilityState: string }).visibilityState = "hidden";
    document.dispatchEvent(new Event("visibilitychange"));
    await vi.advanceTimersByTimeAsync(0);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it("shares one request when focus and visibility fire together", async () => {
    const server = manifestServer("build-1");
    const { check } = createCheck({ fetch: server.fetch });
    await Promise.all([check.check(), check.check()]);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it("asks for a full reload once the manifest names another build", async () => {
    const server = manifestServer("build-1");
    const { check } = createCheck({ fetch: server.fetch });
    check.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(check.shouldFullReload()).toBe(false);
    server.buildId = "build-2";
    await vi.advanceTimersByTimeAsync(60_000);
    expect(check.shouldFullReload()).toBe(true);
    expect(check.latest()).toEqual({ buildId: "build-2", builtAt: "2026-01-01T00:00:00.000Z" });
  });

  it("stops polling once a new build is known", async () => {
    const server = manifestServer("build-2");
    const { check } = createCheck({ fetch: server.fetch });
    check.start();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it("takes the first manifest as the baseline when the bundle has no build id (development)", async () => {
    const server = manifestServer("build-1");
    const { check } = createCheck({ currentBuildId: null, fetch: server.fetch });
    await check.check();
    expect(check.shouldFullReload()).toBe(false);
    server.buildId = "build-2";
    await check.check();
    expect(check.shouldFullReload()).toBe(true);
  });

  it("does not loop: after reloading for a build, a page still on older code does not reload again", async () => {
    const storage = memoryStorage();
    const server = manifestServer("build-2");
    const before = createCheck({ fetch: server.fetch, storage }).check;
    await before.check();
    expect(before.shouldFullReload()).toBe(true);
    before.beforeFullReload();

    // The reloaded page came back from a stale cache: still build-1.
    const after = createCheck({ fetch: server.fetch, storage }).check;
    await after.check();
    expect(after.shouldFullReload()).toBe(false);

    // A later release is new again.
    server.buildId = "build-3";
    await after.check();
    expect(after.shouldFullReload()).toBe(true);
  });

  it("ignores a manifest that cannot be read, and keeps polling", async () => {
    const server = manifestServer("build-2");
    server.status = 404;
    const { check } = createCheck({ fetch: server.fetch });
    check.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(check.shouldFullReload()).toBe(false);
    server.status = 200;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(check.shouldFullReload()).toBe(true);
  });

  it("ignores network errors, bad JSON and manifests without a build id", async () => {
    const failing = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    const badJson = vi.fn(async () => new Response("<html>", { status: 200 }));
    const noId = vi.fn(async () => new Response(JSON.stringify({ builtAt: "x" }), { status: 200 }));
    for (const fetch of [failing, badJson, noId]) {
      const { check } = createCheck({ fetch });
      await expect(check.check()).resolves.toBeUndefined();
      expect(check.shouldFullReload()).toBe(false);
      expect(check.latest()).toBeNull();
    }
  });

  it("stops listening and polling when stopped", async () => {
    const server = manifestServer("build-1");
    const { check, window } = createCheck({ fetch: server.fetch });
    check.start();
    await vi.advanceTimersByTimeAsync(0);
    check.stop();
    window.dispatchEvent(new Event("focus"));
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });
});
