/**
 * Which pages stay alive: the current page is kept alive when switching pages.
 *
 * Pages are kept by key, most recently used last; the last entry is the page on screen. The key
 * is the pathname, unless `keyOf` groups pathnames that are one page (a list and the drawers
 * opened over it on routes of their own: moving between them moves within one page).
 * `visit(entries, location, options)` returns the entries after the app arrives at `location`:
 * - a pathname seen before comes back as it was left (its scroll, filters, half-typed form);
 * - pages whose route says not to be kept (`keep(pathname)` false: /profile) are dropped as soon
 *   as another page is shown, so they mount afresh next time;
 * - at most `limit` pages are kept (KEEP_ALIVE_LIMIT, 10): each one holds its DOM, its queries
 *   and its subscriptions, and ten covers the pages a person switches between in one task.
 *   The least recently used goes first, never the page on screen.
 *
 * Kept pages belong to the person signed in (`changeOwner`): when someone else signs in or out,
 * the hidden pages go. The page on screen stays while it is shown (the sign-in or sign-out
 * happened there and it is about to move on); once left it is kept only if nobody was signed in
 * to it, since then it holds nothing of anyone's (the sign-in page itself).
 *
 * The query string follows the URL: a list synced with the location keeps its filters in the
 * search. Arriving without a query at a page that was left with one restores that query
 * (`restore`: the caller replaces the URL with it, keeping the pathname it arrived at), so the
 * menu link to a filtered list shows it filtered as it was left. Arriving with a different query (a shared link) starts the page
 * afresh from that URL.
 */

export const KEEP_ALIVE_LIMIT = 10;

export interface PageLocation {
  pathname: string;
  search: string;
}

export interface KeptPage<L extends PageLocation> {
  key: string;
  /** The location the page renders with: its own, not the one on screen, while hidden. */
  location: L;
  /** Grows when a page is started afresh under the same pathname: mount it anew. */
  generation: number;
  /** Shown to someone who has since signed out: dropped as soon as another page is shown. */
  disposable?: true;
}

export interface KeepAliveOptions {
  /** False for pages mounted afresh on every visit; called with the key. */
  keep: (key: string) => boolean;
  /** The page a pathname belongs to; the pathname itself by default. */
  keyOf?: (pathname: string) => string;
  limit?: number;
}

export interface Visit<L extends PageLocation> {
  entries: KeptPage<L>[];
  /** A location to replace the URL with, when a page's own query was restored. */
  restore: L | null;
}

export function visit<L extends PageLocation>(
  entries: readonly KeptPage<L>[],
  location: L,
  options: KeepAliveOptions,
): Visit<L> {
  const limit = options.limit ?? KEEP_ALIVE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`Keep-alive limit must be a positive integer, got ${limit}.`);
  const key = options.keyOf?.(location.pathname) ?? location.pathname;
  const active = entries.at(-1);
  if (active?.key === key) return { entries: [...entries.slice(0, -1), { ...active, location }], restore: null };

  const kept = entries.filter((entry) => entry.key !== key && !entry.disposable && options.keep(entry.key));
  const previous = entries.find((entry) => entry.key === key);
  let entry: KeptPage<L>;
  let restore: L | null = null;
  if (!previous) entry = { key, location, generation: 0 };
  else if (location.search === "" && previous.location.search !== "") {
    restore = { ...location, search: previous.location.search };
    entry = { ...previous, location: restore };
  } else if (location.search === previous.location.search) entry = { ...previous, location };
  else entry = { key, location, generation: previous.generation + 1 };
  const next = [...kept, entry];
  return { entries: next.slice(Math.max(0, next.length - limit)), restore };
}

/** Someone else signed in or out; `signedOut` when the pages so far belonged to a signed-in user. */
export function changeOwner<L extends PageLocation>(
  entries: readonly KeptPage<L>[],
  signedOut: boolean,
): KeptPage<L>[] {
  const active = entries.at(-1);
  if (!active) return [];
  return [signedOut ? { ...active, disposable: true } : active];
}
