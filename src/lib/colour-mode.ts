/**
 * Colour mode: the user's choice of light, dark or the system's mode.
 *
 * - The user's preference is 'system', 'light' or 'dark', saved in localStorage under
 *   `nuxt-color-mode` (the key of the original portal, so a returning user keeps the choice).
 *   A missing or unknown saved value means 'system'.
 * - 'system' follows `matchMedia('(prefers-color-scheme: dark)')` and updates live when the
 *   operating system's preference changes.
 * - A page may force 'light' or 'dark' through its route metadata (`force(mode)`, released with
 *   `force(undefined)`). Forcing 'system' at page level is refused with a console warning and
 *   ignored, as is any other value.
 * - The resolved mode is written to <html> as the class "light"/"dark" and `color-scheme`.
 *   While it switches, a style `*{transition:none!important}` is added for one animation frame,
 *   so colours change at once instead of animating from the old theme.
 *
 * `subscribe`/`getSnapshot` fit `useSyncExternalStore`; `useColourMode()` in
 * src/components/colour-mode-switch.tsx wraps the browser instance.
 */

export type ColourModePreference = "system" | "light" | "dark";
export type ColourMode = "light" | "dark";

export const COLOUR_MODE_STORAGE_KEY = "nuxt-color-mode";
export const DARK_SCHEME_QUERY = "(prefers-color-scheme: dark)";
export const NO_TRANSITIONS_CSS = "*,*::before,*::after{transition:none!important}";

export interface ColourModeSnapshot {
  readonly preference: ColourModePreference;
  /** The mode a page forces through its route metadata, if any. */
  readonly forced: ColourMode | null;
  readonly resolved: ColourMode;
}

export interface ColourModeEnvironment {
  storage: Pick<Storage, "getItem" | "setItem"> | null;
  matchMedia: ((query: string) => MediaQueryList) | null;
  document: Document;
  requestAnimationFrame: (callback: () => void) => unknown;
}

export function isColourModePreference(value: unknown): value is ColourModePreference {
  return value === "system" || value === "light" || value === "dark";
}

export class ColourModeStore {
  readonly #env: ColourModeEnvironment;
  readonly #query: MediaQueryList | null;
  readonly #listeners = new Set<() => void>();
  #snapshot: ColourModeSnapshot;

  readonly #onSystemChange = (): void => this.#refresh(this.#snapshot.preference, this.#snapshot.forced);

  constructor(env: ColourModeEnvironment) {
    this.#env = env;
    this.#query = env.matchMedia?.(DARK_SCHEME_QUERY) ?? null;
    this.#query?.addEventListener("change", this.#onSystemChange);
    const preference = this.#read();
    this.#snapshot = { preference, forced: null, resolved: this.#resolve(preference, null) };
    this.#apply(this.#snapshot.resolved);
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly getSnapshot = (): ColourModeSnapshot => this.#snapshot;

  setPreference(preference: ColourModePreference): void {
    if (!isColourModePreference(preference)) {
      throw new TypeError(`Unknown colour mode "${String(preference)}": expected system, light or dark.`);
    }
    try {
      this.#env.storage?.setItem(COLOUR_MODE_STORAGE_KEY, preference);
    } catch {
      // Storage can be full or blocked (private browsing); the choice still holds for this visit.
    }
    this.#refresh(preference, this.#snapshot.forced);
  }

  /** Applies a page's forced mode from its route metadata; `undefined`/`null` releases it. */
  force(mode: unknown): void {
    if (mode === undefined || mode === null) {
      this.#refresh(this.#snapshot.preference, null);
      return;
    }
    if (mode !== "light" && mode !== "dark") {
      console.warn(
        mode === "system"
          ? 'Colour mode: a page cannot force "system"; the user\'s choice applies.'
          : `Colour mode: a page cannot force "${String(mode)}"; expected light or dark.`,
      );
      this.#refresh(this.#snapshot.preference, null);
      return;
    }
    this.#refresh(this.#snapshot.preference, mode);
  }

  dispose(): void {
    this.#query?.removeEventListener("change", this.#onSystemChange);
    this.#listeners.clear();
  }

  #read(): ColourModePreference {
    try {
      const saved = this.#env.storage?.getItem(COLOUR_MODE_STORAGE_KEY);
      return isColourModePreference(saved) ? saved : "system";
    } catch {
      return "system";
    }
  }

  #resolve(preference: ColourModePreference, forced: ColourMode | null): ColourMode {
    if (forced) return forced;
    if (preference !== "system") return preference;
    return this.#query?.matches ? "dark" : "light";
  }

  #refresh(preference: ColourModePreference, forced: ColourMode | null): void {
    const resolved = this.#resolve(preference, forced);
    const previous = this.#snapshot;
    if (previous.preference === preference && previous.forced === forced && previous.resolved === resolved) return;
    this.#snapshot = { preference, forced, resolved };
    if (resolved !== previous.resolved) this.#switch(resolved);
    for (const listener of this.#listeners) listener();
  }

  #switch(mode: ColourMode): void {
    const { document } = this.#env;
    const style = document.createElement("style");
    style.textContent = NO_TRANSITIONS_CSS;
    document.head.appendChild(style);
    this.#apply(mode);
    // Reading a computed style makes the browser apply the new colours while transitions are off.
    document.defaultView?.getComputedStyle(document.body).getPropertyValue("color");
    this.#env.requestAnimationFrame(() => style.remove());
  }

  #apply(mode: ColourMode): void {
    const root = this.#env.document.documentElement;
    root.classList.remove(mode === "dark" ? "light" : "dark");
    root.classList.add(mode);
    root.style.colorScheme = mode;
  }
}

/** The environment of a real browser tab. */
export function browserColourModeEnvironment(): ColourModeEnvironment {
  let storage: Storage | null = null;
  try {
    storage = window.localStorage;
  } catch {
    // Access to localStorage throws when the browser blocks site data.
  }
  return {
    storage,
    matchMedia: typeof window.matchMedia === "function" ? (query) => window.matchMedia(query) : null,
    document: window.document,
    requestAnimationFrame: (callback) => window.requestAnimationFrame(callback),
  };
}
