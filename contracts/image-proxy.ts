/**
 * The image proxy's URL format, shared by the app that builds the URLs (src/lib/image-proxy.ts)
 * and the server that answers them (server/routes/image-proxy.ts):
 *   /_ipx/<modifiers>/<path without its leading slash>
 * where <modifiers> is `key_value` pairs joined by "&" in the fixed order
 *   w (width) · h (height) · q (quality) · f (format) · fit · b (background, hex without "#")
 * e.g. /_ipx/w_320&h_200&q_80&f_webp&fit_cover/images/car.jpg. The format defaults to webp, so
 * there is always at least one modifier. The server takes exactly what `modifierSegment`
 * writes: one spelling per image, so one cache entry per image.
 */

export const IMAGE_PROXY_PREFIX = "/_ipx";
export const DEFAULT_IMAGE_FORMAT = "webp";
/** The screen widths images are made for; the server refuses images wider or taller than twice the largest. */
export const BREAKPOINTS = { xs: 320, sm: 640, md: 768, lg: 1024, xl: 1280, "2xl": 1536 } as const;
export const MAX_IMAGE_SIDE = 2 * BREAKPOINTS["2xl"];

export const IMAGE_FORMATS = ["webp", "avif", "jpeg", "png"] as const;
export const IMAGE_FITS = ["cover", "contain", "fill", "inside", "outside"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export type ImageFit = (typeof IMAGE_FITS)[number];

export interface ImageModifiers {
  width?: number;
  height?: number;
  /** 1 to 100. */
  quality?: number;
  format?: ImageFormat;
  fit?: ImageFit;
  /** A hex colour such as "#ffffff", used by fit "contain" for the padding. */
  background?: string;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0)
    throw new RangeError(`Image ${name} must be a positive integer, got ${value}.`);
  return value;
}

export function modifierSegment(modifiers: ImageModifiers): string {
  const parts: string[] = [];
  if (modifiers.width !== undefined) parts.push(`w_${positiveInteger("width", modifiers.width)}`);
  if (modifiers.height !== undefined) parts.push(`h_${positiveInteger("height", modifiers.height)}`);
  if (modifiers.quality !== undefined) {
    if (!Number.isInteger(modifiers.quality) || modifiers.quality < 1 || modifiers.quality > 100) {
      throw new RangeError(`Image quality must be an integer from 1 to 100, got ${modifiers.quality}.`);
    }
    parts.push(`q_${modifiers.quality}`);
  }
  const format = modifiers.format ?? DEFAULT_IMAGE_FORMAT;
  if (!(IMAGE_FORMATS as readonly string[]).includes(format)) throw new RangeError(`Unknown image format "${format}".`);
  parts.push(`f_${format}`);
  if (modifiers.fit !== undefined) {
    if (!(IMAGE_FITS as readonly string[]).includes(modifiers.fit))
      throw new RangeError(`Unknown image fit "${modifiers.fit}".`);
    parts.push(`fit_${modifiers.fit}`);
  }
  if (modifiers.background !== undefined) {
    const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(modifiers.background);
    if (!match) throw new RangeError(`Image background must be a hex colour, got "${modifiers.background}".`);
    parts.push(`b_${match[1].toLowerCase()}`);
  }
  return parts.join("&");
}

const SEGMENT = new RegExp(
  `^(?:w_([1-9]\\d*)&)?(?:h_([1-9]\\d*)&)?(?:q_([1-9]\\d*)&)?f_(${IMAGE_FORMATS.join("|")})` +
    `(?:&fit_(${IMAGE_FITS.join("|")}))?(?:&b_([0-9a-f]{3}|[0-9a-f]{6}))?$`,
);

/** The modifiers of a segment `modifierSegment` wrote, or null for any other spelling. */
export function parseModifierSegment(segment: string): ImageModifiers | null {
  const match = SEGMENT.exec(segment);
  if (!match) return null;
  const [, width, height, quality, format, fit, background] = match;
  const modifiers: ImageModifiers = {
    ...(width !== undefined && { width: Number(width) }),
    ...(height !== undefined && { height: Number(height) }),
    ...(quality !== undefined && { quality: Number(quality) }),
    format: format as ImageFormat,
    ...(fit !== undefined && { fit: fit as ImageFit }),
    ...(background !== undefined && { background: `#${background}` }),
  };
  if (modifiers.quality !== undefined && modifiers.quality > 100) return null;
  return modifiers;
}
