/**
 * Which lines of a 2-D map the line chart draws: rows (one line per y-axis value, across the x axis)
 * or columns (one per x-axis value, down the y axis), each named by its axis value and unit and
 * given its own colour. Kept free of React so unit tests call it directly.
 */
import type { ItemValues } from "../../../domain/tune/maps";
import { axisLabels } from "./model";

export type LineDirection = "rows" | "columns";

/** One line as the chart draws it: a key unique in the chart, the legend's name, its colour and whether it is the base's (dashed). */
export interface LineSeries {
  key: string;
  name: string;
  values: readonly number[];
  colour: string;
  dashed: boolean;
}

/**
 * Line colours by the line's place on its axis, so a line keeps its colour while others are picked or
 * dropped: distinct hues that read on a white and on a dark background alike. Past the last colour
 * they start again.
 */
export const LINE_COLOURS = [
  "#1677ff",
  "#fa541c",
  "#52c41a",
  "#722ed1",
  "#faad14",
  "#13c2c2",
  "#eb2f96",
  "#a0d911",
  "#2f54eb",
  "#fa8c16",
] as const;

/** A map with this many rows (or columns) or fewer shows all of them at first: few enough lines to tell apart. */
export const ALL_LINES_UP_TO = 8;

export function lineColour(index: number): string {
  return LINE_COLOURS[index % LINE_COLOURS.length];
}

/** How many lines a direction offers. */
export function lineCount(values: ItemValues, direction: LineDirection): number {
  return direction === "rows" ? values.rows : values.cols;
}

/** Each line a direction offers, named by its axis value and the axis's unit ("2000 rpm"), or "row 3" without an axis. */
export function lineChoices(values: ItemValues, direction: LineDirection): Array<{ index: number; label: string }> {
  const axis = direction === "rows" ? values.y : values.x;
  const count = lineCount(values, direction);
  const labels = axisLabels(axis, count);
  return labels.map((label, index) => ({
    index,
    label: !axis ? `${direction === "rows" ? "row" : "column"} ${label}` : axis.unit ? `${label} ${axis.unit}` : label,
  }));
}

/**
 * The lines shown before the user picks: all of them when there are few, else the one holding the
 * focused cell (the editor's selection), else the first.
 */
export function defaultLines(count: number, focus?: number): number[] {
  if (count <= ALL_LINES_UP_TO) return Array.from({ length: count }, (_, i) => i);
  return [focus !== undefined && focus >= 0 && focus < count ? focus : 0];
}

/** The picked lines with one added or, when already there, removed; always in axis order. */
export function toggleLine(picked: readonly number[], index: number): number[] {
  return picked.includes(index) ? picked.filter((i) => i !== index) : [...picked, index].sort((a, b) => a - b);
}

/** The values along one line: a row across the columns, or a column down the rows. */
export function lineValues(values: ItemValues, direction: LineDirection, index: number): number[] {
  if (direction === "rows") return values.values.slice(index * values.cols, (index + 1) * values.cols);
  return Array.from({ length: values.rows }, (_, row) => values.values[row * values.cols + index]);
}

/** The chart's own axis for a direction: the x axis for rows, the y axis for columns. */
export function chartAxis(values: ItemValues, direction: LineDirection): { labels: string[]; unit?: string } {
  const axis = direction === "rows" ? values.x : values.y;
  return { labels: axisLabels(axis, direction === "rows" ? values.cols : values.rows), unit: axis?.unit };
}

/**
 * The chart's series for the picked lines: each line solid in its colour and, when comparing, the
 * base's same line dashed in the same colour, named after the base, so a line and its base pair up.
 */
export function pickedSeries(
  values: ItemValues,
  direction: LineDirection,
  picked: readonly number[],
  base?: { values: ItemValues; label: string },
): LineSeries[] {
  const choices = lineChoices(values, direction);
  return picked
    .filter((index) => index >= 0 && index < choices.length)
    .flatMap((index) => {
      const colour = lineColour(index);
      const { label } = choices[index];
      const own: LineSeries = {
        key: `${direction}-${index}`,
        name: label,
        values: lineValues(values, direction, index),
        colour,
        dashed: false,
      };
      if (!base) return [own];
      return [
        own,
        {
          key: `${direction}-${index}-base`,
          name: `${label} · ${base.label}`,
          values: lineValues(base.values, direction, index),
          colour,
          dashed: true,
        },
      ];
    });
}
