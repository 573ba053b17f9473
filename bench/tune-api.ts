/**
 * A patch-apply request end to end (target p99 ≤ 50 ms): multipart upload
 * of an 8 MiB image over HTTP on loopback into the real server, which reads
 * the form, identifies the firmware and finds the patches (PGlite in memory,
 * kept between requests until the catalogue changes), verifies checksums,
 * applies 1,000 entries, fixes checksums and answers the image with its
 * report. Printed next to the same
 * work done by the domain alone and a plain zlib.crc32 pass, the floor.
 *
 * The caller is curl, as a tuner's script or a flashing tool sends it (a
 * native client in its own process), and again node:http on a thread of
 * this process (bench/lib/request-client.ts). Each is printed after its own
 * transport floor: the same 8 MiB sent to a server that only echoes it back,
 * since on this two-core machine the client's work competes with the server's.
 *
 *   npx tsx bench/tune-api.ts
 *
 * The server runs in its own process (bench/lib/tune-api-server.ts, with a
 * stub identity), with the node flags npm start gives it. HTTP rather than
 * app.inject: inject turns every response body into a string, which for
 * 8 MiB costs more than the request itself.
 */
import { execFile, fork } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import zlib from "node:zlib";
import { SERVER_NODE_FLAGS } from "../scripts/lib/server-process";
import { type DemoOptions, generateDemo } from "../server/seed/generator";
import { applyPatches, verifyAll } from "../server/services/tune-engine";
import { multipart } from "../tests/api/support/multipart";
import type { ClientJob } from "./lib/request-client";
import type { BenchServerJob, BenchServerReady } from "./lib/tune-api-server";

const ROUNDS = 200;
const WARMUP = 5;
const TARGET_MS = 50;

const demoOptions: DemoOptions = { itemCount: 2000, patchEntries: 1000 };
const demo = generateDemo(demoOptions);
const { firmware, stock, patches } = demo;
const entries = patches.reduce((n, p) => n + p.entries.length, 0);

// Started as npm start starts the server (scripts/lib/server-process.ts).
const server = fork(new URL("./lib/tune-api-server.ts", import.meta.url), { execArgv: SERVER_NODE_FLAGS });
const BENCH_TOKEN = "bench";
server.send({ demo: demoOptions, token: BENCH_TOKEN } satisfies BenchServerJob);
const ready = await new Promise<BenchServerReady>((resolve, reject) => {
  server.once("message", (message) => resolve(message as BenchServerReady));
  server.once("exit", (code) => reject(new Error(`the bench server exited with ${code}`)));
});
if (ready.stockSha256 !== createHash("sha256").update(stock).digest("hex"))
  throw new Error("the bench server generated another demo");
const ids = ready.patchIds;
const body = multipart([{ name: "file", filename: "stock.bin", content: stock }], { patchIds: JSON.stringify(ids) });
const applyUrl = `${ready.address}/api/v1/tune-file-patches/apply`;
const dataDir = await mkdtemp(path.join(tmpdir(), "tune-api-bench-"));
const stockPath = path.join(dataDir, "stock.bin");
await writeFile(stockPath, stock);

/** A server that only reads the 8 MiB and sends it back: what moving the bytes costs. */
const echo = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () =>
    response.writeHead(200, { "content-type": "application/octet-stream" }).end(Buffer.concat(chunks)),
  );
});
await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
const echoUrl = `http://127.0.0.1:${(echo.address() as { port: number }).port}/echo`;

/** Requests from node:http on its own thread. */
function fromNodeClient(url: string, headers: Record<string, string>, payload: Uint8Array): Promise<number[]> {
  const job: ClientJob = { url, headers, body: payload, warmUp: WARMUP, rounds: ROUNDS };
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("../server/services/ts-worker.mjs", import.meta.url), {
      workerData: { ...job, module: new URL("./lib/request-client.ts", import.meta.url).href },
    });
    worker.once("message", (answer: { times?: number[]; error?: string }) =>
      answer.times ? resolve(answer.times) : reject(new Error(answer.error)),
    );
    worker.once("error", reject);
  });
}

