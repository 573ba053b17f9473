/**
 * The window's height, read when this module loads, when a view starts listening and on each
 * resize, for views sized to the screen. Not read in a render: on a phone (a page with a viewport) reading `innerHeight`
 * makes the browser lay the page out first, and a render that did so while a data log loaded spent
 * a third of its task on that layout.
 */
import { useSyncExternalStore } from "react";

const FALLBACK = 800;
let height = typeof window === "undefined" ? FALLBACK : window.innerHeight;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) {
    window.addEventListener("resize", onResize);
    // Resizes while no view listened went unseen. Subscribing runs after the paint, with the page
    // laid out: reading it costs nothing extra, and React renders again if it changed.
    height = window.innerHeight;
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener("resize", onResize);
  };
}

function onResize() {
  // After the resize the page is laid out at its new size anyway: reading it now costs nothing extra.
  height = window.innerHeight;
  for (const listener of listeners) listener();
}

const current = () => height;
const onServer = () => FALLBACK;

/** The window's height in CSS pixels, following resizes and a phone turned. */
export function useViewportHeight(): number {
  return useSyncExternalStore(subscribe, current, onServer);
}
