/**
 * Our former in-memory multipart reader (bench/lib/buffered-form.ts: the
 * whole body into a pooled buffer, parsed there) next to what the server
 * uses, @fastify/multipart's own buffering
 * (server/http/uploads.ts withBufferedUpload: the parts() loop with
 * `toBuffer()` on the file, same limits), on two realistic uploads: a tune
 * file as the portal gets it (2 MiB binary and a few text fields) and the
 * largest definition in the fixtures (the MS45 XDF, 2.9 MB of XML). The
 * rule: our own reader would stay only while it is at least twice as fast in
 * the median (ours / theirs ≤ 0.50).
 *
 *   npx tsx bench/multipart.ts [--rounds 100] [--tune-mib 2]
 *
 * The server runs in its own process (this file again with --serve, started
 * with the node flags npm start gives it); the client is fetch (undici) on
 * 127.0.0.1 over one kept-alive connection, so the body crosses a real socket
 * and reaches each parser in the chunks the server really reads. Both routes
 * answer the same small JSON (the file's size and the fields; with ?check=1
 * its SHA-256, compared before timing), so what differs is how the body is
 * read. The two readers run in turns (A, B, then B, A next round) after a
 * warm-up; each request is timed by the client (end to end) and by the
 * server (wall and CPU time from onRequest to the answer, sent back in
 * headers), and medians are printed with their IQR and range.
 */
import { fork } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import fastifyMultipart from "@fastify/multipart";
import Fastify, { type FastifyRequest } from "fastify";
import { SERVER_NODE_FLAGS } from "../scripts/lib/server-process";
import type { AppContext } from "../server/context";
import { installErrorHandling } from "../server/errors";
import { requireFile, withBufferedUpload } from "../server/http/uploads";
import { multipart } from "../tests/api/support/multipart";
import { withOurBufferedUpload } from "./lib/buffered-form";

const UPLOAD_LIMIT = 64 * 1024 * 1024; // the portal's default uploadLimitBytes
const MAX_FIELDS = 32;
const MAX_FIELD_BYTES = 64 * 1024;
const WARMUP = 10;
const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const ROUNDS = process.argv.includes("--rounds") ? Number(arg("--rounds")) : 100;
/** The tune file's size: 2 MiB as the portal's uploads mostly are; 8 MiB is bench/tune-api.ts's image. */
const TUNE_MIB = process.argv.includes("--tune-mib") ? Number(arg("--tune-mib")) : 2;

interface Answer {
  size: number;
  sha256?: string;
  fields: Record<string, string>;
}

const answerOf = (bytes: Uint8Array, fields: Record<string, string>, check: boolean): Answer => ({
  size: bytes.length,
  ...(check && { sha256: createHash("sha256").update(bytes).digest("hex") }),
  fields,
});

async function serve(): Promise<void> {
  const app = Fastify({ bodyLimit: 1024 * 1024 });
  installErrorHandling(app);
  await app.register(fastifyMultipart, { limits: { fileSize: UPLOAD_LIMIT } });
  const ctx = { config: { uploadLimitBytes: UPLOAD_LIMIT } } as AppContext;
  const started = new WeakMap<FastifyRequest, { at: number; cpu: NodeJS.CpuUsage }>();
  app.addHook("onRequest", async (request) => {
    started.set(request, { at: performance.now(), cpu: process.cpuUsage() });
  });
  app.addHook("onSend", async (request, reply) => {
    const start = started.get(request);
    if (!start) return;
    const cpu = process.cpuUsage(start.cpu);
    reply
      .header("x-server-ms", (performance.now() - start.at).toFixed(3))
      .header("x-cpu-ms", ((cpu.user + cpu.system) / 1000).toFixed(3));
  });
  const check = (request: FastifyRequest) => (request.query as { check?: string }).check === "1";
  app.post("/ours", async (request, reply) =>
    withOurBufferedUpload(
      request,
      reply,
      { fileBytes: UPLOAD_LIMIT, fields: MAX_FIELDS, fieldBytes: MAX_FIELD_BYTES },
      async (upload) => {
        if (!upload.file) throw new Error("no file");
        return answerOf(upload.file.bytes, upload.fields, check(request));
      },
    ),
  );
  app.post("/theirs", async (request) =>
    withBufferedUpload(request, ctx, async (upload) =>
      answerOf(requireFile(upload).bytes, upload.fields, check(request)),
    ),
  );
  const address = await app.listen({ host: "127.0.0.1", port: 0 });
  process.send?.({ address });
  process.once("SIGTERM", () => void app.close().then(() => process.exit(0)));
}

interface Sample {
  client: number;
  server: number;
  cpu: number;
}

async function post(url: string, upload: { payload: Buffer; headers: Record<string, string> }): Promise<Sample> {
  const start = performance.now();
  const response = await fetch(url, { method: "POST", headers: upload.headers, body: new Uint8Array(upload.payload) });
  const text = await response.text();
  const client = performance.now() - start;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return {
    client,
    server: Number(response.headers.get("x-server-ms")),
    cpu: Number(response.headers.get("x-cpu-ms")),
  };
}

