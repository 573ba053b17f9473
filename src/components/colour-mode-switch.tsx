/**
 * Colour mode in React: the header switch and the hooks over src/lib/colour-mode.ts.
 *
 * Theme the app from the resolved mode (src/components/theme/antd-theme.ts):
 *   const { resolved } = useColourMode();
 *   <ConfigProvider theme={antdTheme(resolved)}>…</ConfigProvider>
 * Put the switch in the header:
 *   <ColourModeSwitch />
 * Let a page force a mode from its route metadata (say `meta.colorMode`); 'system' or any other
 * value is refused with a console warning, and leaving the page releases it:
 *   useForcedColourMode(route.meta?.colorMode);
 *
 * All of them share one store for the browser tab, created on first use.
 */
import { DesktopOutlined, MoonOutlined, SunOutlined } from "@ant-design/icons";
import { Segmented } from "antd";
import { type ComponentType, useEffect, useSyncExternalStore } from "react";

import {
  browserColourModeEnvironment,
  type ColourModeEnvironment,
  type ColourModePreference,
  type ColourModeSnapshot,
  ColourModeStore,
} from "../lib/colour-mode";
import { labels } from "../lib/labels";
import { Tooltip } from "./tooltip";

let store: ColourModeStore | undefined;

/** The tab's colour mode store (created on first use, so importing this file touches no DOM). */
export function colourModeStore(): ColourModeStore {
  store ??= new ColourModeStore(browserColourModeEnvironment());
  return store;
}

/** Starts the store on another environment than the browser's (the build's snapshots of the public pages, in one mode each). */
export function setColourModeEnvironment(environment: ColourModeEnvironment): void {
  store?.dispose();
  store = new ColourModeStore(environment);
}

export interface ColourModeState extends ColourModeSnapshot {
  setPreference: (preference: ColourModePreference) => void;
}

export function useColourMode(): ColourModeState {
  const current = colourModeStore();
  const snapshot = useSyncExternalStore(current.subscribe, current.getSnapshot, current.getSnapshot);
  return { ...snapshot, setPreference: (preference) => current.setPreference(preference) };
}

/** Forces the page's mode while the calling component is mounted; `undefined` forces nothing. */
export function useForcedColourMode(mode: unknown): void {
  useEffect(() => {
    if (mode === undefined) return;
    const current = colourModeStore();
    current.force(mode);
    return () => current.force(undefined);
  }, [mode]);
}

const OPTIONS: { value: ColourModePreference; Icon: ComponentType<{ "aria-label": string }> }[] = [
  { value: "system", Icon: DesktopOutlined },
  { value: "light", Icon: SunOutlined },
  { value: "dark", Icon: MoonOutlined },
];

/**
 * System / light / dark as icons. Each icon is named after its mode (antd icons would otherwise
 * be announced as "desktop", "sun", "moon"), and the name shows as a tooltip: after 700 ms, then
 * at once for the neighbours (src/components/tooltip.tsx). Disabled while a page forces a mode.
 */
export function ColourModeSwitch() {
  const { preference, forced, setPreference } = useColourMode();
  return (
    <Segmented<ColourModePreference>
      size="small"
      aria-label={labels.colourMode}
      value={preference}
      disabled={forced !== null}
      onChange={setPreference}
      options={OPTIONS.map(({ value, Icon }) => ({
        value,
        label: (
          <Tooltip title={labels.colourModes[value]}>
            <Icon aria-label={labels.colourModes[value]} />
          </Tooltip>
        ),
      }))}
    />
  );
}
