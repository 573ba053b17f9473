// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type RoutePreloads, routePreloadsElement } from "../../../scripts/lib/prerender";
import { preloadRoute, registerResources } from "../../../src/routing/registry";
import type { PageComponent } from "../../../src/routing/types";
import { LINKS_PER_TURN, fetchRouteCode, resetRouteCodeFetch, routeChunkFiles, whenRouteChunksLinked } from "../../../src/routing/route-code-fetch";

// As the build writes them (scripts/lib/prerender.ts): the portal's code, the frame, and each route's own chunks.
const lists: RoutePreloads = {
  files: ["/assets/portal-app.js", "/assets/form.js", "/assets/portal-layout.js", "/assets/table.js", "/assets/vehicles.js", "/assets/select.js", "/assets/log.js", "/assets/chart.js", "/assets/a.js", "/assets/b.js", "/assets/c.js"],
  portal: "0 1",
  frame: "2 3",
  routes: [["/"], ["/vehicles", 1, "4 5"], ["/tuning-tools/data-logs/:id", 0, "6 3 7"], ["/big", 1, "4 5 6 7 8 9 10"]],
};

const linked = () => [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => new URL(link.href).pathname);
/** Runs the idle turns the fetcher asked for, one at a time. */
let idle: Array<() => void> = [];
const runTurn = () => idle.shift()?.();
/** The browser's answer to each preload linked so far (jsdom fetches nothing). */
const settled = new WeakSet<Element>();
function settleLinks() {
  for (const link of document.querySelectorAll('link[rel="modulepreload"]')) {
    if (settled.has(link)) continue;
    settled.add(link);
    link.dispatchEvent(new Event("load"));
  }
}
/** Every turn, each preload answered as it is linked. */
function drain() {
  for (;;) {
    settleLinks();
    if (idle.length === 0) return;
    runTurn();
  }
}

beforeEach(() => {
  resetRouteCodeFetch();
  document.head.innerHTML = "";
  document.body.innerHTML = routePreloadsElement(lists);
  idle = [];
  vi.stubGlobal("requestIdleCallback", (callback: () => void) => idle.push(callback));
});
afterEach(() => vi.unstubAllGlobals());

describe("fetching a page's code without running it, for a link in view", () => {
  it("names the portal's code, the frame for a page in it and the page's own chunks, from the build's lists", () => {
    expect(routeChunkFiles("/vehicles")).toEqual(["/assets/portal-app.js", "/assets/form.js", "/assets/portal-layout.js", "/assets/table.js", "/assets/vehicles.js", "/assets/select.js"]);
    expect(routeChunkFiles("/tuning-tools/data-logs/:id")).toEqual(["/assets/portal-app.js", "/assets/form.js", "/assets/log.js", "/assets/table.js", "/assets/chart.js"]);
  });

  it("fetches nothing for a public page or a route the lists do not name, so the caller imports it", () => {
    expect(fetchRouteCode("/")).toBe(false);
    expect(fetchRouteCode("/nowhere")).toBe(false);
    expect(idle).toHaveLength(0);
  });

  it("fetches nothing without the build's lists (the dev server), so the caller imports it", () => {
    document.body.innerHTML = "";
    expect(fetchRouteCode("/vehicles")).toBe(false);
  });

  it(`links module preloads when the browser is idle, at most ${LINKS_PER_TURN} in flight, the next as one is answered`, () => {
    expect(fetchRouteCode("/big")).toBe(true);
    expect(linked()).toEqual([]);
    runTurn();
    expect(linked()).toHaveLength(LINKS_PER_TURN);
    // None answered yet: no turn waits, however idle the browser.
    expect(idle).toHaveLength(0);
    document.querySelector('link[rel="modulepreload"]')?.dispatchEvent(new Event("error"));
    runTurn();
    expect(linked()).toHaveLength(LINKS_PER_TURN + 1);
    drain();
    expect(linked()).toEqual(routeChunkFiles("/big"));
  });

  it("asks for them at low priority, behind what the page being opened needs", () => {
    fetchRouteCode("/vehicles");
    drain();
    expect([...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].every((link) => link.fetchPriority === "low")).toBe(true);
  });

  it("skips chunks the page has linked already and those queued for another link", () => {
    document.head.innerHTML = '<link rel="modulepreload" crossorigin href="/assets/portal-app.js"><link rel="modulepreload" crossorigin href="/assets/form.js"><link rel="modulepreload" crossorigin href="/assets/portal-layout.js"><link rel="modulepreload" crossorigin href="/assets/table.js">';
    fetchRouteCode("/vehicles");
    fetchRouteCode("/tuning-tools/data-logs/:id");
    fetchRouteCode("/vehicles");
    drain();
    expect(linked().slice(4)).toEqual(["/assets/vehicles.js", "/assets/select.js", "/assets/log.js", "/assets/chart.js"]);
  });

  it("skips a chunk that an import linked while it waited for its turn", () => {
    fetchRouteCode("/vehicles");
    const helperLink = document.createElement("link");
    helperLink.rel = "modulepreload";
    helperLink.href = new URL("/assets/vehicles.js", document.baseURI).href;
    document.head.appendChild(helperLink);
    drain();
    expect(linked().filter((file) => file === "/assets/vehicles.js")).toHaveLength(1);
  });

  it("links them as Vite's preload helper would look for them (crossorigin, absolute href), so a later import adds none", () => {
    fetchRouteCode("/vehicles");
    drain();
    const link = document.querySelector<HTMLLinkElement>('link[href$="/assets/vehicles.js"]');
    expect(link?.crossOrigin).toBe("");
    expect(link?.href).toBe(new URL("/assets/vehicles.js", document.baseURI).href);
  });
});

describe("a link's route preload", () => {
  const load = vi.fn(() => Promise.resolve({}));
  beforeEach(() => {
    load.mockClear();
    const page = Object.assign(() => null, { preload: load }) as PageComponent;
    registerResources([{ name: "vehicles", guard: "auth", layout: "portal", list: { path: "/vehicles", component: page }, show: { path: "/vehicles/:id", component: page }, meta: { label: "Vehicles" } }]);
  });
  afterEach(() => registerResources([]));
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

  it("only fetches the page's chunks for a link in view: nothing of it runs", async () => {
    preloadRoute("/vehicles", "normal");
    await settled();
    expect(load).not.toHaveBeenCalled();
    drain();
    expect(linked()).toContain("/assets/vehicles.js");
  });

  it("imports the page for a hovered or focused link, and for the page being opened", async () => {
    preloadRoute("/vehicles", "high");
    await settled();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("imports the page for a link in view when the build's lists do not name its route", async () => {
    preloadRoute("/vehicles/0b1c", "normal");
    await settled();
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe("the app's own imports at a page load", () => {
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
