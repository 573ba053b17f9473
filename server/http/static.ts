import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config";

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
  };
}

/**
 * Serves the built SPA: hashed assets cached for a year, index.html (and so every client route)
 * never cached so a new release is picked up.
 */
export async function serveSpa(app: FastifyInstance, config: Config): Promise<boolean> {
  const indexPath = config.distDir ? path.join(config.distDir, "index.html") : "";
  if (!config.distDir || !existsSync(indexPath)) return false;
  const indexHtml = readFileSync(indexPath);
  await app.register(fastifyStatic, {
    root: config.distDir,
    index: false,
    wildcard: false,
    cacheControl: false,
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  app.decorate("spaIndex", indexHtml);
  return true;
}
