/**
 * The image proxy (URL format and screen widths in contracts/image-proxy.ts):
 *   GET /_ipx/<modifiers>/<path>
 * resizes and converts one of our own images with sharp and caches the result on disk.
 *
 * - Sources: the built SPA (its public folder ends up there) and `<data>/images` (images the
 *   portal stores), in that order. Nothing else under the data folder is reachable: a path with
 *   "." or ".." segments, or one resolving outside its root, is refused.
 * - Modifiers are taken only as the app writes them (one spelling per image, so one cache entry
 *   per image); anything else is 400. Width or height above 2 × the 2xl breakpoint (3072 px) is
 *   400: a bigger picture is never displayed and only costs memory and disk.
 * - A file sharp cannot read as an image is 415.
 * - Results live in `<data>/image-cache/`, named by a hash of the modifiers, the path and the
 *   source's size and modification time, so a replaced source is converted again. A result is
 *   written to a temporary file and renamed, so a reader never sees half an image. The folder is
 *   capped (IMAGE_CACHE_MAX_BYTES, IMAGE_CACHE_MAX_FILES), least recently used out
 *   (server/services/image-cache.ts).
 */

import path from "node:path";
import type { FastifyInstance } from "fastify";
import { IMAGE_PROXY_PREFIX, MAX_IMAGE_SIDE, parseModifierSegment } from "../../contracts/image-proxy";
import type { AppContext } from "../context";
import { badRequest } from "../errors";
import { bytesAnswer } from "../http/media";
import { ImageCache } from "../services/image-cache";
import { CONTENT_TYPES, proxiedImage } from "../services/image-proxy";

export async function imageProxyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const roots = [ctx.config.distDir, path.join(ctx.config.dataDir, "images")].filter((root): root is string =>
    Boolean(root),
  );
  const cache = new ImageCache(path.join(ctx.config.dataDir, "image-cache"), {
    maxBytes: ctx.config.imageCacheMaxBytes,
    maxFiles: ctx.config.imageCacheMaxFiles,
  });

  app.get<{ Params: { modifiers: string; "*": string } }>(
    `${IMAGE_PROXY_PREFIX}/:modifiers/*`,
    { config: { public: true, media: bytesAnswer({ types: Object.values(CONTENT_TYPES), attachment: false }) } },
    async (request, reply) => {
      const modifiers = parseModifierSegment(request.params.modifiers);
      if (!modifiers)
        throw badRequest(
          "Invalid image modifiers",
          `"${request.params.modifiers}" is not a modifier list the portal writes`,
        );
      for (const [name, value] of [
        ["Width", modifiers.width],
        ["Height", modifiers.height],
      ] as const) {
        if (value !== undefined && value > MAX_IMAGE_SIDE) {
          throw badRequest("Image too large", `${name} ${value} px is above the limit of ${MAX_IMAGE_SIDE} px`);
        }
      }
      const relative = request.params["*"];
      const segments = relative.split("/");
      if (relative === "" || segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
        throw badRequest("Invalid image path", "The path must name a file without '.' or '..' segments");
      }
      const { key, format, image } = await proxiedImage(roots, cache, {
        modifiersSegment: request.params.modifiers,
        modifiers,
        relative,
      });
      const etag = `"${key.slice(0, 32)}"`;
      // Sources can be replaced under the same URL: an hour of freshness, then revalidation by ETag.
      reply.header("ETag", etag).header("Cache-Control", "public, max-age=3600");
      if (request.headers["if-none-match"] === etag) return reply.status(304).send();
      return reply.type(CONTENT_TYPES[format]).send(image);
    },
  );
}
