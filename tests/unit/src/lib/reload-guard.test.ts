import { describe, expect, it } from "vitest";

import {
  decideChunkReload,
  isChunkLoadError,
  RELOAD_GUARD_STORAGE_KEY,
  RELOAD_GUARD_WINDOW_MS,
} from "../../../../src/lib/reload-guard";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
}

describe("chunk-load reload guard", () => {
  it("allows one reload per path within 10 s", () => {
    expect(RELOAD_GUARD_WINDOW_MS).toBe(10_000);
    const storage = memoryStorage();
    expect(decideChunkReload("/my-tunes", { storage, now: 1_000 })).toBe("reload");
    expect(decideChunkReload("/my-tunes", { storage, now: 1_001 })).toBe("show-error");
  });

  it("shows the error for a second failure just inside the window, and reloads again once it has passed", () => {
    const storage = memoryStorage();
    decideChunkReload("/my-tunes", { storage, now: 0 });
    expect(decideChunkReload("/my-tunes", { storage, now: 9_999 })).toBe("show-error");
    expect(decideChunkReload("/my-tunes", { storage, now: 10_000 })).toBe("reload");
  });

  it("counts each path separately", () => {
    const storage = memoryStorage();
    expect(decideChunkReload("/my-tunes", { storage, now: 0 })).toBe("reload");
    expect(decideChunkReload("/dashboard", { storage, now: 1 })).toBe("reload");
  });

  it("remembers the reload in storage, so the page after the reload knows", () => {
    const storage = memoryStorage();
    decideChunkReload("/my-tunes", { storage, now: 5 });
    expect(JSON.parse(storage.getItem(RELOAD_GUARD_STORAGE_KEY)!)).toEqual({ "/my-tunes": 5 });
  });

  it("starts afresh when the stored value is not valid JSON", () => {
    const storage = memoryStorage({ [RELOAD_GUARD_STORAGE_KEY]: "{not json" });
    expect(decideChunkReload("/my-tunes", { storage, now: 0 })).toBe("reload");
  });

  it("shows the error rather than risk a reload loop when storage is unavailable or failing", () => {
    expect(decideChunkReload("/my-tunes", { storage: null, now: 0 })).toBe("show-error");
    const failing = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException("blocked", "SecurityError");
      },
    };
    expect(decideChunkReload("/my-tunes", { storage: failing, now: 0 })).toBe("show-error");
  });
});

describe("isChunkLoadError", () => {
  it.each([
    "Failed to fetch dynamically imported module: https://portal.example/assets/my-tunes-abc123.js", // Chromium
    "error loading dynamically imported module: https://portal.example/assets/x.js", // Firefox
    "Importing a module script failed.", // Safari
    "Unable to preload CSS for /assets/x.css", // Vite
  ])("recognises %s", (message) => {
    expect(isChunkLoadError(new TypeError(message))).toBe(true);
  });

  it("does not mistake other errors for chunk-load failures", () => {
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
    expect(isChunkLoadError("Network error")).toBe(false);
  });
});
