import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressDir } from "../../scripts/lib/precompress";
import { buildApp } from "../../server/app";
import { loadConfig } from "../../server/config";
import { type Database, openDatabase } from "../../server/db/connection";
import { negotiateEncoding } from "../../server/http/static";
import { productionMailEnv } from "./support/harness";

/**
 * A small stand-in for dist/: an index.html, a hashed script and a tiny file, compressed by the same
 * step the build runs (scripts/lib/precompress.ts), served by a production-mode server.
 */
const runDir = path.resolve(`.test-data/static-${randomBytes(4).toString("hex")}`);
const distDir = path.join(runDir, "dist");
const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, label: "row number ${i}" }`).join(", ")}];\n`;
const html = `<!doctype html><html><head><title>Tuning Portal</title><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div>${"<!-- padding -->".repeat(100)}</body></html>`;

// A page the build rendered (scripts/lib/prerender.ts writes dist/pages/<path>.html).
const loginSnapshot = html.replace(
  '<div id="root">',
  `<div class="page-snapshot">${"<h1>Sign in</h1>".repeat(100)}</div><div id="root">`,
);
const termsSnapshot = html.replace(
  '<div id="root">',
  `<div class="page-snapshot">${"<h1>Terms</h1>".repeat(100)}</div><div id="root">`,
);

let app: FastifyInstance;
let database: Database;

beforeAll(async () => {
  await mkdir(path.join(distDir, "assets"), { recursive: true });
  await writeFile(path.join(distDir, "index.html"), html);
  await writeFile(path.join(distDir, "assets", "index-abc123.js"), script);
  await writeFile(path.join(distDir, "assets", "tiny-abc123.js"), "export const a = 1;\n");
  await mkdir(path.join(distDir, "pages", "legal"), { recursive: true });
  await writeFile(path.join(distDir, "pages", "login.html"), loginSnapshot);
  await writeFile(path.join(distDir, "pages", "legal", "terms.html"), termsSnapshot);
  await mkdir(path.join(distDir, ".vite"), { recursive: true });
  await writeFile(
    path.join(distDir, ".vite", "chunks.json"),
    JSON.stringify([{ fileName: "assets/index-abc123.js", padding: "x".repeat(2000) }]),
  );
  await precompressDir(distDir);
  const config = loadConfig({
    NODE_ENV: "production",
    ...productionMailEnv(),
    DATA_DIR: path.join(runDir, "data"),
    DIST_DIR: distDir,
    SECRETS_KEY: randomBytes(32).toString("base64"),
  });
  database = await openDatabase({ databaseUrl: undefined, pgliteDir: "memory://" });
  await database.migrate();
  app = await buildApp(config, { database, logger: false });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  await rm(runDir, { recursive: true, force: true });
});

const decode = (coding: string | undefined, body: Buffer) =>
  coding === "br" ? brotliDecompressSync(body) : coding === "gzip" ? gunzipSync(body) : body;

const cases = [
  { acceptEncoding: "gzip, deflate, br, zstd", expected: "br" },
  { acceptEncoding: "br", expected: "br" },
  { acceptEncoding: "gzip", expected: "gzip" },
  { acceptEncoding: "br;q=0, gzip", expected: "gzip" },
  { acceptEncoding: "identity", expected: undefined },
  { acceptEncoding: undefined, expected: undefined },
];

