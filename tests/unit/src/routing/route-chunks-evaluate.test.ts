// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RoutePreloads, routePreloadsElement } from "../../../../scripts/lib/prerender";
import { forgetRouteChunkLists, routeChunkFiles } from "../../../../src/routing/route-chunk-files";
import { evaluateRouteChunks } from "../../../../src/routing/route-chunks-evaluate";

// As the build writes them (scripts/lib/prerender.ts): each list with every chunk after those it imports.
const lists: RoutePreloads = {
  files: [
    "/assets/form.js",
    "/assets/portal-app.js",
    "/assets/table.js",
    "/assets/portal-layout.js",
    "/assets/chart.js",
    "/assets/dashboard.js",
    "/assets/log.js",
  ],
  portal: "0 1",
  frame: "2 3",
  routes: [["/"], ["/dashboard", 1, "4 5"], ["/tuning-tools/data-logs/:id", 0, "2 4 6"], ["/admin/app-info", 1, ""]],
};

beforeEach(() => {
  forgetRouteChunkLists();
  document.body.innerHTML = routePreloadsElement(lists);
});
afterEach(() => forgetRouteChunkLists());

const base = () => new URL("/", document.baseURI).href.replace(/\/$/, "");

describe("the chunks a portal page loads beyond the entry", () => {
  it("are the portal's code, the frame for a page in it and the page's own, in the build's order", () => {
    expect(routeChunkFiles("/dashboard")).toEqual([
      "/assets/form.js",
      "/assets/portal-app.js",
      "/assets/table.js",
      "/assets/portal-layout.js",
      "/assets/chart.js",
      "/assets/dashboard.js",
    ]);
    expect(routeChunkFiles("/admin/app-info")).toEqual([
      "/assets/form.js",
      "/assets/portal-app.js",
      "/assets/table.js",
      "/assets/portal-layout.js",
    ]);
  });

  it("match a route's parameters, a trailing slash and any letter case, and leave out the frame for a full-screen page", () => {
    expect(routeChunkFiles("/Tuning-Tools/data-logs/0b1c/")).toEqual([
      "/assets/form.js",
      "/assets/portal-app.js",
      "/assets/table.js",
      "/assets/chart.js",
      "/assets/log.js",
    ]);
  });

  it("are none for a public page, a path no route knows, a page without the build's lists (the dev server) or lists that cannot be read", () => {
    expect(routeChunkFiles("/")).toBeUndefined();
    expect(routeChunkFiles("/nowhere/at/all")).toBeUndefined();
    forgetRouteChunkLists();
    document.body.innerHTML = "";
    expect(routeChunkFiles("/dashboard")).toBeUndefined();
    forgetRouteChunkLists();
    document.body.innerHTML = '<script type="application/json" id="route-preloads">{"files":</script>';
    expect(routeChunkFiles("/dashboard")).toBeUndefined();
  });
});

describe("evaluating a page's chunks one per task", () => {
  it("runs each chunk in the list's order, the next only once the one before has run", async () => {
    const events: string[] = [];
    let running = 0;
    await evaluateRouteChunks("/dashboard", document, async (href) => {
      running += 1;
      expect(running).toBe(1);
      events.push(href.replace(base(), ""));
      await Promise.resolve();
      running -= 1;
    });
    expect(events).toEqual(routeChunkFiles("/dashboard"));
  });

  it("gives each chunk a task of its own: a task queued while one runs comes before the next", async () => {
    const events: string[] = [];
    const queueTask = () => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        events.push("another task");
      };
      channel.port2.postMessage(null);
    };
    await evaluateRouteChunks("/tuning-tools/data-logs/7", document, async (href) => {
      events.push(href.replace(base(), ""));
      queueTask();
    });
    // The last chunk's task runs after the turns end.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(events).toEqual([
      "/assets/form.js",
      "another task",
      "/assets/portal-app.js",
      "another task",
      "/assets/table.js",
      "another task",
      "/assets/chart.js",
      "another task",
      "/assets/log.js",
      "another task",
    ]);
  });

  it("stops at a chunk that fails, leaving the app's own import to report it", async () => {
    const loaded: string[] = [];
    await evaluateRouteChunks("/dashboard", document, async (href) => {
      loaded.push(href.replace(base(), ""));
      if (href.endsWith("/portal-app.js")) throw new TypeError("Failed to fetch dynamically imported module");
    });
    expect(loaded).toEqual(["/assets/form.js", "/assets/portal-app.js"]);
  });

  it("runs nothing on a page the lists do not name", async () => {
    const loaded: string[] = [];
    await evaluateRouteChunks("/", document, async (href) => void loaded.push(href));
    expect(loaded).toEqual([]);
  });
});
