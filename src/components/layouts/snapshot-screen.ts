import { theme } from "antd";
import { createContext, useContext, useMemo, useSyncExternalStore } from "react";

/**
 * The screen a page is rendered for when there is none: the build renders the public pages' snapshots
 * once narrow and once wide (scripts/lib/prerender.ts), where the browser would measure the window.
 * Undefined in the browser.
 */
export const SnapshotScreen = createContext<"narrow" | "wide" | undefined>(undefined);

type Breakpoint = "xs" | "sm" | "md" | "lg" | "xl" | "xxl";
export type Screens = Record<Breakpoint, boolean>;
type Gutter = number | Partial<Record<Breakpoint, number>>;
const WIDEST_FIRST: Breakpoint[] = ["xxl", "xl", "lg", "md", "sm", "xs"];
/** What a snapshot's screen stands for: a phone, or a desktop at least antd's `lg` wide. */
const SNAPSHOT_SCREENS: Record<"narrow" | "wide", Screens> = {
  narrow: { xs: true, sm: false, md: false, lg: false, xl: false, xxl: false },
  wide: { xs: false, sm: true, md: true, lg: true, xl: false, xxl: false },
};

const noSubscription = () => () => undefined;

/**
 * Which of antd's breakpoints the window is at, as `Grid.useBreakpoint` tells (`xs` below the
 * theme's `screenSM`, `sm`… at least that wide), but known at the first render: the window's width
 * is read from the start, and at build time the snapshot's screen stands for it. antd's hook answers nothing until
 * its layout effect has measured, then renders its component again at once, blocking the main
 * thread: on a phone, the public layout's and the landing page's whole first render twice.
 */
export function useScreens(): Screens {
  const snapshot = useContext(SnapshotScreen);
  const { token } = theme.useToken();
  const queries = useMemo(() => {
    const widths: Record<Exclude<Breakpoint, "xs">, number> = {
      sm: token.screenSM,
      md: token.screenMD,
      lg: token.screenLG,
      xl: token.screenXL,
      xxl: token.screenXXL,
    };
    const lists =
      typeof window === "undefined" || !window.matchMedia
        ? null
        : (Object.keys(widths) as Array<keyof typeof widths>).map(
            (name) => [name, window.matchMedia(`(min-width: ${widths[name]}px)`)] as const,
          );
    return {
      // A string, so that React sees the same value while the window stays within one breakpoint.
      read: () =>
        lists
          ? lists
              .filter(([, list]) => list.matches)
              .map(([name]) => name)
              .join(" ")
          : "",
      subscribe: lists
        ? (onChange: () => void) => {
            for (const [, list] of lists) list.addEventListener("change", onChange);
            return () =>
              lists.forEach(([, list]) => {
                list.removeEventListener("change", onChange);
              });
          }
        : noSubscription,
      measured: lists !== null,
    };
  }, [token.screenSM, token.screenMD, token.screenLG, token.screenXL, token.screenXXL]);
  const reached = useSyncExternalStore(queries.subscribe, queries.read, queries.read);
  return useMemo(() => {
    if (!queries.measured) return SNAPSHOT_SCREENS[snapshot ?? "narrow"];
    const names = new Set(reached.split(" "));
    return {
      xs: !names.has("sm"),
      sm: names.has("sm"),
      md: names.has("md"),
      lg: names.has("lg"),
      xl: names.has("xl"),
      xxl: names.has("xxl"),
    };
  }, [queries.measured, reached, snapshot]);
}

/** Below antd's `md` breakpoint (768 px): the window in the browser, the snapshot's screen at build time. */
export function useNarrowScreen(): boolean {
  return !useScreens().md;
}

/**
 * A Row's responsive gutter (`[{ xs: 16, lg: 48 }, 24]`) as numbers for the screen: the window's,
 * or the snapshot's at build time. antd itself assumes the widest gutter until it has measured,
 * which made a phone's first paint wider than the phone.
 */
export function useGutter(gutter: [Gutter, Gutter]): [number, number] {
  const screens = useScreens();
  const resolve = (value: Gutter): number => {
    if (typeof value === "number") return value;
    const breakpoint = WIDEST_FIRST.find((name) => screens[name] && value[name] !== undefined);
    return breakpoint ? (value[breakpoint] ?? 0) : 0;
  };
  return [resolve(gutter[0]), resolve(gutter[1])];
}
