/**
 * Fetches the code of the page at a pathname without running it: a module preload for each of its
 * chunks (the build's lists, ./route-chunk-files) that the page has not linked yet. For links that
 * merely come into view: running a page's modules builds its forms' schemas and its components, and
 * on a phone the page being opened paid for every page its links led to (the dashboard's links took
 * 170 KiB and most of its blocking time). The code runs when the page opens, from the cache.
 */
import { routeChunkFiles } from "./route-chunk-files";

/**
 * Resolves once every chunk the page needs is fetched (or failed: the navigation reports real
 * failures); undefined when the build's lists do not know the page (the dev server, a public page).
 */
export function fetchRouteCode(pathname: string, doc: Document = document): Promise<void> | undefined {
  const files = routeChunkFiles(pathname, doc);
  if (!files) return undefined;
  const linked = new Set(Array.from(doc.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]'), (link) => link.getAttribute("href")));
  const fetches = files
    .filter((file) => !linked.has(file))
    .map(
      (file) =>
        new Promise<void>((resolve) => {
          const link = doc.createElement("link");
          link.rel = "modulepreload";
          // As the start script and Vite's preload helper link them, so the fetch is the one the import uses.
          link.crossOrigin = "";
          link.href = file;
          link.onload = link.onerror = () => resolve();
          doc.head.appendChild(link);
        }),
    );
  return Promise.all(fetches).then(() => undefined);
}
