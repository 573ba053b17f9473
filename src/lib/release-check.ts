/**
 * Release check: a tab notices a new release and picks it up on its next page change.
 *
 * The build writes `/build-manifest.json` as `{ buildId, builtAt }`. A started ReleaseCheck
 * reads it every 60 s and whenever the tab becomes visible or regains focus. Once the manifest
 * names a build other than the running one, `shouldFullReload()` is true: the shell then makes
 * the next navigation a full page load (`beforeFullReload()` and `location.assign(url)`) instead
 * of a client-side transition, so the user gets the new code without losing work mid-page.
 *
 * No reload loops: `beforeFullReload()` records in sessionStorage which build the reload was
 * for. If the page that comes back still runs older code (a stale cache, a CDN lagging behind
 * the manifest), that same build id no longer asks for a reload.
 *
 * `currentBuildId` is the id baked into the running bundle; in development, where there is
 * none, pass null and the first manifest read becomes the baseline. A manifest that cannot be
 * read (offline, 404 in development, bad JSON) changes nothing: the next poll tries again.
 */

export const RELEASE_MANIFEST_URL = "/build-manifest.json";
export const RELEASE_POLL_INTERVAL_MS = 60_000;
export const RELEASE_RELOADED_FOR_KEY = "release-check:reloaded-for";

export interface ReleaseManifest {
  buildId: string;
  builtAt: string;
}

export interface ReleaseCheckOptions {
  currentBuildId: string | null;
  url?: string;
  intervalMs?: number;
  fetch?: typeof globalThis.fetch;
  storage?: Pick<Storage, "getItem" | "setItem"> | null;
  /** Where "focus" is heard; the browser window by default. */
  window?: Pick<Window, "addEventListener" | "removeEventListener">;
  /** Where "visibilitychange" is heard; the browser document by default. */
  document?: Pick<Document, "addEventListener" | "removeEventListener" | "visibilityState">;
}

function parseManifest(value: unknown): ReleaseManifest | null {
  if (typeof value !== "object" || value === null) return null;
  const { buildId, builtAt } = value as Record<string, unknown>;
  if (typeof buildId !== "string" || buildId === "") return null;
  return { buildId, builtAt: typeof builtAt === "string" ? builtAt : "" };
}

export class ReleaseCheck {
  readonly #url: string;
  readonly #intervalMs: number;
  readonly #fetch: typeof globalThis.fetch;
  readonly #storage: Pick<Storage, "getItem" | "setItem"> | null;
  readonly #window: Pick<Window, "addEventListener" | "removeEventListener">;
  readonly #document: Pick<Document, "addEventListener" | "removeEventListener" | "visibilityState">;
  #baseline: string | null;
  #latest: ReleaseManifest | null = null;
  #interval: ReturnType<typeof setInterval> | undefined;
  #inFlight: Promise<void> | null = null;

  readonly #onFocus = (): void => void this.check();
  readonly #onVisibility = (): void => {
    if (this.#document.visibilityState === "visible") void this.check();
  };

  constructor(options: ReleaseCheckOptions) {
    this.#baseline = options.currentBuildId;
    this.#url = options.url ?? RELEASE_MANIFEST_URL;
    this.#intervalMs = options.intervalMs ?? RELEASE_POLL_INTERVAL_MS;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#storage = options.storage === undefined ? sessionStorageOrNull() : options.storage;
    this.#window = options.window ?? window;
    this.#document = options.document ?? document;
  }

  start(): void {
    if (this.#interval !== undefined) return;
    this.#interval = setInterval(() => void this.check(), this.#intervalMs);
    this.#window.addEventListener("focus", this.#onFocus);
    this.#document.addEventListener("visibilitychange", this.#onVisibility);
    void this.check();
  }

  stop(): void {
    clearInterval(this.#interval);
    this.#interval = undefined;
    this.#window.removeEventListener("focus", this.#onFocus);
    this.#document.removeEventListener("visibilitychange", this.#onVisibility);
  }

  /** Reads the manifest once; a read already under way is shared rather than repeated. */
  check(): Promise<void> {
    this.#inFlight ??= this.#read().finally(() => {
      this.#inFlight = null;
    });
    return this.#inFlight;
  }

  /** The newest manifest read so far. */
  latest(): ReleaseManifest | null {
    return this.#latest;
  }

  shouldFullReload(): boolean {
    const latest = this.#latest?.buildId;
    if (latest === undefined || this.#baseline === null || latest === this.#baseline) return false;
    return this.#reloadedFor() !== latest;
  }

  /** Call right before the full page load that `shouldFullReload()` asked for. */
  beforeFullReload(): void {
    const latest = this.#latest?.buildId;
    if (latest === undefined) return;
    try {
      this.#storage?.setItem(RELEASE_RELOADED_FOR_KEY, latest);
    } catch {
      // Without storage the loop guard is lost for this tab; the reload itself still helps.
    }
  }

  async #read(): Promise<void> {
    let manifest: ReleaseManifest | null;
    try {
      const response = await this.#fetch(this.#url, { cache: "no-store", headers: { accept: "application/json" } });
      if (!response.ok) return;
      manifest = parseManifest(await response.json());
    } catch {
      return;
    }
    if (!manifest) return;
    this.#latest = manifest;
    this.#baseline ??= manifest.buildId;
    // Once a new build is known there is nothing more to learn until the page reloads.
    if (this.shouldFullReload()) this.stop();
  }

  #reloadedFor(): string | null {
    try {
      return this.#storage?.getItem(RELEASE_RELOADED_FOR_KEY) ?? null;
    } catch {
      return null;
    }
  }
}

function sessionStorageOrNull(): Pick<Storage, "getItem" | "setItem"> | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}
