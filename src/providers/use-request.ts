/**
 * Requests a page sends itself, with their pending state and outcome: the public site's pages use
 * these with the data provider instead of Refine's hooks, so they load without the portal's code
 * (src/public-site.tsx). Errors are the data provider's (an HttpError with the server's message
 * and field errors), as Refine's hooks would pass them on.
 */
import { useCallback, useEffect, useRef, useState } from "react";

/** `send` wrapped to report whether a call is under way; the call's promise resolves or rejects as `send`'s does. */
export function useSend<Args extends unknown[], Result>(
  send: (...args: Args) => Promise<Result>,
): { send: (...args: Args) => Promise<Result>; pending: boolean } {
  const [running, setRunning] = useState(0);
  const mounted = useMounted();
  const latest = useRef(send);
  latest.current = send;
  const run = useCallback(
    async (...args: Args) => {
      setRunning((count) => count + 1);
      try {
        return await latest.current(...args);
      } finally {
        if (mounted.current) setRunning((count) => count - 1);
      }
    },
    [mounted],
  );
  return { send: run, pending: running > 0 };
}

export type Read<T> =
  | { status: "loading" }
  | { status: "error"; error: unknown; retry: () => void }
  | { status: "done"; data: T };

/** Reads once on mount (and again when `key` changes or after `retry`); an answer for an older key is dropped. */
export function useRead<T>(key: string, read: () => Promise<T>): Read<T> {
  const [state, setState] = useState<{ key: string; attempt: number; outcome: Read<T> }>({
    key,
    attempt: 0,
    outcome: { status: "loading" },
  });
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(read);
  latest.current = read;
  useEffect(() => {
    let current = true;
    latest.current().then(
      (data) => current && setState({ key, attempt, outcome: { status: "done", data } }),
      (error: unknown) =>
        current &&
        setState({ key, attempt, outcome: { status: "error", error, retry: () => setAttempt((count) => count + 1) } }),
    );
    return () => {
      current = false;
    };
  }, [key, attempt]);
  // Loading until the answer for this key and attempt is in: a new key or a retry shows no older answer.
  return state.key === key && state.attempt === attempt ? state.outcome : { status: "loading" };
}

function useMounted() {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}
