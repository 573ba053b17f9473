import { useCallback, useInsertionEffect, useRef } from "react";

/**
 * A function of fixed identity that calls the latest `callback` given: for handlers passed to
 * memoised children, which would otherwise render again whenever the state the handler reads changes
 * (the data log's toolbar rendered its 8 buttons and 3 selects again as each part of the log arrived).
 * Not for calling during render: the latest callback is taken as the render commits.
 */
export function useStableCallback<Args extends unknown[], Result>(
  callback: (...args: Args) => Result,
): (...args: Args) => Result {
  const latest = useRef(callback);
  // Before any layout effect or event of the commit can call it.
  useInsertionEffect(() => {
    latest.current = callback;
  });
  return useCallback((...args: Args) => latest.current(...args), []);
}
