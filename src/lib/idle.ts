/** Runs `callback` when the browser is idle (at once, in a later task, where it cannot say). */
export function whenIdle(callback: () => void): void {
  if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(callback);
  else window.setTimeout(callback, 1);
}
