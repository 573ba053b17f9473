import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { ICON_LOAD_TIMEOUT_MS, loadIcon } from "../../../../src/lib/icon-loader";

let errors: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  vi.useFakeTimers();
  errors = vi.spyOn(console, "error").mockImplementation(() => {});
});

afterEach(() => {
  errors.mockRestore();
  vi.useRealTimers();
});

describe("loadIcon", () => {
  it("resolves to the icon the source loads", async () => {
    await expect(loadIcon("car", async (name) => `<svg>${name}</svg>`, { fallback: "?" })).resolves.toBe(
      "<svg>car</svg>",
    );
    expect(errors).not.toHaveBeenCalled();
  });

  it("times out after 1500 ms, reports it and resolves to the fallback", async () => {
    expect(ICON_LOAD_TIMEOUT_MS).toBe(1500);
    let signal: AbortSignal | undefined;
    const result = loadIcon(
      "slow",
      (_, abort) => {
        signal = abort;
        return new Promise<string>(() => {});
      },
      { fallback: "?" },
    );
    await vi.advanceTimersByTimeAsync(1499);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe("?");
    expect(signal?.aborted).toBe(true);
    expect(errors).toHaveBeenCalledWith('[icon] Failed to load icon "slow":', "timed out after 1500 ms");
  });

  it("reports a failed load and resolves to the fallback instead of throwing", async () => {
    const result = loadIcon(
      "missing",
      async () => {
        throw new Error("404 Not Found");
      },
      { fallback: "?" },
    );
    await expect(result).resolves.toBe("?");
    expect(errors).toHaveBeenCalledWith('[icon] Failed to load icon "missing":', "404 Not Found");
  });

  it("survives a source that throws synchronously", async () => {
    const source = (): Promise<string> => {
      throw new Error("boom");
    };
    await expect(loadIcon("sync", source, { fallback: "?" })).resolves.toBe("?");
  });

  it("clears its timer after a load in time", async () => {
    await loadIcon("car", async () => "svg", { fallback: "?" });
    expect(vi.getTimerCount()).toBe(0);
  });
});
