/**
 * Reads a text/event-stream answer over real HTTP as a browser's EventSource would (inject waits
 * for the end of a response, which a stream never reaches).
 */
import http from "node:http";

export interface SseEvent {
  event: string;
  data: unknown;
}

/** An open text/event-stream response, read as a browser's EventSource would. */
export interface Listener {
  status: number;
  contentType: string | undefined;
  /** The next event with this name not yet taken, waiting up to `ms`. */
  next(event: string, ms?: number): Promise<SseEvent>;
  /** Resolves when the server ends the response. */
  ended: Promise<void>;
  close(): void;
}

export function listen(port: number, path: string, headers: Record<string, string>): Promise<Listener> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: "127.0.0.1", port, path, headers: { accept: "text/event-stream", ...headers } },
      (response) => {
        const events: SseEvent[] = [];
        const waiters = new Set<() => void>();
        let buffer = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const name = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (name && data !== undefined) events.push({ event: name, data: JSON.parse(data) });
          }
          for (const wake of waiters) wake();
        });
        const ended = new Promise<void>((done) => response.on("end", done).on("close", done));
        resolve({
          status: response.statusCode ?? 0,
          contentType: response.headers["content-type"],
          ended,
          close: () => request.destroy(),
          next: (event, ms = 5000) =>
            new Promise((found, fail) => {
              const look = () => {
                const index = events.findIndex((e) => e.event === event);
                if (index < 0) return false;
                waiters.delete(look);
                clearTimeout(timer);
                found(events.splice(index, 1)[0]);
                return true;
              };
              const timer = setTimeout(() => {
                waiters.delete(look);
                fail(new Error(`no "${event}" event within ${ms} ms`));
              }, ms);
              if (!look()) waiters.add(look);
            }),
        });
      },
    );
    request.on("error", reject);
  });
}
