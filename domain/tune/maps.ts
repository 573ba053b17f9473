/**
 * Map values in physical units, read from and written to an image through a
 * definition item.
 *
 * Writing is where a tune can go wrong silently, so every value is checked
 * before any byte changes: finite, within the item's physical min/max,
 * representable by the element type after `toRaw` and rounding, and reading
 * back within one raw step of what was asked (a `toRaw` that disagrees with
 * `toPhysical` is caught here, not on the dyno). A write of several cells is
 * all or nothing.
 */

import type { Axis, AxisValues, ElementSpec, ItemValues, TuneItem } from "../../contracts/tune-definition";
import { itemCellCount } from "../../contracts/tune-definition";
import { compileExpression } from "../expression";

export type { AxisValues, ItemValues };

import { elementBytes, float32Neighbours, rawLimits, readElement, writeElement } from "./elements";
import { hexAddress, TuneError } from "./errors";

type Scale = (x: number) => number;

// Definitions repeat the same few scalings thousands of times; compiling each once keeps reads cheap.
const scalings = new Map<string, Scale>();
const inverses = new Map<string, Scale | null>();
const CACHE_LIMIT = 4096;

function remember<V>(cache: Map<string, V>, key: string, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined && !cache.has(key)) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    value = make();
    cache.set(key, value);
  }
  return value as V;
}

/** `toPhysical` or `toRaw` as a plain function of X. */
export function scalingFunction(src: string): Scale {
  return remember(scalings, src, () => {
    const compiled = compileExpression(src, { variables: ["X"] });
    if (compiled.constant !== undefined) {
      const value = compiled.constant;
      return () => value;
    }
    // One scope object reused per expression: evaluation never re-enters, so this is safe and allocation-free.
    const scope = { X: 0 };
    return (x: number) => {
      scope.X = x;
      return compiled.evaluate(scope);
    };
  });
}

/**
 * `toRaw` when the element has one; otherwise the inverse of `toPhysical`
 * when that is linear (XDF equations only come in that direction); null when
 * neither is available, and writing is refused.
 */
function inverseScaling(element: ElementSpec): Scale | null {
  if (element.toRaw !== undefined) return scalingFunction(element.toRaw);
  return remember(inverses, element.toPhysical, () => {
    const f = scalingFunction(element.toPhysical);
    const offset = f(0);
    const slope = f(1) - offset;
    if (!Number.isFinite(offset) || !Number.isFinite(slope) || slope === 0) return null;
    for (const x of [-1000, -3, 2, 7, 255, 4095, 65535, 1e6]) {
      const expected = slope * x + offset;
      if (Math.abs(f(x) - expected) > 1e-9 * Math.max(1, Math.abs(expected))) return null;
    }
    return (p: number) => (p - offset) / slope;
  });
}

// ---------------------------------------------------------------------------
// Layout

export type ItemPart = "z" | "x" | "y";

/** The bytes one part of an item occupies: its data (`z`) or an axis read from the image. */
export interface ItemExtent {
  item: TuneItem;
  part: ItemPart;
  element: ElementSpec;
  count: number;
  start: number;
  /** Exclusive. */
  end: number;
}

export function itemExtents(item: TuneItem): ItemExtent[] {
  const parts: Array<[ItemPart, ElementSpec, number]> = [["z", item.z, itemCellCount(item)]];
  if ((item.kind === "table1d" || item.kind === "table2d") && item.x && !("labels" in item.x))
    parts.push(["x", item.x, item.x.count]);
  if (item.kind === "table2d" && item.y && !("labels" in item.y)) parts.push(["y", item.y, item.y.count]);
  return parts.map(([part, element, count]) => ({
    item,
    part,
    element,
    count,
    start: element.address,
    end: element.address + elementBytes(element) * count,
  }));
}

function dimensions(item: TuneItem): { rows: number; cols: number } {
  return item.kind === "table1d" || item.kind === "table2d"
    ? { rows: item.z.rows, cols: item.z.cols }
    : { rows: 1, cols: 1 };
}

/** Position in storage of cell (row, col): tables may be stored column by column. */
function storageIndex(item: TuneItem, row: number, col: number): number {
  if (item.kind !== "table1d" && item.kind !== "table2d") return 0;
  return item.z.columnMajor ? col * item.z.rows + row : row * item.z.cols + col;
}

