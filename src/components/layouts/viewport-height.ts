/**
 * The window's height, read when this module loads and on each resize, for views sized to the
 * screen. Never read in a render or as a view mounts: on a phone (a page with a viewport) reading
 * `innerHeight` makes the browser lay the page out then and there. Read in a render, that layout
 * took a third of a data log's render task; read as the view started listening, it lengthened the
 * task in which the log's page mounted (the Lighthouse bench's `--tasks` shows it). The resize listener stays for the page's life, so a phone turned while no view
 * listens is seen too.
 */
import { useSyncExternalStore } from "react";

const FALLBACK = 800;
let height = FALLBACK;
const listeners = new Set<() => void>();

function onResize() {
  // After the resize the page is laid out at its new size anyway: reading it now costs nothing extra.
  height = window.innerHeight;
  for (const listener of listeners) listener();
}

if (typeof window !== "undefined") {
  height = window.innerHeight;
  window.addEventListener("resize", onResize);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

const current = () => height;
const onServer = () => FALLBACK;

/** The window's height in CSS pixels, following resizes and a phone turned. */
export function useViewportHeight(): number {
  return useSyncExternalStore(subscribe, current, onServer);
}
