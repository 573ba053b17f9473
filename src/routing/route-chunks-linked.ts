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
