/** Runs `callback` when the browser is idle (at once, in a later task, where it cannot say). */
export function whenIdle(callback: () => void): void {
  if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(callback);
  else window.setTimeout(callback, 1);
}

/**
 * Runs `callback` in a task of its own, as soon as the browser has run what is queued before it (no
 * timer's minimum delay); answers a cancel. For work split so that no one task blocks input long.
 */
export function inNextTask(callback: () => void): () => void {
  const channel = new MessageChannel();
  let cancelled = false;
  channel.port1.onmessage = () => {
    channel.port1.close();
    if (!cancelled) callback();
  };
  channel.port2.postMessage(null);
  return () => {
    cancelled = true;
    channel.port1.close();
  };
}
