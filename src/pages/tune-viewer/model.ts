/**
 * The tune viewer's pure parts: ordering and searching a definition's items,
 * the heat-map scale, number formatting and cell deltas. Kept free of
 * React so unit tests call them directly.
 */
import type { Category, TuneItem } from "../../../contracts/tune-definition";
import type { ItemValues } from "../../../domain/tune/maps";

/** Items whose title, id or description contain every word of the query, case-insensitively. */
export function searchItems(items: readonly TuneItem[], query: string): TuneItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...items];
  return items.filter((item) => {
    const text = `${item.title} ${item.id} ${item.description ?? ""}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

export interface CategoryGroup {
  key: string;
  name: string;
  items: TuneItem[];
}

/**
 * Items grouped by category in the definition's order, changed items first in
 * each group; items with no or an unknown category go last under "Other".
 */
export function groupItems(
  items: readonly TuneItem[],
  categories: readonly Category[],
  changed: ReadonlySet<string>,
): CategoryGroup[] {
  const groups = new Map<string, CategoryGroup>(categories.map((c) => [c.id, { key: c.id, name: c.name, items: [] }]));
  const other: CategoryGroup = { key: "", name: "Other", items: [] };
  for (const item of items) (groups.get(item.category ?? "") ?? other).items.push(item);
  const rank = (item: TuneItem) => (changed.has(item.id) ? 0 : 1);
  return [...groups.values(), other]
    .filter((group) => group.items.length > 0)
    .map((group) => ({ ...group, items: group.items.toSorted((a, b) => rank(a) - rank(b)) }));
}

export function valueRange(values: readonly number[]): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return { min, max };
}

/**
 * Heat-map colour of a value between min and max: blue (low) through green
 * to red (high), as tuners read fuel and timing maps. A flat table is green.
 */
export function heatColour(value: number, min: number, max: number): string {
  const t = max > min ? Math.min(1, Math.max(0, (value - min) / (max - min))) : 0.5;
  const hue = Math.round(240 * (1 - t));
  return `hsl(${hue}, 70%, 80%)`;
}

/** Colour of a difference from stock: red for more, blue for less, stronger with the percentage. */
export function deltaColour(delta: number, percent: number): string | undefined {
  if (delta === 0) return undefined;
  const strength = Math.min(1, Math.abs(percent) / 20);
  const lightness = Math.round(92 - 30 * strength);
  return delta > 0 ? `hsl(0, 75%, ${lightness}%)` : `hsl(215, 75%, ${lightness}%)`;
}

/** Physical values with at most 3 decimals and no trailing zeros: 1.5, not 1.500000001. */
export function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return String(Math.round(value * 1000) / 1000);
}

export interface CellDelta {
  delta: number;
  /** Null when stock is 0: a percentage of nothing means nothing. */
  percent: number | null;
}

export function cellDelta(value: number, stock: number): CellDelta {
  const delta = value - stock;
  return { delta, percent: stock === 0 ? null : (delta / Math.abs(stock)) * 100 };
}

/** Angles (ignition timing, cam positions): a change is read in degrees, never as a share of the stock angle. */
const DEGREES = /°|\bdeg|\bgrad|crk|\bkw\b/i;

/**
 * A cell's change as a tuner reads it: in the map's own degrees for angles (+2.25 °: 10 % of a small
 * advance means nothing), else with its percentage (fuel, load, airflow).
 */
export function formatDelta({ delta, percent }: CellDelta, unit?: string): string {
  const sign = delta > 0 ? "+" : "";
  if (unit && DEGREES.test(unit)) return `${sign}${formatValue(delta)} ${unit}`;
  return `${sign}${formatValue(delta)}${percent === null ? "" : ` (${sign}${formatValue(Math.round(percent * 10) / 10)} %)`}`;
}

/** An axis as a tuner names it: its unit, else "row axis" or "column axis", else "row index" or "column index" when there is none. */
export function axisName(axis: ItemValues["x"], side: "row" | "column"): string {
  return axis?.unit ?? (axis ? `${side} axis` : `${side} index`);
}

/** The corner of a grid: which way each axis runs and its unit; an axis without a unit is still named. */
export function cornerLabel(values: ItemValues): string {
  const columns = `→ ${axisName(values.x, "column")}`;
  if (values.rows <= 1) return columns;
  return `↓ ${axisName(values.y, "row")} · ${columns}`;
}

/** Axis header texts: the axis values formatted, or its labels, or 0-based indexes when the definition has no axis. */
export function axisLabels(axis: ItemValues["x"], count: number): string[] {
  if (!axis) return Array.from({ length: count }, (_, i) => String(i));
  return "labels" in axis ? axis.labels : axis.values.map(formatValue);
}
