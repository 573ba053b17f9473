/**
 * The layouts a log view offers: the built-in ones from the channels' roles (the panes a log opens
 * with, Boost, Timing, Fuel), the user's own for this logger, and the one a share link carries.
 */
import { useCustom, useCustomMutation } from "@refinedev/core";
import { useMemo } from "react";
import { apiPaths } from "../../../../contracts/api-paths";
import type { DataLogLayout } from "../../../../contracts/data-log-layouts";
import type { FormatId } from "../../../../domain/logs";
import { namedLayouts } from "../../../../domain/logs/roles";
import { type ChartChannel, formatPanes, openingPanes, parsePanes } from "./channels";

export interface LayoutChoice {
  name: string;
  panes: string[][];
  /** Built in from the roles, the user's own (with its id), or carried by the share link. */
  source: "built-in" | "own" | "shared";
  id?: string;
}

const LAYOUTS = apiPaths["data-log-layouts"].list;
const NONE: DataLogLayout[] = [];

/** The user's layouts for one logger; none asked for while `format` is unknown or `enabled` is false. */
export function useOwnLayouts(format: string | undefined, enabled: boolean) {
  const { query } = useCustom<{ data: DataLogLayout[] }>({
    url: LAYOUTS,
    method: "get",
    config: { query: { format } },
    errorNotification: false,
    queryOptions: { enabled: enabled && Boolean(format), refetchOnWindowFocus: false },
  });
  return { layouts: query.data?.data.data ?? NONE, refetch: query.refetch };
}

/** Saves panes under a name for a logger: a name the user already has for it is given the new panes. */
export function useSaveLayout() {
  const { mutateAsync, mutation } = useCustomMutation<DataLogLayout>();
  const quiet = { successNotification: false, errorNotification: false } as const;
  const save = (format: string, name: string, panes: string[][], replacing?: DataLogLayout) =>
    replacing
      ? mutateAsync({ url: `${LAYOUTS}/${replacing.id}`, method: "patch", values: { panes }, ...quiet })
      : mutateAsync({ url: LAYOUTS, method: "post", values: { format, name, panes }, ...quiet });
  const remove = (layout: DataLogLayout) =>
    mutateAsync({ url: `${LAYOUTS}/${layout.id}`, method: "delete", values: {}, ...quiet });
  return { save, remove, saving: mutation.isPending };
}

/** Every layout the view offers, built in first, then the share's, then the user's. */
export function useLayoutChoices(
  channels: readonly ChartChannel[],
  format: FormatId | undefined,
  own: readonly DataLogLayout[],
  shared?: { name: string; panes: string[][] } | null,
): LayoutChoice[] {
  return useMemo(() => {
    if (channels.length === 0) return [];
    const builtIn: LayoutChoice[] = [
      { name: "Default", panes: openingPanes(channels, format), source: "built-in" },
      ...namedLayouts(channels, format).map((layout) => ({ ...layout, source: "built-in" as const })),
    ];
    return [
      ...builtIn,
      ...(shared ? [{ ...shared, source: "shared" as const }] : []),
      ...own.map((layout) => ({ name: layout.name, panes: layout.panes, source: "own" as const, id: layout.id })),
    ];
  }, [channels, format, own, shared]);
}

/** A layout's panes as this log can draw them: channels it has not are left out. */
export const panesIn = (layout: { panes: string[][] }, known: ReadonlySet<string>) =>
  parsePanes(formatPanes(layout.panes), known);

/** The layout the panes on screen are, if any: the user's own before the built-in ones. */
export function layoutShown(
  panes: readonly string[][],
  choices: readonly LayoutChoice[],
  known: ReadonlySet<string>,
): LayoutChoice | undefined {
  const shown = formatPanes(panes);
  const order = [...choices].sort((a, b) => rank(a) - rank(b));
  return order.find((choice) => formatPanes(panesIn(choice, known)) === shown);
}

const rank = (choice: LayoutChoice) => (choice.source === "own" ? 0 : choice.source === "shared" ? 1 : 2);
