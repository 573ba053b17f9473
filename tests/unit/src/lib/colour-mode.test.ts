// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import {
  COLOUR_MODE_STORAGE_KEY,
  type ColourModeEnvironment,
  ColourModeStore,
  DARK_SCHEME_QUERY,
  NO_TRANSITIONS_CSS,
} from "../../../../src/lib/colour-mode";

/** A matchMedia whose answer the test changes, firing "change" like a browser does. */
function fakeSystemScheme(dark: boolean) {
  const listeners = new Set<() => void>();
  const list = {
    media: DARK_SCHEME_QUERY,
    matches: dark,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  } as unknown as MediaQueryList;
  const matchMedia = vi.fn(() => list);
  return {
    matchMedia,
    listeners,
    set(nowDark: boolean) {
      (list as { matches: boolean }).matches = nowDark;
      for (const listener of listeners) listener();
    },
  };
}

let frames: (() => void)[] = [];
let stores: ColourModeStore[] = [];

function createStore(overrides: Partial<ColourModeEnvironment> = {}): ColourModeStore {
  const store = new ColourModeStore({
    storage: window.localStorage,
    matchMedia: null,
    document,
    requestAnimationFrame: (callback) => frames.push(callback),
    ...overrides,
  });
  stores.push(store);
  return store;
}

function noTransitionStyles(): HTMLStyleElement[] {
  return [...document.head.querySelectorAll("style")].filter((style) => style.textContent === NO_TRANSITIONS_CSS);
}

beforeEach(() => {
  localStorage.clear();
  document.documentElement.className = "";
  frames = [];
});

afterEach(() => {
  for (const store of stores) store.dispose();
  stores = [];
  for (const style of noTransitionStyles()) style.remove();
});

describe("preference", () => {
  it("is saved in localStorage under nuxt-color-mode", () => {
    expect(COLOUR_MODE_STORAGE_KEY).toBe("nuxt-color-mode");
    createStore().setPreference("dark");
    expect(localStorage.getItem("nuxt-color-mode")).toBe("dark");
  });

  it("is read back by the next store, as after a reload", () => {
    localStorage.setItem("nuxt-color-mode", "light");
    expect(createStore({ matchMedia: fakeSystemScheme(true).matchMedia }).getSnapshot()).toEqual({
      preference: "light",
      forced: null,
      resolved: "light",
    });
  });

  it("defaults to system when nothing or something unknown was saved", () => {
    expect(createStore().getSnapshot().preference).toBe("system");
    localStorage.setItem("nuxt-color-mode", "sepia");
    expect(createStore().getSnapshot().preference).toBe("system");
  });

  it("refuses an unknown preference", () => {
    expect(() => createStore().setPreference("sepia" as "dark")).toThrow(TypeError);
    expect(localStorage.getItem("nuxt-color-mode")).toBeNull();
  });

  it("still switches when storage refuses to save", () => {
    const storage = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException("quota", "QuotaExceededError");
      },
    };
    const store = createStore({ storage });
    store.setPreference("dark");
    expect(store.getSnapshot().resolved).toBe("dark");
  });
});

describe("system mode", () => {
  it("resolves with matchMedia('(prefers-color-scheme: dark)')", () => {
    const system = fakeSystemScheme(true);
    const store = createStore({ matchMedia: system.matchMedia });
    expect(system.matchMedia).toHaveBeenCalledWith("(prefers-color-scheme: dark)");
    expect(store.getSnapshot()).toEqual({ preference: "system", forced: null, resolved: "dark" });
  });

  it("follows the operating system live when its preference changes", () => {
    const system = fakeSystemScheme(false);
    const store = createStore({ matchMedia: system.matchMedia });
    const listener = vi.fn();
    store.subscribe(listener);
    system.set(true);
    expect(store.getSnapshot().resolved).toBe("dark");
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("ignores operating system changes while the user chose light or dark", () => {
    const system = fakeSystemScheme(false);
    const store = createStore({ matchMedia: system.matchMedia });
    store.setPreference("light");
    system.set(true);
    expect(store.getSnapshot().resolved).toBe("light");
  });

  it("stops listening to the operating system once disposed", () => {
    const system = fakeSystemScheme(false);
    createStore({ matchMedia: system.matchMedia }).dispose();
    expect(system.listeners.size).toBe(0);
  });

  it("resolves to light where matchMedia is missing", () => {
    expect(createStore({ matchMedia: null }).getSnapshot().resolved).toBe("light");
  });
});

describe("the document", () => {
  it("gets the class and color-scheme of the resolved mode", () => {
    const store = createStore();
    expect(document.documentElement.classList.contains("light")).toBe(true);
    store.setPreference("dark");
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    expect(document.documentElement.classList.contains("light")).toBe(false);
    expect(document.documentElement.style.colorScheme).toBe("dark");
  });

  it("has transitions disabled for one frame while the mode switches", () => {
    const store = createStore();
    expect(noTransitionStyles()).toHaveLength(0);
    store.setPreference("dark");
    expect(noTransitionStyles()).toHaveLength(1);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(noTransitionStyles()).toHaveLength(0);
  });

  it("does not touch transitions when the resolved mode stays the same", () => {
    const system = fakeSystemScheme(true);
    const store = createStore({ matchMedia: system.matchMedia });
    store.setPreference("dark");
    expect(noTransitionStyles()).toHaveLength(0);
    expect(frames).toHaveLength(0);
  });
});

describe("forced by a page", () => {
  it("overrides the preference with light or dark and releases it afterwards", () => {
    const store = createStore();
    store.setPreference("light");
    store.force("dark");
    expect(store.getSnapshot()).toEqual({ preference: "light", forced: "dark", resolved: "dark" });
    store.force(undefined);
    expect(store.getSnapshot()).toEqual({ preference: "light", forced: null, resolved: "light" });
  });

  it("does not save the forced mode as the user's preference", () => {
    createStore().force("dark");
    expect(localStorage.getItem("nuxt-color-mode")).toBeNull();
  });

  it("refuses 'system' with a console warning and ignores it", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const store = createStore();
    store.setPreference("dark");
    store.force("system");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/cannot force "system"/);
    expect(store.getSnapshot()).toEqual({ preference: "dark", forced: null, resolved: "dark" });
    warn.mockRestore();
  });

  it("refuses any other value with a console warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const store = createStore();
    store.force("sepia");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot().forced).toBeNull();
    warn.mockRestore();
  });
});
