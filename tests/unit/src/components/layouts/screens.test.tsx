// @vitest-environment jsdom
import { act, cleanup, render } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SnapshotScreen, useGutter, useScreens } from "../../../../../src/components/layouts/snapshot-screen";

/** A window `width` px wide whose media queries can be resized; counts what listens. */
function fakeWindow(width: number) {
  const lists: Array<{ min: number; listeners: Set<() => void>; readonly matches: boolean }> = [];
  const state = { width };
  vi.stubGlobal("matchMedia", (query: string) => {
    const min = Number(/min-width: (\d+)px/.exec(query)?.[1]);
    const list = {
      min,
      listeners: new Set<() => void>(),
      get matches() {
        return state.width >= min;
      },
      addEventListener: (_: string, listener: () => void) => list.listeners.add(listener),
      removeEventListener: (_: string, listener: () => void) => list.listeners.delete(listener),
    };
    lists.push(list);
    return list;
  });
  return {
    resize(to: number) {
      state.width = to;
      for (const list of lists) for (const listener of list.listeners) listener();
    },
    listening: () => lists.reduce((n, list) => n + list.listeners.size, 0),
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Probe({ seen }: { seen: string[] }) {
  const screens = useScreens();
  const [horizontal] = useGutter([{ xs: 16, lg: 48 }, 24]);
  seen.push(
    `${Object.entries(screens)
      .filter(([, on]) => on)
      .map(([name]) => name)
      .join(",")} gutter ${horizontal}`,
  );
  return null;
}

describe("useScreens", () => {
  it("knows a phone's breakpoints at the first render: the page renders once, not wide and then again narrow", () => {
    fakeWindow(412);
    const seen: string[] = [];
    render(<Probe seen={seen} />);
    expect(seen).toEqual(["xs gutter 16"]);
  });

  it("tells antd's breakpoints as Grid.useBreakpoint does, and follows the window", () => {
    const window = fakeWindow(1280);
    const seen: string[] = [];
    const { unmount } = render(<Probe seen={seen} />);
    expect(seen.at(-1)).toBe("sm,md,lg,xl gutter 48");
    act(() => window.resize(800));
    expect(seen.at(-1)).toBe("sm,md gutter 0");
    act(() => window.resize(2000));
    expect(seen.at(-1)).toBe("sm,md,lg,xl,xxl gutter 48");
    unmount();
    expect(window.listening()).toBe(0);
  });

  it("stands for the snapshot's screen where there is no window (the build's render)", () => {
    vi.stubGlobal("window", undefined);
    const narrow: string[] = [];
    const wide: string[] = [];
    renderToString(
      <SnapshotScreen.Provider value="narrow">
        <Probe seen={narrow} />
      </SnapshotScreen.Provider>,
    );
    renderToString(
      <SnapshotScreen.Provider value="wide">
        <Probe seen={wide} />
      </SnapshotScreen.Provider>,
    );
    expect([narrow, wide]).toEqual([["xs gutter 16"], ["sm,md,lg gutter 48"]]);
  });
});

describe("Grid.useBreakpoint, as Refine's layout, sider and list hooks read it", () => {
  it("answers a phone's breakpoints at the first render, so Refine's sider draws the phone's drawer without first mounting the desktop menu", async () => {
    fakeWindow(375);
    const { Grid } = await import("antd");
    await import("../../../../../src/components/layouts/refine-breakpoints");
    const seen: Array<boolean | undefined> = [];
    function RefineLike() {
      // As Refine's ThemedSider decides: `isMobile = typeof breakpoint.lg === "undefined" ? false : !breakpoint.lg`.
      seen.push(Grid.useBreakpoint().lg);
      return null;
    }
    render(<RefineLike />);
    expect(seen).toEqual([false]);
  });
});
