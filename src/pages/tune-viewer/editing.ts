/**
 * Editing a tune image in the browser: every change goes through the domain's
 * `writeItem`, so a value is checked (finite, within min/max, round-trips
 * through the scaling) before any byte changes, and a range edit is all or
 * nothing. Each edit keeps the item's bytes before and after, which makes
 * undo and redo a copy of a few bytes instead of a copy of the image.
 */
import type { TuneItem } from "../../../contracts/tune-definition";
import { itemExtents, readItem, writeItem } from "../../../domain/tune/maps";

export interface Edit {
  itemId: string;
  start: number;
  before: Uint8Array;
  after: Uint8Array;
}

/** A rectangle of cells, corners inclusive, in any order. */
export interface CellRange {
  row0: number;
  col0: number;
  row1: number;
  col1: number;
}

export type RangeOperation =
  | { kind: "set"; value: number }
  | { kind: "add"; value: number }
  | { kind: "percent"; value: number }
  | { kind: "interpolate" };

export function normalise(range: CellRange): CellRange {
  return {
    row0: Math.min(range.row0, range.row1),
    col0: Math.min(range.col0, range.col1),
    row1: Math.max(range.row0, range.row1),
    col1: Math.max(range.col0, range.col1),
  };
}

export function inRange(range: CellRange | null, row: number, col: number): boolean {
  if (!range) return false;
  const r = normalise(range);
  return row >= r.row0 && row <= r.row1 && col >= r.col0 && col <= r.col1;
}

/**
 * The item's values after an operation on a range: set, add, or multiply by
 * (1 + percent / 100); interpolate fills the range bilinearly from its four
 * corners (linearly from its ends when it is one row or one column).
 */
export function operate(
  values: readonly number[],
  cols: number,
  range: CellRange,
  operation: RangeOperation,
): number[] {
  const next = [...values];
  const { row0, col0, row1, col1 } = normalise(range);
  const at = (row: number, col: number) => values[row * cols + col];
  for (let row = row0; row <= row1; row++) {
    for (let col = col0; col <= col1; col++) {
      const index = row * cols + col;
      if (operation.kind === "set") next[index] = operation.value;
      else if (operation.kind === "add") next[index] = values[index] + operation.value;
      else if (operation.kind === "percent") next[index] = values[index] * (1 + operation.value / 100);
      else {
        const u = col1 > col0 ? (col - col0) / (col1 - col0) : 0;
        const v = row1 > row0 ? (row - row0) / (row1 - row0) : 0;
        const top = at(row0, col0) * (1 - u) + at(row0, col1) * u;
        const bottom = at(row1, col0) * (1 - u) + at(row1, col1) * u;
        next[index] = top * (1 - v) + bottom * v;
      }
    }
  }
  return next;
}

/** Applies an operation to the image in place and answers the edit for the history; throws the domain's TuneError, changing nothing, when a value is refused. */
export function editItem(image: Uint8Array, item: TuneItem, range: CellRange, operation: RangeOperation): Edit {
  const [extent] = itemExtents(item);
  const before = image.slice(extent.start, extent.end);
  const current = readItem(image, item);
  // A 1-D table is shown, and so selected, as one row whether it is stored as a row or a column.
  const cols = item.kind === "table1d" ? current.values.length : current.cols;
  writeItem(image, item, operate(current.values, cols, range, operation));
  return { itemId: item.id, start: extent.start, before, after: image.slice(extent.start, extent.end) };
}

export interface History {
  undo: Edit[];
  redo: Edit[];
}

export const emptyHistory: History = { undo: [], redo: [] };

export function recorded(history: History, edit: Edit): History {
  return { undo: [...history.undo, edit], redo: [] };
}

/** Puts the last edit's old bytes back; answers the history unchanged when there is nothing to undo. */
export function undo(image: Uint8Array, history: History): History {
  const edit = history.undo.at(-1);
  if (!edit) return history;
  image.set(edit.before, edit.start);
  return { undo: history.undo.slice(0, -1), redo: [...history.redo, edit] };
}

export function redo(image: Uint8Array, history: History): History {
  const edit = history.redo.at(-1);
  if (!edit) return history;
  image.set(edit.after, edit.start);
  return { undo: [...history.undo, edit], redo: history.redo.slice(0, -1) };
}

/** A map as CSV: the x axis across the first line, the y axis down the first column, the unit in the corner. */
export function mapCsv(
  values: { rows: number; cols: number; unit?: string; values: readonly number[] },
  xs: readonly string[],
  ys: readonly string[],
): string {
  const quote = (text: string) => (/[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  const lines = [[values.unit ?? "", ...xs].map(quote).join(",")];
  for (let row = 0; row < values.rows; row++) {
    lines.push(
      [ys[row] ?? "", ...values.values.slice(row * values.cols, (row + 1) * values.cols).map(String)]
        .map(quote)
        .join(","),
    );
  }
  return `${lines.join("\n")}\n`;
}
