/**
 * Whether a pane needs drawing again: the chart draws a view's points as they come and React hands
 * it the same points again a moment later, in new objects.
 */

import type { SeriesPoints } from "../../../lib/downsample";
import type { Conversion } from "../../../lib/log-units";

/** One channel drawn in a pane of the log chart. */
export interface PaneSeries {
  id: string;
  label: string;
  colour: string;
  conversion: Conversion;
  points?: SeriesPoints;
  /** A compared log's channel: drawn in this line style, and left out of the axis titles. */
  dash?: number[];
  /** The channel's own name where the label also names its log (logs compared): axis titles use it. */
  channelName?: string;
}

/** The channels on one unit's axis, named, with the unit: "PLX Engine Speed (rpm)". */
export function axisTitle(series: readonly PaneSeries[], unit: string): string {
  const onAxis = series.filter((s) => s.conversion.unit === unit);
  // A compared log's lines repeat the channels of the log being read; they name an axis only when alone on it.
  const own = onAxis.filter((s) => !s.dash);
  const names = (own.length ? own : onAxis).map((s) => s.channelName ?? s.label);
  return unit ? `${names.join(", ")} (${unit})` : names.join(", ");
}

/** A pane's title names its channels by unit, so a pane says what it charts and not only in what. */
export const paneTitle = (series: readonly PaneSeries[]): string =>
  [...new Set(series.map((s) => s.conversion.unit))].map((unit) => axisTitle(series, unit)).join(" · ");

/** A pane's channels, as a key: a plot draws only the pane it was built for. */
export const idsOf = (pane: PaneSeries[]) => pane.map((s) => s.id).join();

const sameConversion = (a: Conversion, b: Conversion) =>
  a.unit === b.unit && a.scale === b.scale && a.offset === b.offset;

/** The same channels, with the same points (by identity) in the same colours and units. */
export function samePaneSeries(a: PaneSeries[] | undefined, b: PaneSeries[]): boolean {
  return (
    a !== undefined &&
    a.length === b.length &&
    a.every(
      (s, i) =>
        s.id === b[i].id &&
        s.points === b[i].points &&
        s.colour === b[i].colour &&
        sameConversion(s.conversion, b[i].conversion),
    )
  );
}
