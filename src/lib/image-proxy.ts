/**
 * Image proxy URLs: resized images at the densities, format and screen widths below.
 *
 * URL shape, shared with the server route that resizes and caches (the IPX convention of the
 * original portal), in contracts/image-proxy.ts:
 *   /_ipx/<modifiers>/<path without its leading slash>
 *
 * Paths are given unencoded; each segment is percent-encoded here.
 * Only site paths ("/images/car.jpg") are accepted: the proxy serves our own images, and a
 * path with ".." or a full URL throws rather than produce a URL the server would refuse.
 *
 * Helpers: `imageUrl` (one URL), `densitySrcset` (1x and 2x), `sizes` (a `sizes` attribute from
 * Tailwind-style breakpoints, mobile first), `responsiveSrcset` (width descriptors for every
 * breakpoint at 1x and 2x).
 */
import { BREAKPOINTS, IMAGE_PROXY_PREFIX, type ImageModifiers, modifierSegment } from "../../contracts/image-proxy";

export type { ImageFit, ImageFormat, ImageModifiers } from "../../contracts/image-proxy";
export { BREAKPOINTS, DEFAULT_IMAGE_FORMAT, IMAGE_PROXY_PREFIX } from "../../contracts/image-proxy";

export const IMAGE_DENSITIES = [1, 2] as const;

export type Breakpoint = keyof typeof BREAKPOINTS;

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
  const active = [...ORDER]
    .reverse()
    .find((breakpoint) => spec[breakpoint] !== undefined && screenWidth >= BREAKPOINTS[breakpoint]);
  const size = (active ? spec[active] : spec.default) ?? "100vw";
  const amount = Number.parseFloat(size);
  return Math.ceil(size.endsWith("vw") ? (screenWidth * amount) / 100 : amount);
}

/** Width descriptors ("url 640w, …") covering every breakpoint at every density, smallest first. */
export function responsiveSrcset(
  path: string,
  spec: SizesSpec,
  modifiers: Omit<ImageModifiers, "width" | "height"> = {},
): string {
  const widths = new Set<number>();
  for (const breakpoint of ORDER) {
    for (const density of IMAGE_DENSITIES) widths.add(displayedWidth(spec, BREAKPOINTS[breakpoint]) * density);
  }
  return [...widths]
    .sort((a, b) => a - b)
    .map((width) => `${imageUrl(path, { ...modifiers, width })} ${width}w`)
    .join(", ");
}
