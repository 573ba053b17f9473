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
