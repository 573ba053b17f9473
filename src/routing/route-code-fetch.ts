/**
 * Fetches the code of the page at a pathname without running it: a module preload for each of its
 * chunks (the build's lists, ./route-chunk-files) that the page has not linked yet. For links that
 * merely come into view: running a page's modules builds its forms' schemas and its components, and
 * on a phone the page being opened paid for every page its links led to (the dashboard's links took
 * 170 KiB and most of its blocking time). The code runs when the page opens, from the cache.
 */
import { inNextTask } from "../lib/idle";
import { routeChunkFiles } from "./route-chunk-files";

/** Module preloads inserted per task: inserting one starts its fetch on the main thread, a few milliseconds on a slow phone. */
const LINKS_PER_TURN = 4;

/**
 * Resolves once every chunk it linked is fetched (or failed: the navigation reports real failures;
 * a chunk another page's fetch linked first is that fetch's to wait for); undefined when the build's lists do not know the page (the dev server, a public page).
 * The links go in four per task, as the start script inserts the page's own (public/start-after-paint.js):
 * a page's links in view ask for dozens of chunks, which in one task kept a phone from answering a tap.
 */
export function fetchRouteCode(pathname: string, doc: Document = document): Promise<void> | undefined {
  const files = routeChunkFiles(pathname, doc);
  if (!files) return undefined;
  return new Promise<void>((resolve) => {
    const fetches: Array<Promise<void>> = [];
    const insertTurn = (from: number) => {
      // Read each turn: other links' pages, fetched at the same time, share chunks (the portal's, the frame's).
      const linked = new Set(
        Array.from(doc.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]'), (link) =>
          link.getAttribute("href"),
        ),
      );
      let next = from;
      for (let inserted = 0; next < files.length && inserted < LINKS_PER_TURN; next++) {
        if (linked.has(files[next]!)) continue;
        fetches.push(preloadModule(files[next]!, doc));
        inserted++;
      }
      if (next < files.length) inNextTask(() => insertTurn(next));
      else void Promise.all(fetches).then(() => resolve());
    };
    insertTurn(0);
  });
}

function preloadModule(file: string, doc: Document): Promise<void> {
  return new Promise<void>((resolve) => {
    const link = doc.createElement("link");
    link.rel = "modulepreload";
    // As the start script and Vite's preload helper link them, so the fetch is the one the import uses.
    link.crossOrigin = "";
    link.href = file;
    link.onload = link.onerror = () => resolve();
    doc.head.appendChild(link);
  });
}