/** The same requests from one curl process (one connection, kept alive), timed by curl itself. */
async function fromCurl(url: string, request: string[]): Promise<number[]> {
  const args: string[] = [];
  for (let i = 0; i < WARMUP + ROUNDS; i++)
    args.push(
      ...(i ? ["--next"] : []),
      "-s",
      "-o",
      "/dev/null",
      "-w",
      "%{http_code} %{time_total}\\n",
      ...request,
      url,
    );
  const output = await new Promise<string>((resolve, reject) =>
    execFile("curl", args, { maxBuffer: 1 << 20 }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
  const answers = output
    .trim()
    .split("\n")
    .map((line) => line.split(" "));
  const refused = answers.find(([status]) => status !== "200");
  if (refused) throw new Error(`${url} answered ${refused[0]} to curl`);
  return answers.slice(WARMUP).map(([, seconds]) => Number(seconds) * 1000);
}

const toolHeaders = { authorization: `Bearer ${BENCH_TOKEN}`, accept: "application/octet-stream" };
const curlApply = [
  "-H",
  `authorization: ${toolHeaders.authorization}`,
  "-H",
  `accept: ${toolHeaders.accept}`,
  "-F",
  `file=@${stockPath}`,
  "-F",
  `patchIds=${JSON.stringify(ids)}`,
];
const curlEcho = ["-H", "content-type: application/octet-stream", "--data-binary", `@${stockPath}`];
const payload = new Uint8Array(body.payload);

/** Work timed on this thread, one call after another. */
function timeHere(run: () => void): number[] {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const start = performance.now();
    run();
    if (i >= WARMUP) times.push(performance.now() - start);
  }
  return times;
}

const operations: Array<{ name: string; target?: number; samples: number[] }> = [
  { name: "zlib.crc32 over 8 MiB (floor)", samples: timeHere(() => zlib.crc32(stock)) },
  {
    name: `domain: verify + apply ${entries} entries + fix`,
    samples: timeHere(() => {
      verifyAll(stock, firmware.checksums);
      applyPatches(stock, patches, { firmwareId: firmware.firmwareId, checksums: firmware.checksums });
    }),
  },
  { name: "curl: 8 MiB each way to an echo server", samples: await fromCurl(echoUrl, curlEcho) },
  {
    name: "curl: POST /tune-file-patches/apply (bytes)",
    target: TARGET_MS,
    samples: await fromCurl(applyUrl, curlApply),
  },
  {
    name: "  same, asking for its SHA-256 (RFC 9530)",
    samples: await fromCurl(applyUrl, [...curlApply, "-H", "want-repr-digest: sha-256=1"]),
  },
  {
    name: "node:http: 8 MiB each way, echo",
    samples: await fromNodeClient(echoUrl, { "content-type": "application/octet-stream" }, stock),
  },
  {
    name: "node:http: POST …/apply (bytes)",
    samples: await fromNodeClient(applyUrl, { ...toolHeaders, ...body.headers }, payload),
  },
  {
    name: "node:http: same, JSON with base64 (browser)",
    samples: await fromNodeClient(
      applyUrl,
      { authorization: `Bearer ${BENCH_TOKEN}`, accept: "application/json", ...body.headers },
      payload,
    ),
  },
];
echo.close();
server.kill("SIGTERM");
await rm(dataDir, { recursive: true, force: true });

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)];
const figures = operations.map((op) => {
  const sorted = [...op.samples].sort((a, b) => a - b);
  return { ...op, median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), p99: quantile(sorted, 0.99) };
});
const floor = figures[0].median;
console.log(
  `8 MiB upload, ${patches.length} patches with ${entries} entries, ${firmware.checksums.length} checksum schemes; ${ROUNDS} rounds each`,
);
console.log("");
console.log(
  `${"".padEnd(44)}${"median ms".padStart(10)}${"p95 ms".padStart(10)}${"p99 ms".padStart(10)}${"× floor".padStart(9)}${"target".padStart(9)}`,
);
let over = false;
for (const f of figures) {
  const target = f.target;
  const verdict = target === undefined ? "" : f.p99 <= target ? "  ok" : "  OVER";
  over ||= target !== undefined && f.p99 > target;
  console.log(
    f.name.padEnd(44) +
      f.median.toFixed(2).padStart(10) +
      f.p95.toFixed(2).padStart(10) +
      f.p99.toFixed(2).padStart(10) +
      (f.median / floor).toFixed(1).padStart(9) +
      (target === undefined ? "" : `≤ ${target}`).padStart(9) +
      verdict,
  );
}
if (over) process.exitCode = 1;
