/**
 * A client on its own thread, as a real one is in its own process: it posts
 * the same request again and again and times each answer, so the server's
 * event loop does none of the client's work (building the request, reading
 * 8 MiB back) and the figure is what a caller waits.
 */
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";

export interface ClientJob {
  url: string;
  headers: Record<string, string>;
  body: Uint8Array;
  /** Requests before timing starts. */
  warmUp: number;
  rounds: number;
}

/** One POST through node:http, as curl or a flashing tool would send it: the answer read as it arrives, no body parsing. */
function post(url: URL, headers: Record<string, string>, body: Uint8Array): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: "POST", headers: { ...headers, "content-length": String(body.length) }, agent },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

async function run({ url, headers, body, warmUp, rounds }: ClientJob): Promise<number[]> {
  const target = new URL(url);
  const times: number[] = [];
  for (let i = 0; i < warmUp + rounds; i++) {
    const start = performance.now();
    const answer = await post(target, headers, body);
    if (answer.status !== 200)
      throw new Error(`${url} answered ${answer.status}: ${answer.body.toString().slice(0, 300)}`);
    if (i >= warmUp) times.push(performance.now() - start);
  }
  agent.destroy();
  return times;
}

run(workerData as ClientJob).then(
  (times) => parentPort!.postMessage({ times }),
  (error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) }),
);
