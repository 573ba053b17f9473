// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type RoutePreloads, routePreloadsElement } from "../../../../scripts/lib/prerender";
import { preloadRoute, registerResources } from "../../../../src/routing/registry";
import { forgetRouteChunkLists } from "../../../../src/routing/route-chunk-files";
import { fetchRouteCode } from "../../../../src/routing/route-code-fetch";
import type { PageComponent, ResourceDefinition } from "../../../../src/routing/types";

// As the build writes them (scripts/lib/prerender.ts): each list with every chunk after those it imports.
const lists: RoutePreloads = {
  files: [
    "/assets/portal-app.js",
    "/assets/portal-layout.js",
    "/assets/tunes.js",
    "/assets/tunes-form.js",
    "/assets/logs.js",
    "/assets/table.js",
    "/assets/upload.js",
    "/assets/chart.js",
  ],
  portal: "0",
  frame: "1",
  routes: [
    ["/"],
    ["/my-tunes", 1, "3 2"],
    ["/tuning-tools/data-logs", 1, "5 6 7 4"],
    ["/tuning-tools/data-logs/:id", 1, "7 4"],
  ],
};

const preloads = () => Array.from(document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]'));
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  forgetRouteChunkLists();
  document.head.innerHTML = "";
  document.body.innerHTML = routePreloadsElement(lists);
});
afterEach(() => forgetRouteChunkLists());

describe("fetching a page's code without running it", () => {
  it("links a module preload for each chunk the page loads, in the build's order, as the start script links them", () => {
    void fetchRouteCode("/my-tunes");
    expect(preloads().map((link) => link.getAttribute("href"))).toEqual([
      "/assets/portal-app.js",
      "/assets/portal-layout.js",
      "/assets/tunes-form.js",
      "/assets/tunes.js",
    ]);
    expect(preloads().every((link) => link.crossOrigin === "")).toBe(true);
    expect(document.querySelectorAll("script:not(#route-preloads)")).toHaveLength(0);
  });

  it("asks for four chunks a turn, the next turn in a later task, not in the same task's microtasks", async () => {
    const hrefs = () => preloads().map((link) => link.getAttribute("href"));
    void fetchRouteCode("/tuning-tools/data-logs");
    expect(hrefs()).toEqual([
      "/assets/portal-app.js",
      "/assets/portal-layout.js",
      "/assets/table.js",
      "/assets/upload.js",
    ]);
    for (let microtask = 0; microtask < 10; microtask++) await Promise.resolve();
    expect(hrefs()).toHaveLength(4);
    await settle();
    await settle();
    expect(hrefs()).toEqual([
      "/assets/portal-app.js",
      "/assets/portal-layout.js",
      "/assets/table.js",
      "/assets/upload.js",
      "/assets/chart.js",
      "/assets/logs.js",
    ]);
  });

  it("leaves out the chunks the page has linked already (the entry's, an earlier page's)", () => {
    document.head.innerHTML =
      '<link rel="modulepreload" crossorigin href="/assets/portal-app.js"><link rel="modulepreload" crossorigin href="/assets/portal-layout.js">';
    void fetchRouteCode("/tuning-tools/data-logs/0b1c");
    expect(preloads().map((link) => link.getAttribute("href"))).toEqual([
      "/assets/portal-app.js",
      "/assets/portal-layout.js",
      "/assets/chart.js",
      "/assets/logs.js",
    ]);
  });

  it("leaves out a chunk another page's fetch linked between its turns", async () => {
    void fetchRouteCode("/tuning-tools/data-logs");
    const other = document.createElement("link");
    other.rel = "modulepreload";
    other.href = "/assets/chart.js";
    document.head.appendChild(other);
    await settle();
    await settle();
    expect(
      preloads()
        .map((link) => link.getAttribute("href"))
        .filter((href) => href === "/assets/chart.js"),
    ).toHaveLength(1);
    expect(preloads().map((link) => link.getAttribute("href"))).toContain("/assets/logs.js");
  });

  it("is done once every chunk has loaded or failed (the navigation reports a failure)", async () => {
    let done = false;
    void fetchRouteCode("/my-tunes")!.then(() => (done = true));
    const [first, ...rest] = preloads();
    first!.dispatchEvent(new Event("error"));
    for (const link of rest.slice(1)) link.dispatchEvent(new Event("load"));
    await settle();
    expect(done).toBe(false);
    rest[0]!.dispatchEvent(new Event("load"));
    await settle();
    expect(done).toBe(true);
  });

  it("knows no code for a public page, a path no route knows, or a page without the build's lists (the dev server)", () => {
    expect(fetchRouteCode("/")).toBeUndefined();
    expect(fetchRouteCode("/nowhere")).toBeUndefined();
    forgetRouteChunkLists();
    document.body.innerHTML = "";
    expect(fetchRouteCode("/my-tunes")).toBeUndefined();
    expect(preloads()).toHaveLength(0);
  });
});

describe("getting a link's page ready", () => {
  const page = () =>
    Object.assign(() => null, { preload: vi.fn(async () => undefined) }) as unknown as PageComponent & {
      preload: ReturnType<typeof vi.fn>;
    };
  const tunes = page();
  const logs = page();
  const definitions = [
    {
      name: "my-tunes",
      guard: "signed-in",
      layout: "portal",
      list: { path: "/my-tunes", component: tunes },
      meta: { label: "My tunes" },
    },
    {
      name: "data-logs",
      guard: "signed-in",
      layout: "portal",
      list: { path: "/tuning-tools/data-logs", component: logs },
      meta: { label: "Data logs" },
    },
  ] as unknown as ResourceDefinition[];
  const menuGroups = { dealer: { name: "dealer" }, admin: { name: "admin" } };

  it("fetches the page's code without running it when the link comes into view, and runs it when the link is hovered or focused", async () => {
    registerResources(definitions, menuGroups);
    preloadRoute("/my-tunes", "normal");
    await settle();
    expect(preloads()).toHaveLength(4);
    expect(tunes.preload).not.toHaveBeenCalled();
    preloadRoute("/my-tunes", "high");
    await settle();
    expect(tunes.preload).toHaveBeenCalledTimes(1);
  });

  it("loads the page's code when the link comes into view where the build's lists do not know it (the dev server)", async () => {
    registerResources(definitions, menuGroups);
    forgetRouteChunkLists();
    document.body.innerHTML = "";
    preloadRoute("/tuning-tools/data-logs", "normal");
    await settle();
    expect(logs.preload).toHaveBeenCalledTimes(1);
    expect(preloads()).toHaveLength(0);
  });
});
