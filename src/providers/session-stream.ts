/**
 * An event stream of the API authenticated by the session cookie (the car's, a ticket's): opened
 * once the cookie is set; when the server refuses it (an expired cookie), the cookie is renewed
 * and the stream opened again. Answers the function that closes it.
 */
import { API_PREFIX } from "./data-provider";
import type { useSession } from "./session-context";

const RETRY_MS = 3_000;

export function openSessionStream(session: ReturnType<typeof useSession>, path: string, listeners: Record<string, (data: string) => void>): () => void {
  if (typeof EventSource === "undefined") return () => {};
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const open = (ready: Promise<void>) =>
    void ready.then(() => {
      if (stopped) return;
      source = new EventSource(`${API_PREFIX}/${path}`, { withCredentials: true });
      for (const [name, listener] of Object.entries(listeners)) source.addEventListener(name, (event) => listener((event as MessageEvent<string>).data));
      source.onerror = () => {
        // A dropped connection reconnects by itself; a refused one is closed and needs a new cookie.
        if (source?.readyState !== EventSource.CLOSED) return;
        timer = setTimeout(() => open(session.remirror()), RETRY_MS);
      };
    });
  open(session.mirrored());
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  };
}
