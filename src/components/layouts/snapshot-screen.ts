import { Grid } from "antd";
import { createContext, useContext } from "react";

/**
 * The screen a page is rendered for when there is none: the build renders the public pages' snapshots
 * once narrow and once wide (scripts/lib/prerender.ts), where the browser would measure the window.
 * Undefined in the browser.
 */
export const SnapshotScreen = createContext<"narrow" | "wide" | undefined>(undefined);

/** Below antd's `md` breakpoint (768 px): the measured window in the browser, the snapshot's screen at build time. */
export function useNarrowScreen(measuredMd: boolean | undefined): boolean {
  const snapshot = useContext(SnapshotScreen);
  return (measuredMd ?? (snapshot === undefined ? undefined : snapshot === "wide")) === false;
}

type Breakpoint = "xs" | "sm" | "md" | "lg" | "xl" | "xxl";
type Gutter = number | Partial<Record<Breakpoint, number>>;
const WIDEST_FIRST: Breakpoint[] = ["xxl", "xl", "lg", "md", "sm", "xs"];
/** What a snapshot's screen stands for: a phone, or a desktop at least antd's `lg` wide. */
const SNAPSHOT_SCREENS: Record<"narrow" | "wide", Partial<Record<Breakpoint, boolean>>> = { narrow: { xs: true }, wide: { xs: true, sm: true, md: true, lg: true } };

/**
 * A Row's responsive gutter (`[{ xs: 16, lg: 48 }, 24]`) as numbers for the screen: the window once
 * measured; before that, the snapshot's screen at build time, or a phone's. antd itself assumes the
 * widest gutter until it has measured, which made a phone's first paint wider than the phone.
 */
export function useGutter(gutter: [Gutter, Gutter]): [number, number] {
  const measured = Grid.useBreakpoint();
  const snapshot = useContext(SnapshotScreen);
  const screens = Object.keys(measured).length > 0 ? measured : SNAPSHOT_SCREENS[snapshot ?? "narrow"];
  const resolve = (value: Gutter): number => {
    if (typeof value === "number") return value;
    const breakpoint = WIDEST_FIRST.find((name) => screens[name] && value[name] !== undefined);
    return breakpoint ? (value[breakpoint] ?? 0) : 0;
  };
  return [resolve(gutter[0]), resolve(gutter[1])];
}