const quantile = (sorted: number[], q: number) => {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.ceil(at)] - sorted[low]) * (at - low);
};

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    q1: quantile(sorted, 0.25),
    q3: quantile(sorted, 0.75),
    min: sorted[0],
    max: sorted[sorted.length - 1],
  };
}

async function bench(): Promise<void> {
  const server = fork(new URL(import.meta.url), ["--serve"], { execArgv: SERVER_NODE_FLAGS });
  const { address } = await new Promise<{ address: string }>((resolve, reject) => {
    server.once("message", (message) => resolve(message as { address: string }));
    server.once("exit", (code) => reject(new Error(`the bench server exited with ${code}`)));
  });
  try {
    const definitionPath = path.resolve("../shared/fixtures/definitions/ms45.xdf");
    const definition = await readFile(definitionPath);
    // A read of a flash as the upload form sends it: incompressible bytes, the vehicle and a note.
    const image = createHash("sha256").update("bench").digest();
    const tune = Buffer.alloc(TUNE_MIB * 1024 * 1024);
    for (let at = 0; at < tune.length; at += image.length) {
      image.copy(tune, at);
      image.writeUInt32LE(at, 0);
      createHash("sha256").update(image).digest().copy(image);
    }
    const uploads = [
      {
        name: `tune file, ${TUNE_MIB} MiB + 4 fields`,
        upload: multipart([{ name: "file", filename: "stock-read.bin", content: tune }], {
          vehicleId: "3f6c2a1e-5b7d-4c1a-9e2f-0a1b2c3d4e5f",
          label: "Stage 1, 98 RON",
          notes: "Read with the bench tool; checksums fixed after the MAF scaling change.",
          fixChecksums: "true",
        }),
        sha256: createHash("sha256").update(tune).digest("hex"),
      },
      {
        name: `definition ${path.basename(definitionPath)}, ${(definition.length / 1e6).toFixed(1)} MB`,
        upload: multipart([{ name: "file", filename: path.basename(definitionPath), content: definition }], {
          format: "xdf",
          saveDefinition: "true",
        }),
        sha256: createHash("sha256").update(definition).digest("hex"),
      },
    ];
    const routes = [
      { name: "ours (buffered-form)", path: "/ours" },
      { name: "@fastify/multipart (server now)", path: "/theirs" },
    ];

    // Both answer the same, bytes included.
    for (const { name, upload, sha256 } of uploads) {
      const answers = await Promise.all(
        routes.map(async (route) => {
          const response = await fetch(`${address}${route.path}?check=1`, {
            method: "POST",
            headers: upload.headers,
            body: new Uint8Array(upload.payload),
          });
          return (await response.json()) as Answer;
        }),
      );
      for (const answer of answers)
        if (answer.sha256 !== sha256 || JSON.stringify(answer) !== JSON.stringify(answers[0]))
          throw new Error(`${name}: the two readers answered differently: ${JSON.stringify(answers)}`);
    }

    const samples = uploads.map(() => routes.map(() => [] as Sample[]));
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const [u, { upload }] of uploads.entries())
        for (const r of order) {
          const sample = await post(`${address}${routes[r].path}`, upload);
          if (round >= WARMUP) samples[u][r].push(sample);
        }
    }

    const ms = (value: number) => value.toFixed(2);
    const measures = [
      { name: "end to end (client)", of: (s: Sample) => s.client },
      { name: "server, onRequest → answer", of: (s: Sample) => s.server },
      { name: "server CPU time", of: (s: Sample) => s.cpu },
    ];
    console.log(
      `${ROUNDS} rounds after ${WARMUP} of warm-up, the two readers in turns; fetch over 127.0.0.1, one connection`,
    );
    console.log("times in ms: median (IQR; min–max)");
    for (const [u, { name }] of uploads.entries()) {
      console.log("");
      console.log(
        `${name.padEnd(30)}${routes.map((route) => route.name.padStart(36)).join("")}${"ours / theirs".padStart(15)}`,
      );
      for (const measure of measures) {
        const stats = routes.map((_, r) => summary(samples[u][r].map(measure.of)));
        const cells = stats.map((x) =>
          `${ms(x.median)} (${ms(x.q1)}–${ms(x.q3)}; ${ms(x.min)}–${ms(x.max)})`.padStart(36),
        );
        console.log(
          `  ${measure.name.padEnd(28)}${cells.join("")}${(stats[0].median / stats[1].median).toFixed(2).padStart(15)}`,
        );
      }
    }
    console.log("");
    console.log("The rule: ours is kept only at ours / theirs ≤ 0.50 (twice as fast) in the median.");
  } finally {
    server.kill("SIGTERM");
  }
}

if (process.argv.includes("--serve")) await serve();
else await bench();
