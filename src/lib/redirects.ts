/**
 * Page-level redirects: for each route path the app looks up a redirect here before routing. This table is the one place they are listed.
 *
 * `redirectFor(path)` returns where to go instead, or null to route the path as it is. It also
 * normalises the path: trailing slashes are dropped ("/my-tunes/" → "/my-tunes") and runs of
 * slashes collapse to one, so "//evil.example/" can never come back as a protocol-relative URL
 * that would leave the site. A query string and a fragment are kept.
 */

export const PAGE_REDIRECTS: Readonly<Record<string, string>> = {
  "/admin": "/admin/users",
  "/tuning-tools": "/tuning-tools/tune-viewer",
  "/portal": "/dashboard",
};

export function redirectFor(path: string): string | null {
  const suffixStart = path.search(/[?#]/);
  const pathname = suffixStart === -1 ? path : path.slice(0, suffixStart);
  const suffix = suffixStart === -1 ? "" : path.slice(suffixStart);
  const normalised = pathname.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1") || "/";
  const target = PAGE_REDIRECTS[normalised] ?? normalised;
  return target === pathname ? null : target + suffix;
}
