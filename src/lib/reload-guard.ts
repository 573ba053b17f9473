/**
 * Chunk-load reload guard: a failed chunk load triggers one page reload, allowed once per 10 s
 * per path.
 *
 * After a deployment, an open tab may ask for a code chunk that no longer exists. Reloading
 * fetches the new build; but if the chunk is missing for another reason the reload would fail
 * the same way, forever. So `decideChunkReload(path)` answers 'reload' at most once per 10 s per
 * path, remembering the time in sessionStorage (which survives the reload but not the tab), and
 * 'show-error' for a second failure inside that window. When sessionStorage cannot be used the
 * guard cannot remember, so it answers 'show-error' rather than risk a reload loop.
 *
 * The shell calls it through the error state (src/lib/error-state.ts) when the page being shown
 * fails to load its code: React.lazy rejects into the app's error boundary. Vite's
 * "vite:preloadError" event is not used for it, because it fires for link preloads too.
 */

export const RELOAD_GUARD_WINDOW_MS = 10_000;
export const RELOAD_GUARD_STORAGE_KEY = "chunk-reload-guard";

export type ChunkReloadDecision = "reload" | "show-error";

export interface ReloadGuardOptions {
  storage?: Pick<Storage, "getItem" | "setItem"> | null;
  now?: number;
}

function defaultStorage(): Pick<Storage, "getItem" | "setItem"> | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export function decideChunkReload(path: string, options: ReloadGuardOptions = {}): ChunkReloadDecision {
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const now = options.now ?? Date.now();
  if (!storage) return "show-error";
  try {
    const reloads = readReloads(storage.getItem(RELOAD_GUARD_STORAGE_KEY));
    const last = reloads[path];
    if (last !== undefined && now - last < RELOAD_GUARD_WINDOW_MS && now >= last) return "show-error";
    reloads[path] = now;
    storage.setItem(RELOAD_GUARD_STORAGE_KEY, JSON.stringify(reloads));
    return "reload";
  } catch {
    return "show-error";
  }
}

function readReloads(raw: string | null): Record<string, number> {
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === "number"),
    );
  } catch {
    return {};
  }
}

/** Whether an error is the browser's report of a dynamic import that could not be fetched. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  );
}
