/**
 * Fetching a page's code without running it, for links that have only come into view.
 *
 * Running a page's chunks (`import()`) evaluates every module in them — its antd components, its
 * zod schemas — in one task, and Vite's preload helper inserts a module preload for each chunk it
 * imports in that same task: on a phone's first load of the dashboard, the four pages its visible
 * links lead to cost one task of ~30 inserted links and their modules' evaluation. A module
 * preload only fetches and compiles, and inserted a few at a time when the browser is idle, no
 * task grows long; the click (or a hover or focus, src/components/link.tsx) still runs the import,
 * which then finds the code in the memory cache and every chunk linked.
 *
 * The chunks each route needs come from the build's lists in the page (`#route-preloads`, written
 * by scripts/lib/prerender.ts and read by public/start-after-paint.js). Where there are none (the
 * dev server) nothing is fetched here and the caller imports instead.
 */

/** The build's lists, as scripts/lib/prerender.ts RoutePreloads writes them: chunk indexes as space-separated lists. */
interface PreloadLists {
  files: string[];
  portal: string;
  frame: string;
  routes: Array<[string, (0 | 1)?, string?, number?]>;
}

/**
 * Module preloads in flight at once. Each starts its fetch (and later its compile) on the main
 * thread, and over HTTP/1.1 the browser opens six connections to the site: an admin's menu in view
 * links over a hundred chunks, and all at once they held back, for 10–25 s on a slow machine, the
 * very page the admin then opened. A few at a time, at low priority, they leave room for it.
 */
export const LINKS_PER_TURN = 4;

let lists: PreloadLists | null | undefined;

function preloadLists(doc: Document): PreloadLists | null {
  if (lists !== undefined) return lists;
  const text = doc.getElementById("route-preloads")?.textContent;
  try {
    lists = text ? (JSON.parse(text) as PreloadLists) : null;
  } catch {
    // A page whose lists cannot be read fetches nothing ahead; its links still import on use.
    lists = null;
  }
  return lists;
}

/**
 * The chunks `routePath` (a route's pattern, as the registry names it) loads beyond the entry:
 * the portal's code, the frame for a page in it and the page's own; undefined when the build's
 * lists do not name the route (a public page, or no lists).
 */
export function routeChunkFiles(routePath: string, doc: Document = document): string[] | undefined {
  const found = preloadLists(doc)?.routes.find((route) => route[0] === routePath);
  if (!found || found.length === 1 || !lists) return undefined;
  const { files, portal, frame } = lists;
  return [portal, found[1] ? frame : "", found[2] ?? ""]
    .join(" ")
    .split(" ")
    .filter(Boolean)
    .map((index) => files[Number(index)])
    .filter((file): file is string => typeof file === "string");
}

/** Hrefs waiting for a turn, and every href linked or queued (absolute, as `link.href` reads). */
const queue: string[] = [];
const known = new Set<string>();
let turnScheduled = false;
let inFlight = 0;

function linkedAlready(doc: Document): void {
  for (const link of doc.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')) known.add(link.href);
  for (const script of doc.querySelectorAll<HTMLScriptElement>('script[type="module"][src]')) known.add(script.src);
}

/** Links the next hrefs, as many as leave LINKS_PER_TURN in flight; each one settled makes room for the next. */
function insertTurn(doc: Document): void {
  turnScheduled = false;
  // An import may have linked some meanwhile (Vite's helper links what it imports).
  const present = new Set([...doc.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => link.href));
  while (inFlight < LINKS_PER_TURN && queue.length > 0) {
    const href = queue.shift()!;
    if (present.has(href)) continue;
    const link = doc.createElement("link");
    link.rel = "modulepreload";
    link.crossOrigin = "";
    link.fetchPriority = "low";
    link.href = href;
    inFlight += 1;
    link.onload = link.onerror = () => {
      inFlight -= 1;
      scheduleTurn(doc);
    };
    doc.head.appendChild(link);
  }
}

function scheduleTurn(doc: Document): void {
  if (turnScheduled || queue.length === 0 || inFlight >= LINKS_PER_TURN) return;
  turnScheduled = true;
  const view = doc.defaultView;
  if (view && typeof view.requestIdleCallback === "function") view.requestIdleCallback(() => insertTurn(doc), { timeout: 2000 });
  else setTimeout(() => insertTurn(doc), 1);
}

/**
 * Queues module preloads for the chunks of `routePath` not yet linked, inserted when the browser
 * is idle, a few in flight at a time. False when the build's lists do not name the route: the caller should import it instead.
 */
export function fetchRouteCode(routePath: string, doc: Document = document): boolean {
  const files = routeChunkFiles(routePath, doc);
  if (!files) return false;
  linkedAlready(doc);
  for (const file of files) {
    const href = new URL(file, doc.baseURI).href;
    if (known.has(href)) continue;
    known.add(href);
    queue.push(href);
  }
  scheduleTurn(doc);
  return true;
}

/** Forgets the lists and what was queued (tests load pages with other lists). */
export function resetRouteCodeFetch(): void {
  lists = undefined;
  queue.length = 0;
  known.clear();
  turnScheduled = false;
  inFlight = 0;
}

/**
 * Runs `callback` once public/start-after-paint.js has linked the page's own chunks, or at once on a
 * page it does not start with the build's lists (the dev server). The entry starts before those
 * links are all in; an import before then would have Vite's preload helper insert the rest in one task.
 */
export function whenRouteChunksLinked(callback: () => void, view: Window = window): void {
  const linked = (view as Window & { __routeChunksLinked?: boolean }).__routeChunksLinked === true;
  if (linked || !view.document.getElementById("route-preloads")) {
    callback();
    return;
  }
  view.addEventListener("route-chunks-linked", () => callback(), { once: true });
}