/** Row and column shown for the `index`-th stored value of a part (axes: x runs along columns, y along rows). */
export function cellPosition(extent: ItemExtent, index: number): { row: number; col: number } {
  if (extent.part === "x") return { row: 0, col: index };
  if (extent.part === "y") return { row: index, col: 0 };
  const item = extent.item;
  if (item.kind !== "table1d" && item.kind !== "table2d") return { row: 0, col: 0 };
  const { rows, cols, columnMajor } = item.z;
  return columnMajor
    ? { row: index % rows, col: Math.floor(index / rows) }
    : { row: Math.floor(index / cols), col: index % cols };
}

function cellName(item: TuneItem, row: number, col: number): string {
  if (item.kind === "table2d") return `${item.id}[${row},${col}]`;
  if (item.kind === "table1d") return `${item.id}[${row * item.z.cols + col}]`;
  return item.id;
}

// ---------------------------------------------------------------------------
// Reading

function isSet(raw: number, mask: number): boolean {
  return (raw & mask) >>> 0 === mask;
}

/** Unsigned view of a flag's element: a mask is about bits, never about sign. */
function flagElement(element: ElementSpec): ElementSpec {
  return element.signed ? { ...element, signed: false } : element;
}

/**
 * Physical value of the `index`-th stored value of a part: scaled for data and
 * axes, 0 or 1 for flags, the raw value for enums.
 */
export function readPartValue(image: Uint8Array, extent: ItemExtent, index: number): number {
  const { item, element } = extent;
  const address = element.address + index * elementBytes(element);
  if (extent.part === "z" && item.kind === "flag")
    return isSet(readElement(image, address, flagElement(element)), item.mask) ? 1 : 0;
  const raw = readElement(image, address, element);
  if (extent.part === "z" && item.kind === "enum") return raw;
  return scalingFunction(element.toPhysical)(raw);
}

function readAxis(image: Uint8Array, axis: Axis): AxisValues {
  if ("labels" in axis) return { unit: axis.unit, labels: axis.labels };
  const f = scalingFunction(axis.toPhysical);
  const size = elementBytes(axis);
  const values = new Array<number>(axis.count);
  for (let i = 0; i < axis.count; i++) values[i] = f(readElement(image, axis.address + i * size, axis));
  return { unit: axis.unit, values };
}

/** Every value of an item, with its axes, in physical units. */
export function readItem(image: Uint8Array, item: TuneItem): ItemValues {
  const { rows, cols } = dimensions(item);
  const [extent] = itemExtents(item);
  const values = new Array<number>(rows * cols);
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++)
      values[row * cols + col] = readPartValue(image, extent, storageIndex(item, row, col));
  }
  const result: ItemValues = { id: item.id, kind: item.kind, rows, cols, values };
  if (item.z.unit !== undefined) result.unit = item.z.unit;
  if (item.kind === "enum") result.labels = values.map((raw) => item.values.find((v) => v.raw === raw)?.label ?? null);
  if ((item.kind === "table1d" || item.kind === "table2d") && item.x) result.x = readAxis(image, item.x);
  if (item.kind === "table2d" && item.y) result.y = readAxis(image, item.y);
  return result;
}

/** One cell in physical units. */
export function readCell(image: Uint8Array, item: TuneItem, row: number, col: number): number {
  checkCell(item, row, col);
  return readPartValue(image, itemExtents(item)[0], storageIndex(item, row, col));
}

// ---------------------------------------------------------------------------
// Writing

function checkCell(item: TuneItem, row: number, col: number): void {
  const { rows, cols } = dimensions(item);
  if (!Number.isInteger(row) || !Number.isInteger(col) || row < 0 || col < 0 || row >= rows || col >= cols) {
    throw new TuneError("invalid_value", `${item.id} has no cell [${row},${col}] (it is ${rows}x${cols})`, {
      item: item.id,
      row,
      col,
    });
  }
}

/** Numbers for messages: 12 significant digits hide binary noise like 0.10000000000000142. */
function show(n: number): string {
  return Number.isFinite(n) ? String(Number(n.toPrecision(12))) : String(n);
}

function refuse(where: string, message: string, details: Record<string, unknown>): TuneError {
  return new TuneError("invalid_value", `${where}: ${message}`, details);
}

