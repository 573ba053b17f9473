// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { routePreloadsElement } from "../../../../scripts/lib/prerender";
import { whenRouteChunksLinked } from "../../../../src/routing/route-chunks-linked";

describe("the app's own imports at a page load", () => {
  beforeEach(() => {
    document.body.innerHTML = routePreloadsElement({
      files: ["/assets/portal-app.js"],
      portal: "0",
      frame: "",
      routes: [["/dashboard", 1, ""]],
    });
  });
  afterEach(() => delete (window as { __routeChunksLinked?: boolean }).__routeChunksLinked);

  it("wait until the HTML's start script has linked the page's chunks", () => {
    const callback = vi.fn();
    whenRouteChunksLinked(callback);
    expect(callback).not.toHaveBeenCalled();
    window.dispatchEvent(new Event("route-chunks-linked"));
    window.dispatchEvent(new Event("route-chunks-linked"));
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it("run at once when the chunks are linked already, or on a page without the build's lists (the dev server)", () => {
    const first = vi.fn();
    (window as { __routeChunksLinked?: boolean }).__routeChunksLinked = true;
    whenRouteChunksLinked(first);
    expect(first).toHaveBeenCalledTimes(1);
    delete (window as { __routeChunksLinked?: boolean }).__routeChunksLinked;
    document.body.innerHTML = "";
    const second = vi.fn();
    whenRouteChunksLinked(second);
    expect(second).toHaveBeenCalledTimes(1);
  });
});