describe("static files are sent compressed by content negotiation", () => {
  it("the build step wrote a Brotli and a gzip copy of each text file, none of a tiny one", () => {
    expect(existsSync(path.join(distDir, "assets", "index-abc123.js.br"))).toBe(true);
    expect(existsSync(path.join(distDir, "assets", "index-abc123.js.gz"))).toBe(true);
    expect(existsSync(path.join(distDir, "index.html.br"))).toBe(true);
    expect(existsSync(path.join(distDir, "assets", "tiny-abc123.js.br"))).toBe(false);
  });

  for (const { acceptEncoding, expected } of cases) {
    it(`a hashed script asked with Accept-Encoding ${acceptEncoding ?? "(none)"} comes as ${expected ?? "identity"}, byte for byte the original`, async () => {
      const original = await readFile(path.join(distDir, "assets", "index-abc123.js"));
      const response = await app.inject({
        method: "GET",
        url: "/assets/index-abc123.js",
        headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {},
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-encoding"]).toBe(expected);
      expect(String(response.headers.vary).toLowerCase()).toContain("accept-encoding");
      expect(response.headers["content-type"]).toMatch(/javascript/);
      expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(Number(response.headers["content-length"])).toBe(response.rawPayload.length);
      if (expected) expect(response.rawPayload.length).toBeLessThan(original.length);
      expect(decode(expected, response.rawPayload).equals(original), "decompressed bytes equal the file").toBe(true);
    });

    it(`a client route asked with Accept-Encoding ${acceptEncoding ?? "(none)"} gets index.html as ${expected ?? "identity"}`, async () => {
      const response = await app.inject({
        method: "GET",
        url: "/dashboard",
        headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {},
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-encoding"]).toBe(expected);
      expect(String(response.headers.vary).toLowerCase()).toContain("accept-encoding");
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.headers["cache-control"]).toBe("no-cache");
      expect(Number(response.headers["content-length"])).toBe(response.rawPayload.length);
      expect(decode(expected, response.rawPayload).toString()).toBe(html);
    });
  }

  for (const { acceptEncoding, expected } of cases) {
    it(`a public page the build rendered is sent rendered, asked with Accept-Encoding ${acceptEncoding ?? "(none)"} as ${expected ?? "identity"}`, async () => {
      for (const [url, page] of [
        ["/login", loginSnapshot],
        ["/login/", loginSnapshot],
        ["/login?to=%2Fdashboard", loginSnapshot],
        ["/legal/terms", termsSnapshot],
      ] as const) {
        const response = await app.inject({
          method: "GET",
          url,
          headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {},
        });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers["content-encoding"], url).toBe(expected);
        expect(String(response.headers.vary).toLowerCase()).toContain("accept-encoding");
        expect(response.headers["cache-control"]).toBe("no-cache");
        expect(Number(response.headers["content-length"])).toBe(response.rawPayload.length);
        expect(decode(expected, response.rawPayload).toString(), url).toBe(page);
      }
    });
  }

  it("a path with no rendered page, or beside one, gets the bare index.html", async () => {
    for (const url of ["/dashboard", "/login/extra", "/legal", "/Login"]) {
      const response = await app.inject({ method: "GET", url, headers: { "accept-encoding": "identity" } });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(html);
    }
  });

  it("each variant has its own ETag, and a matching If-None-Match answers 304", async () => {
    const etags = new Set<string>();
    for (const url of ["/", "/assets/index-abc123.js"]) {
      for (const acceptEncoding of ["br", "gzip", "identity"]) {
        const first = await app.inject({ method: "GET", url, headers: { "accept-encoding": acceptEncoding } });
        const etag = String(first.headers.etag);
        expect(etag).not.toBe("undefined");
        etags.add(etag);
        const again = await app.inject({
          method: "GET",
          url,
          headers: { "accept-encoding": acceptEncoding, "if-none-match": etag },
        });
        expect(again.statusCode, `${url} with ${acceptEncoding}`).toBe(304);
      }
    }
    expect(etags.size).toBe(6);
  });

  it("a file too small to compress is sent as is, still with Vary", async () => {
    const response = await app.inject({
      method: "GET",
      url: "/assets/tiny-abc123.js",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(String(response.headers.vary).toLowerCase()).toContain("accept-encoding");
    expect(response.body).toBe("export const a = 1;\n");
  });

  it("the build's chunk report is neither compressed nor served", async () => {
    expect(existsSync(path.join(distDir, ".vite", "chunks.json.br"))).toBe(false);
    const response = await app.inject({ method: "GET", url: "/.vite/chunks.json" });
    expect(response.statusCode).toBe(404);
  });

  it("a missing hashed asset is a 404, not index.html", async () => {
    const response = await app.inject({
      method: "GET",
      url: "/assets/gone-123.js",
      headers: { "accept-encoding": "br" },
    });
    expect(response.statusCode).toBe(404);
  });
});

describe("negotiateEncoding", () => {
  it("prefers Brotli, then gzip, and honours q-values and *", () => {
    expect(negotiateEncoding("gzip, br")).toBe("br");
    expect(negotiateEncoding("br;q=0.5, gzip")).toBe("gzip");
    expect(negotiateEncoding("*")).toBe("br");
    expect(negotiateEncoding("*;q=0, gzip")).toBe("gzip");
    expect(negotiateEncoding("deflate")).toBe("identity");
    expect(negotiateEncoding(undefined)).toBe("identity");
  });
});