/** Physical value to the raw value to store, or a refusal naming the cell. */
function encodeScaled(element: ElementSpec, value: number, where: string): number {
  const unit = element.unit ? ` ${element.unit}` : "";
  const details = { cell: where, value };
  if (!Number.isFinite(value)) throw refuse(where, `${value} is not a finite number`, details);
  if (element.min !== undefined && value < element.min)
    throw refuse(where, `${value}${unit} is below the minimum ${element.min}${unit}`, details);
  if (element.max !== undefined && value > element.max)
    throw refuse(where, `${value}${unit} is above the maximum ${element.max}${unit}`, details);
  const inverse = inverseScaling(element);
  if (!inverse) {
    throw refuse(
      where,
      `cannot convert ${value}${unit} to raw: "${element.toPhysical}" is not linear and the item has no toRaw`,
      details,
    );
  }
  const exact = inverse(value);
  const raw = element.float ? Math.fround(exact) : Math.round(exact);
  const limits = rawLimits(element);
  if (!Number.isFinite(raw) || raw < limits.min || raw > limits.max) {
    const type = element.float
      ? "a 32-bit float"
      : `${element.signed ? "a signed" : "an unsigned"} ${element.bits}-bit element`;
    throw refuse(where, `${value}${unit} needs raw ${show(exact)}, outside ${limits.min}..${limits.max} of ${type}`, {
      ...details,
      raw: exact,
    });
  }
  const toPhysical = scalingFunction(element.toPhysical);
  const back = toPhysical(raw);
  const [below, above] = element.float ? float32Neighbours(raw) : [raw - 1, raw + 1];
  const step = Math.max(Math.abs(toPhysical(below) - back), Math.abs(toPhysical(above) - back));
  if (!(Math.abs(back - value) <= step * (1 + 1e-9))) {
    throw new TuneError(
      "round_trip",
      `${where}: ${value}${unit} would read back as ${show(back)}${unit} (raw ${raw}), more than one raw step (${show(step)}) away; toRaw and toPhysical disagree`,
      { ...details, raw, readBack: back, step },
    );
  }
  return raw;
}

interface PlannedWrite {
  address: number;
  type: ElementSpec;
  raw: number;
}

function planCell(image: Uint8Array, item: TuneItem, row: number, col: number, value: number): PlannedWrite {
  const where = cellName(item, row, col);
  const element = item.z;
  const address = element.address + storageIndex(item, row, col) * elementBytes(element);
  if (item.kind === "flag") {
    if (value !== 0 && value !== 1) throw refuse(where, `a flag is 0 or 1, got ${value}`, { cell: where, value });
    const type = flagElement(element);
    const current = readElement(image, address, type);
    return { address, type, raw: (value === 1 ? current | item.mask : current & ~item.mask) >>> 0 };
  }
  if (item.kind === "enum") {
    if (!item.values.some((v) => v.raw === value)) {
      const allowed = item.values.map((v) => `${v.raw} (${v.label})`).join(", ");
      throw refuse(where, `${value} is not one of ${allowed}`, { cell: where, value });
    }
    const limits = rawLimits(element);
    if (value < limits.min || value > limits.max)
      throw refuse(where, `enum value ${value} does not fit the element`, { cell: where, value });
    return { address, type: element, raw: value };
  }
  return { address, type: element, raw: encodeScaled(element, value, where) };
}

/** Writes one cell (row and column 0 for constants, flags and enums). */
export function writeCell(image: Uint8Array, item: TuneItem, row: number, col: number, value: number): void {
  checkCell(item, row, col);
  const { address, type, raw } = planCell(image, item, row, col, value);
  writeElement(image, address, type, raw);
}

/**
 * Writes every cell of an item from row-major physical values; nothing is
 * written unless every value is accepted.
 */
export function writeItem(image: Uint8Array, item: TuneItem, values: readonly number[]): void {
  const { rows, cols } = dimensions(item);
  if (values.length !== rows * cols) {
    throw new TuneError(
      "invalid_value",
      `${item.id} takes ${rows * cols} values (${rows}x${cols}), got ${values.length}`,
      {
        item: item.id,
        expected: rows * cols,
        got: values.length,
      },
    );
  }
  const end = item.z.address + rows * cols * elementBytes(item.z);
  if (end > image.length) {
    throw new TuneError("out_of_bounds", `${item.id} at ${hexAddress(item.z.address)} runs past the end of the image`, {
      item: item.id,
    });
  }
  const plan: PlannedWrite[] = [];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) plan.push(planCell(image, item, row, col, values[row * cols + col]));
  }
  for (const { address, type, raw } of plan) writeElement(image, address, type, raw);
}
