import { describe, expect, it, vi } from "vitest";
import { CHUNK_ERROR_MESSAGE, ErrorState, NAVIGATION_SETTLE_MS, toApiError } from "../../../../src/lib/error-state";
import type { ChunkReloadDecision } from "../../../../src/lib/reload-guard";

function setup({ bot = false, decisions = ["reload", "show-error"] as ChunkReloadDecision[] } = {}) {
  let now = 0;
  const reload = vi.fn();
  const log = vi.fn();
  const queue = [...decisions];
  const state = new ErrorState({ bot, reload, log, now: () => now, decideReload: () => queue.shift() ?? "show-error" });
  return { state, reload, log, advance: (ms: number) => (now += ms) };
}

const chunkError = new TypeError("Failed to fetch dynamically imported module: /assets/faqs-abc.js");

describe("fatal error state", () => {
  it("shows a render error as a 500 with the path and message as details, and clears it", () => {
    const { state } = setup();
    const changes = vi.fn();
    state.subscribe(changes);
    state.showError(new Error("boom"), "/my-tunes");
    expect(state.getSnapshot()).toEqual({
      statusCode: 500,
      message: "Something went wrong",
      description: "The page stopped because of an unexpected error. Going home starts it again.",
      data: { path: "/my-tunes", error: "boom" },
    });
    state.clearError();
    expect(state.getSnapshot()).toBeNull();
    expect(changes).toHaveBeenCalledTimes(2);
  });

  it("keeps an API error's own status, message, description and data", () => {
    const error = Object.assign(new Error("Forbidden"), {
      statusCode: 403,
      description: "Admins only",
      data: { role: "customer" },
    });
    expect(toApiError(error, "/admin")).toEqual({
      statusCode: 403,
      message: "Forbidden",
      description: "Admins only",
      data: { role: "customer" },
    });
  });

  it("keeps the first error when more follow", () => {
    const { state } = setup();
    state.showError(new Error("first"), "/a");
    state.showError(new Error("second"), "/a");
    expect(state.getSnapshot()?.data).toEqual({ path: "/a", error: "first" });
  });

  it("renders no error page for bots, and logs the error", () => {
    const { state, log } = setup({ bot: true });
    state.showError(new Error("boom"), "/");
    expect(state.getSnapshot()).toBeNull();
    expect(log).toHaveBeenCalledWith("[portal] Fatal error on /:", expect.any(Error));
  });

  it("reloads for the first chunk failure and shows the error page for the second", () => {
    const { state, reload } = setup();
    state.chunkLoadFailed(chunkError, "/faqs");
    expect(reload).toHaveBeenCalledTimes(1);
    expect(state.reloading).toBe(true);
    expect(state.getSnapshot()).toBeNull();
    const after = setup({ decisions: ["show-error"] });
    after.state.chunkLoadFailed(chunkError, "/faqs");
    expect(after.reload).not.toHaveBeenCalled();
    expect(after.state.getSnapshot()?.message).toBe(CHUNK_ERROR_MESSAGE);
  });

  it("asks for one reload only, however many chunks fail meanwhile", () => {
    const { state, reload } = setup({ decisions: ["reload", "reload"] });
    state.chunkLoadFailed(chunkError, "/faqs");
    state.chunkLoadFailed(chunkError, "/faqs");
    expect(reload).toHaveBeenCalledTimes(1);
    expect(state.getSnapshot()).toBeNull();
  });

  it(`takes an unhandled rejection as fatal during a navigation and up to ${NAVIGATION_SETTLE_MS} ms after the page rendered`, () => {
    const { state, advance } = setup();
    state.navigationStarted();
    state.navigationRendered();
    advance(NAVIGATION_SETTLE_MS - 1);
    expect(state.unhandledRejection(new Error("load failed"), "/my-tunes")).toBe(true);
    expect(state.getSnapshot()?.data).toEqual({ path: "/my-tunes", error: "load failed" });
  });

  it("only logs an unhandled rejection once the page has settled", () => {
    const { state, advance, log } = setup();
    state.navigationRendered();
    advance(NAVIGATION_SETTLE_MS);
    expect(state.unhandledRejection(new Error("background"), "/my-tunes")).toBe(false);
    expect(state.getSnapshot()).toBeNull();
    expect(log).toHaveBeenCalledWith("[portal] Unhandled rejection on /my-tunes (page kept):", expect.any(Error));
  });

  it("leaves a failed chunk outside a navigation alone, and reloads for one during it", () => {
    const { state, advance, reload } = setup();
    state.navigationRendered();
    advance(NAVIGATION_SETTLE_MS);
    expect(state.unhandledRejection(chunkError, "/")).toBe(false);
    expect(reload).not.toHaveBeenCalled();
    state.navigationStarted();
    expect(state.unhandledRejection(chunkError, "/faqs")).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
