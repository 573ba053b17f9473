/**
 * The image proxy's work (routes/image-proxy.ts checks the request): finding a source image under
 * its roots, converting it with sharp and keeping the result in the disk cache, keyed by the
 * modifiers, the path and the source's size and modification time.
 */
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { ImageModifiers } from "../../contracts/image-proxy";
import { notFound, Refusal } from "./errors";
import type { ImageCache } from "./image-cache";

/** Input formats converted; SVG included for our own icons and illustrations. */
const READABLE_FORMATS = new Set(["jpeg", "png", "webp", "avif", "gif", "tiff", "svg", "heif"]);

export const CONTENT_TYPES: Record<NonNullable<ImageModifiers["format"]>, string> = {
  webp: "image/webp",
  avif: "image/avif",
  jpeg: "image/jpeg",
  png: "image/png",
};

async function findSource(
  roots: string[],
  relative: string,
): Promise<{ file: string; size: number; mtimeMs: number } | null> {
  for (const root of roots) {
    const file = path.resolve(root, relative);
    if (!file.startsWith(root + path.sep)) continue;
    const info = await stat(file).catch(() => null);
    if (info?.isFile()) return { file, size: info.size, mtimeMs: info.mtimeMs };
  }
  return null;
}

const notAnImage = () =>
  new Refusal("unsupported_media", "Unsupported media type", "The file is not an image the proxy can convert");

async function convert(file: string, modifiers: ImageModifiers): Promise<Buffer> {
  const format = await sharp(file)
    .metadata()
    .then(
      (metadata) => metadata.format,
      () => undefined,
    );
  if (!format || !READABLE_FORMATS.has(format)) throw notAnImage();
  let pipeline = sharp(file, { animated: false }).rotate();
  if (modifiers.width !== undefined || modifiers.height !== undefined) {
    pipeline = pipeline.resize({
      width: modifiers.width,
      height: modifiers.height,
      fit: modifiers.fit ?? "cover",
      ...(modifiers.background !== undefined && { background: modifiers.background }),
      withoutEnlargement: true,
    });
  }
  // A file whose header reads as an image but whose body is broken fails only here.
  return pipeline
    .toFormat(modifiers.format ?? "webp", modifiers.quality !== undefined ? { quality: modifiers.quality } : {})
    .toBuffer()
    .catch(() => Promise.reject(notAnImage()));
}

/** The converted image `relative` names under the first root holding it, with its cache key (the ETag's source). */
export async function proxiedImage(
  roots: string[],
  cache: ImageCache,
  request: { modifiersSegment: string; modifiers: ImageModifiers; relative: string },
): Promise<{ key: string; format: NonNullable<ImageModifiers["format"]>; image: Buffer }> {
  const { modifiersSegment, modifiers, relative } = request;
  const source = await findSource(roots, relative);
  if (!source) throw notFound(`Image /${relative}`);
  const key = createHash("sha256")
    .update(JSON.stringify([modifiersSegment, relative, source.size, source.mtimeMs]))
    .digest("hex");
  const format = modifiers.format ?? "webp";
  const cached = `${key}.${format}`;
  let image = await cache.get(cached);
  if (!image) {
    image = await convert(source.file, modifiers);
    await cache.put(cached, image);
  }
  return { key, format, image };
}
