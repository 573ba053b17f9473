import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config";

/**
 * Where the browser reads the identity service's password policy (`GET v2/passwordPolicy`, the one
 * the web SDK's validatePassword reads), or null where there is none: the Auth emulator answers
 * that endpoint 501, which the browser would log as a failed request on every page with a new
 * password. With null the app asks nothing and keeps the portal's own rules, which are all the
 * emulator enforces.
 */
export function passwordPolicyUrl(config: Pick<Config, "authEmulatorHost" | "webApiKey">): string | null {
  if (config.authEmulatorHost) return null;
  return `https://identitytoolkit.googleapis.com/v2/passwordPolicy?key=${encodeURIComponent(config.webApiKey)}`;
}

/** Runtime configuration for the SPA: read at start-up by the browser, never baked into the build. */
export function webConfig(config: Config) {
  return {
    releaseApiBaseUrl: config.releaseApiBaseUrl,
    firebase: {
      apiKey: config.webApiKey,
      authDomain: `${config.projectId}.firebaseapp.com`,
      projectId: config.projectId,
    },
    authEmulatorUrl: config.authEmulatorHost ? `http://${config.authEmulatorHost}` : null,
    passwordPolicyUrl: passwordPolicyUrl(config),
  };
}

export type ContentCoding = "br" | "gzip" | "identity";

/**
 * The coding to send for an Accept-Encoding header among those available: Brotli before gzip before
 * none, honouring q-values (`q=0` refuses a coding; `*` stands for any coding not named).
 */
export function negotiateEncoding(
  header: string | undefined,
  available: readonly ContentCoding[] = ["br", "gzip"],
): ContentCoding {
  if (!header) return "identity";
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (coding: string) => q.get(coding) ?? q.get("*") ?? 0;
  let best: ContentCoding = "identity";
  let bestQ = 0;
  for (const coding of available) {
    const w = weight(coding);
    if (w > bestQ) {
      best = coding;
      bestQ = w;
    }
  }
  return best;
}

interface Variant {
  body: Buffer;
  etag: string;
}

/**
 * An HTML page in every coding, each with its own ETag, held in memory from start-up: the build's
 * `.br` and `.gz` copies when it wrote them (the snapshots), else compressed here (index.html is a few KB).
 */
function pageVariants(file: string): Record<ContentCoding, Variant> {
  const variant = (body: Buffer, coding: ContentCoding): Variant => ({
    body,
    etag: `"${createHash("sha1").update(body).digest("base64url").slice(0, 22)}${coding === "identity" ? "" : `-${coding}`}"`,
  });
  const html = readFileSync(file);
  const copy = (suffix: string, make: () => Buffer) =>
    existsSync(file + suffix) ? readFileSync(file + suffix) : make();
  return {
    identity: variant(html, "identity"),
    br: variant(
      copy(".br", () => brotliCompressSync(html)),
      "br",
    ),
    gzip: variant(
      copy(".gz", () => gzipSync(html, { level: 9 })),
      "gzip",
    ),
  };
}

/** The public pages the build rendered into HTML (scripts/lib/prerender.ts), by path: `pages/login.html` is `/login`. */
function snapshotVariants(distDir: string): Map<string, Record<ContentCoding, Variant>> {
  const pages = new Map<string, Record<ContentCoding, Variant>>();
  const root = path.join(distDir, "pages");
  if (!existsSync(root)) return pages;
  for (const entry of readdirSync(root, { recursive: true, encoding: "utf8" })) {
    if (!entry.endsWith(".html")) continue;
    const route = `/${entry.slice(0, -".html".length).split(path.sep).join("/")}`;
    pages.set(route === "/index" ? "/" : route, pageVariants(path.join(root, entry)));
  }
  return pages;
}

/**
 * Serves the built SPA: hashed assets cached for a year, index.html (and so every client route)
 * never cached so a new release is picked up. The build writes `.br` and `.gz` copies beside each
 * text file (vite.config.ts); the variant sent follows Accept-Encoding (Brotli, then gzip, then
 * none) with `Vary: Accept-Encoding`, and its own Content-Length and ETag.
 */
export async function serveSpa(app: FastifyInstance, config: Config): Promise<boolean> {
  const indexPath = config.distDir ? path.join(config.distDir, "index.html") : "";
  if (!config.distDir || !existsSync(indexPath)) return false;
  const index = pageVariants(indexPath);
  const snapshots = snapshotVariants(config.distDir);
  await app.register(fastifyStatic, {
    root: config.distDir,
    index: false,
    wildcard: false,
    cacheControl: false,
    preCompressed: true,
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  app.decorate("spaIndex", (request: FastifyRequest, reply: FastifyReply) => {
    const coding = negotiateEncoding(request.headers["accept-encoding"]);
    // A public page the build rendered is sent already rendered; every other route gets the bare index.html.
    const pathname = request.url.split("?")[0].replace(/(.)\/+$/, "$1");
    const variant = (snapshots.get(pathname) ?? index)[coding];
    reply
      .header("Cache-Control", "no-cache")
      .header("Vary", "Accept-Encoding")
      .header("ETag", variant.etag)
      .type("text/html; charset=utf-8");
    if (coding !== "identity") reply.header("Content-Encoding", coding);
    const inm = request.headers["if-none-match"];
    if (inm?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === variant.etag)) return reply.code(304).send();
    return reply.header("Content-Length", variant.body.length).send(variant.body);
  });
  return true;
}
