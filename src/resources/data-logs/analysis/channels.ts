/**
 * Channel bookkeeping of the analysis view: grouping for the picker, pane layout in the URL,
 * expression variable names, colours.
 */
import { MAX_PANES } from "../../../../contracts/data-log-layout-limits";
import type { DataLogChannel } from "../../../../contracts/data-logs";
import type { FormatId } from "../../../../domain/logs";
import { defaultPanes } from "../../../../domain/logs/roles";

export interface ChartChannel extends Omit<DataLogChannel, "role"> {
  /** What a logged channel measures, as the API read it; a computed channel has none. */
  role?: DataLogChannel["role"];
  /** The expression of a computed channel. */
  expression?: string;
}

/** Expression variables are channel ids with "-" as "_": ids are URL slugs, variables identifiers. */
export const variableOf = (id: string) => id.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(\d)/, "_$1");

/**
 * Channels whose name, unit or id contain the search, grouped by the unit they are shown in
 * (`displayUnitOf`: the file's "bar" charted as psi is headed psi, beside the panes' axes), units
 * in order, "" last. The file's unit still finds a channel.
 */
export function groupByUnit(
  channels: readonly ChartChannel[],
  search: string,
  displayUnitOf: (unit: string) => string = (unit) => unit,
): Array<{ unit: string; channels: ChartChannel[] }> {
  const needle = search.trim().toLowerCase();
  const groups = new Map<string, ChartChannel[]>();
  for (const channel of channels) {
    const shown = displayUnitOf(channel.unit);
    const haystack = `${channel.name} ${channel.unit} ${shown} ${channel.id}`.toLowerCase();
    if (needle && !haystack.includes(needle)) continue;
    const list = groups.get(shown) ?? [];
    list.push(channel);
    groups.set(shown, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === "" ? 1 : b === "" ? -1 : a.localeCompare(b)))
    .map(([unit, list]) => ({ unit, channels: list }));
}

/**
 * Panes in the URL: channel ids joined by "," within a pane and ";" between panes
 * (`?panes=rpm,boost;lambda`). Unknown ids and empty panes are dropped, at most MAX_PANES kept.
 */
export function parsePanes(param: string | null, known: ReadonlySet<string>): string[][] {
  if (!param) return [];
  return param
    .split(";")
    .map((pane) => [...new Set(pane.split(",").map(decodeURIComponent))].filter((id) => known.has(id)))
    .filter((pane) => pane.length > 0)
    .slice(0, MAX_PANES);
}

/** Channels a log opens with when none are asked for: one pane each, when no role says better. */
const FIRST_CHANNELS = 4;

/**
 * The panes a log opens with when the URL names none: the tuner's default panes from the
 * channels' roles (engine speed and boost, timing, mixture, throttle), or else the file's first
 * channels, one pane each. The logger's `format` lets its own words count (JB4's bare "target").
 */
export const openingPanes = (channels: readonly ChartChannel[], format?: FormatId): string[][] =>
  defaultPanes(channels, format)?.slice(0, MAX_PANES) ??
  channels.slice(0, FIRST_CHANNELS).map((channel) => [channel.id]);

export const formatPanes = (panes: readonly string[][]) =>
  panes.map((pane) => pane.map(encodeURIComponent).join(",")).join(";");

const PALETTE = [
  "#e8384f",
  "#2f7ed8",
  "#29a36a",
  "#f39c12",
  "#8e44ad",
  "#16a5a5",
  "#d35400",
  "#7f8c8d",
  "#c0392b",
  "#2c3e50",
];

/** A stable colour per channel, by its place in the log. */
export const colourOf = (index: number) => PALETTE[index % PALETTE.length];
