/**
 * The chunks a portal route loads beyond the entry, from the build's lists in the page
 * (`#route-preloads`, written by scripts/lib/prerender.ts and read by public/start-after-paint.js):
 * the portal's code, the frame for a page in it and the page's own, each after those it imports.
 * None where the page has no lists (the dev server).
 */
import { matchPath } from "react-router";

/** The build's lists, as scripts/lib/prerender.ts RoutePreloads writes them: chunk indexes as space-separated lists. */
interface PreloadLists {
  files: string[];
  portal: string;
  frame: string;
  routes: Array<[string, (0 | 1)?, string?, number?]>;
}

let lists: PreloadLists | null | undefined;

function preloadLists(doc: Document): PreloadLists | null {
  if (lists !== undefined) return lists;
  const text = doc.getElementById("route-preloads")?.textContent;
  try {
    lists = text ? (JSON.parse(text) as PreloadLists) : null;
  } catch {
    // A page whose lists cannot be read has its chunks evaluated by the app's own imports.
    lists = null;
  }
  return lists;
}

/**
 * The chunks the page at `pathname` loads beyond the entry, in the build's order: the portal's
 * code, the frame for a page in it and the page's own; undefined when the build's lists name no
 * portal route for it (a public page, an unknown path, or no lists). The first route that matches
 * is the page's, as in the app.
 */
export function routeChunkFiles(pathname: string, doc: Document = document): string[] | undefined {
  const found = preloadLists(doc)?.routes.find((route) => matchPath(route[0], pathname));
  if (!found || found.length === 1 || !lists) return undefined;
  const { files, portal, frame } = lists;
  return [portal, found[1] ? frame : "", found[2] ?? ""]
    .join(" ")
    .split(" ")
    .filter(Boolean)
    .map((index) => files[Number(index)])
    .filter((file): file is string => typeof file === "string");
}

/** Forgets the lists read (tests load pages with other lists). */
export function forgetRouteChunkLists(): void {
  lists = undefined;
}
