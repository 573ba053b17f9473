/**
 * An event stream of the API authenticated by the session cookie (the car's, a ticket's): opened
 * once the cookie is set; when the server refuses it (an expired cookie), the cookie is renewed
 * and the stream opened again, 3 s later, then waiting twice as long after each refusal in a row up
 * to a minute (each retry asks for a fresh token: a stream the server keeps refusing must not cost a
 * token refresh every 3 s). Answers the function that closes it.
 */
import { API_PREFIX } from "./data-provider";
import type { useSession } from "./session-context";

const RETRY_MS = 3_000;
const MAX_RETRY_MS = 60_000;

export function openSessionStream(
  session: ReturnType<typeof useSession>,
  path: string,
  listeners: Record<string, (data: string) => void>,
): () => void {
  if (typeof EventSource === "undefined") return () => {};
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let retryMs = RETRY_MS;
  const open = (ready: Promise<void>) =>
    void ready.then(() => {
      if (stopped) return;
      source = new EventSource(`${API_PREFIX}/${path}`, { withCredentials: true });
      for (const [name, listener] of Object.entries(listeners))
        source.addEventListener(name, (event) => listener((event as MessageEvent<string>).data));
      source.onopen = () => {
        retryMs = RETRY_MS;
      };
      source.onerror = () => {
        // A dropped connection reconnects by itself; a refused one is closed and needs a new cookie.
        if (source?.readyState !== EventSource.CLOSED) return;
        timer = setTimeout(() => open(session.remirror()), retryMs);
        retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      };
    });
  open(session.mirrored());
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  };
}
