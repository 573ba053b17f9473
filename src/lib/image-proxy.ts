/**
 * Image proxy URLs (spec §7 "Image proxy", §9 densities, format and screen widths).
 *
 * URL shape, shared with the server route that resizes and caches (the IPX convention of the
 * original portal):
 *   /_ipx/<modifiers>/<path without its leading slash>
 * where <modifiers> is `key_value` pairs joined by "&" in the fixed order
 *   w (width) · h (height) · q (quality) · f (format) · fit · b (background, hex without "#")
 * e.g. /_ipx/w_320&h_200&q_80&f_webp&fit_cover/images/car.jpg. The format defaults to webp, so
 * there is always at least one modifier.
 *
 * Paths are given unencoded; each segment is percent-encoded here.
 * Only site paths ("/images/car.jpg") are accepted: the proxy serves our own images, and a
 * path with ".." or a full URL throws rather than produce a URL the server would refuse.
 *
 * Helpers: `imageUrl` (one URL), `densitySrcset` (1x and 2x), `sizes` (a `sizes` attribute from
 * Tailwind-style breakpoints, mobile first), `responsiveSrcset` (width descriptors for every
 * breakpoint at 1x and 2x).
 */

export const IMAGE_PROXY_PREFIX = "/_ipx";
export const IMAGE_DENSITIES = [1, 2] as const;
export const DEFAULT_IMAGE_FORMAT = "webp";
export const BREAKPOINTS = { xs: 320, sm: 640, md: 768, lg: 1024, xl: 1280, "2xl": 1536 } as const;

export type Breakpoint = keyof typeof BREAKPOINTS;
export type ImageFormat = "webp" | "avif" | "jpeg" | "png";
export type ImageFit = "cover" | "contain" | "fill" | "inside" | "outside";

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

const FORMATS: readonly string[] = ["webp", "avif", "jpeg", "png"];
const FITS: readonly string[] = ["cover", "contain", "fill", "inside", "outside"];

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`Image ${name} must be a positive integer, got ${value}.`);
  return value;
}

function modifierSegment(modifiers: ImageModifiers): string {
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
  if (!FORMATS.includes(format)) throw new RangeError(`Unknown image format "${format}".`);
  parts.push(`f_${format}`);
  if (modifiers.fit !== undefined) {
    if (!FITS.includes(modifiers.fit)) throw new RangeError(`Unknown image fit "${modifiers.fit}".`);
    parts.push(`fit_${modifiers.fit}`);
  }
  if (modifiers.background !== undefined) {
    const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(modifiers.background);
    if (!match) throw new RangeError(`Image background must be a hex colour, got "${modifiers.background}".`);
    parts.push(`b_${match[1].toLowerCase()}`);
  }
  return parts.join("&");
}

function sourcePath(path: string): string {
  if (!path.startsWith("/") || path.startsWith("//")) {
    throw new RangeError(`Image path must be a site path starting with "/", got "${path}".`);
  }
  const segments = path.slice(1).split("/");
  if (segments.some((segment) => segment === ".." || segment === ".")) {
    throw new RangeError(`Image path must not contain "." or ".." segments, got "${path}".`);
  }
  return segments.map(encodeURIComponent).join("/");
}

export function imageUrl(path: string, modifiers: ImageModifiers = {}): string {
  return `${IMAGE_PROXY_PREFIX}/${modifierSegment(modifiers)}/${sourcePath(path)}`;
}

function scaled(modifiers: ImageModifiers, factor: number): ImageModifiers {
  return {
    ...modifiers,
    width: modifiers.width === undefined ? undefined : modifiers.width * factor,
    height: modifiers.height === undefined ? undefined : modifiers.height * factor,
  };
}

/** "url 1x, url 2x" with width and height doubled for the 2x entry. */
export function densitySrcset(path: string, modifiers: ImageModifiers = {}): string {
  if (modifiers.width === undefined && modifiers.height === undefined) {
    throw new RangeError("A density srcset needs a width or a height to scale.");
  }
  return IMAGE_DENSITIES.map((density) => `${imageUrl(path, scaled(modifiers, density))} ${density}x`).join(", ");
}

/** How wide the image is shown: from a breakpoint up (mobile first), "default" below them all. */
export type SizesSpec = Partial<Record<Breakpoint | "default", `${number}vw` | `${number}px`>>;

const ORDER: readonly Breakpoint[] = ["xs", "sm", "md", "lg", "xl", "2xl"];

/** e.g. { default: "100vw", md: "50vw", xl: "400px" } → "(min-width: 1280px) 400px, (min-width: 768px) 50vw, 100vw". */
export function sizes(spec: SizesSpec): string {
  const rules = [...ORDER]
    .reverse()
    .filter((breakpoint) => spec[breakpoint] !== undefined)
    .map((breakpoint) => `(min-width: ${BREAKPOINTS[breakpoint]}px) ${spec[breakpoint]}`);
  return [...rules, spec.default ?? "100vw"].join(", ");
}

/** The displayed width at a screen width, following `spec` as `sizes` does. */
function displayedWidth(spec: SizesSpec, screenWidth: number): number {
  const active = [...ORDER].reverse().find((breakpoint) => spec[breakpoint] !== undefined && screenWidth >= BREAKPOINTS[breakpoint]);
  const size = (active ? spec[active] : spec.default) ?? "100vw";
  const amount = Number.parseFloat(size);
  return Math.ceil(size.endsWith("vw") ? (screenWidth * amount) / 100 : amount);
}

/** Width descriptors ("url 640w, …") covering every breakpoint at every density, smallest first. */
export function responsiveSrcset(path: string, spec: SizesSpec, modifiers: Omit<ImageModifiers, "width" | "height"> = {}): string {
  const widths = new Set<number>();
  for (const breakpoint of ORDER) {
    for (const density of IMAGE_DENSITIES) widths.add(displayedWidth(spec, BREAKPOINTS[breakpoint]) * density);
  }
  return [...widths]
    .sort((a, b) => a - b)
    .map((width) => `${imageUrl(path, { ...modifiers, width })} ${width}w`)
    .join(", ");
}
