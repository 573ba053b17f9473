// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import {
  ColourModeSwitch,
  colourModeStore,
  useColourMode,
  useForcedColourMode,
} from "../../../../src/components/colour-mode-switch";

// jsdom has no matchMedia; this one lets the test play the operating system.
const systemListeners = new Set<() => void>();
const systemScheme = { matches: false };
window.matchMedia = (query: string) =>
  ({
    media: query,
    get matches() {
      return systemScheme.matches;
    },
    addEventListener: (_: string, listener: () => void) => systemListeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => systemListeners.delete(listener),
  }) as unknown as MediaQueryList;

function setSystemDark(dark: boolean): void {
  act(() => {
    systemScheme.matches = dark;
    for (const listener of systemListeners) listener();
  });
}

function ResolvedMode() {
  return <output aria-label="resolved">{useColourMode().resolved}</output>;
}

function ForcingPage({ mode }: { mode: unknown }) {
  useForcedColourMode(mode);
  return null;
}

beforeEach(() => {
  systemScheme.matches = false;
  act(() => colourModeStore().setPreference("system"));
});

afterEach(() => {
  cleanup();
});

describe("ColourModeSwitch", () => {
  it("offers System, Light and Dark with the saved choice selected", () => {
    render(<ColourModeSwitch />);
    const group = screen.getByRole("radiogroup", { name: "Colour mode" });
    expect(group).toBeTruthy();
    expect((screen.getByRole("radio", { name: "System" }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole("radio", { name: "Light" })).toBeTruthy();
    expect(screen.getByRole("radio", { name: "Dark" })).toBeTruthy();
  });

  it("switches to dark, saves it under nuxt-color-mode and marks the document", () => {
    render(
      <>
        <ColourModeSwitch />
        <ResolvedMode />
      </>,
    );
    fireEvent.click(screen.getByRole("radio", { name: "Dark" }));
    expect(localStorage.getItem("nuxt-color-mode")).toBe("dark");
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    expect(screen.getByRole("status", { name: "resolved" }).textContent).toBe("dark");
    expect((screen.getByRole("radio", { name: "Dark" }) as HTMLInputElement).checked).toBe(true);
  });

  it("follows the operating system live in system mode", () => {
    render(<ResolvedMode />);
    expect(screen.getByRole("status", { name: "resolved" }).textContent).toBe("light");
    setSystemDark(true);
    expect(screen.getByRole("status", { name: "resolved" }).textContent).toBe("dark");
  });

  it("is disabled while a page forces a mode, which is released when the page goes", () => {
    act(() => colourModeStore().setPreference("dark"));
    const { rerender } = render(
      <>
        <ColourModeSwitch />
        <ResolvedMode />
        <ForcingPage mode="light" />
      </>,
    );
    expect(screen.getByRole("status", { name: "resolved" }).textContent).toBe("light");
    expect((screen.getByRole("radio", { name: "Dark" }) as HTMLInputElement).disabled).toBe(true);
    rerender(
      <>
        <ColourModeSwitch />
        <ResolvedMode />
      </>,
    );
    expect(screen.getByRole("status", { name: "resolved" }).textContent).toBe("dark");
    expect((screen.getByRole("radio", { name: "Dark" }) as HTMLInputElement).disabled).toBe(false);
  });

  it("refuses a page forcing 'system' with a console warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    act(() => colourModeStore().setPreference("dark"));
    render(
      <>
        <ResolvedMode />
        <ForcingPage mode="system" />
      </>,
    );
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/cannot force "system"/));
    expect(screen.getByRole("status", { name: "resolved" }).textContent).toBe("dark");
    warn.mockRestore();
  });
});
