/**
 * One A2L CHARACTERISTIC or AXIS_PTS as an item document of our model (the
 * rules are listed in ./import.ts).
 */
import { hexAddress } from "../errors";
import { skip, within } from "../import-common";
import { axisDocument, planAxis, sharedAxis } from "./axes";
import { type Block, blocksNamed, keyword, numberOf, type Token, tokensOf } from "./blocks";
import { type Context, element, layoutOf, numericOnly, ownEndian, placeIn } from "./context";
import { type Conversion, conversionOf } from "./conversions";
import { type Axis, DATA_TYPE_SIZE, type Placement } from "./layouts";

function bitMaskOf(block: Block, from: number): number | undefined {
  return numberOf(keyword(block, "BIT_MASK", 1, from)?.[0]);
}

function limitsOf(t: Token[], lower: number, upper: number): { min?: number; max?: number } {
  const min = numberOf(t[lower]);
  const max = numberOf(t[upper]);
  return min !== undefined && max !== undefined && min <= max ? { min, max } : {};
}

function dimensionsOf(block: Block): number[] {
  const tokens = tokensOf(block);
  const at = tokens.findIndex((tk, i) => i >= 9 && !tk.quoted && tk.text === "MATRIX_DIM");
  if (at >= 0) {
    const dims: number[] = [];
    for (let i = at + 1; i < tokens.length && dims.length < 3; i++) {
      const n = numberOf(tokens[i]);
      if (n === undefined) break;
      dims.push(n);
    }
    if (dims.length > 0) return dims;
  }
  const number = numberOf(keyword(block, "NUMBER", 1, 9)?.[0]);
  if (number !== undefined) return [number];
  return skip("neither MATRIX_DIM nor NUMBER gives its size");
}

export function characteristicDocument(ctx: Context, block: Block): Record<string, unknown> {
  const t = tokensOf(block);
  const type = t[2]?.text ?? "";
  const address = numberOf(t[3]);
  if (address === undefined) skip("no address");
  if (blocksNamed(block, "VIRTUAL_CHARACTERISTIC").length)
    skip("a virtual characteristic: computed by the calibration tool, not stored in the ECU");
  const endian = ownEndian(block, 9, ctx.endian, "BYTE_ORDER");
  const layout = layoutOf(ctx, t[4]?.text);
  const format = keyword(block, "FORMAT", 1, 9)?.[0];
  const conversionName = t[6]?.text ?? "";
  const withFormat = (c: Conversion): Conversion => {
    const decimals = /^%?\s*\d*\.(\d+)/.exec(format?.text ?? "");
    return c.kind === "numeric" && decimals ? { ...c, decimals: Math.min(12, Number(decimals[1])) } : c;
  };
  const values = (placed: Placement) => {
    if (!placed.values) skip(`its RECORD_LAYOUT ${layout.name} has no FNC_VALUES`);
    return placed.values!;
  };
  const limits = limitsOf(t, 7, 8);

  if (type === "VALUE") {
    const placed = placeIn(ctx, layout, address!, {}, () => 1, endian);
    const v = values(placed);
    const conversion = withFormat(conversionOf(conversionName, ctx.tables));
    const mask = bitMaskOf(block, 9);
    const bits = DATA_TYPE_SIZE[v.type] * 8;
    const fullMask = mask === undefined || mask === 2 ** bits - 1;
    if (!fullMask && (mask! & (mask! - 1)) === 0 && mask! > 0) {
      const z = element(ctx, v.address, v.type, 1, endian, { kind: "numeric", toPhysical: "X" }, "its value");
      return { kind: "flag", z, mask };
    }
    if (!fullMask) skip(`a BIT_MASK of several bits (${hexAddress(mask!)}) is not supported`);
    if (conversion.kind === "verbal") {
      const z = element(ctx, v.address, v.type, 1, endian, { kind: "numeric", toPhysical: "X" }, "its value");
      return { kind: "enum", z, values: conversion.values };
    }
    return {
      kind: "constant",
      z: { ...element(ctx, v.address, v.type, 1, endian, conversion, "its value"), ...limits },
    };
  }

  if (type === "VAL_BLK" || type === "ASCII") {
    const dims = dimensionsOf(block);
    if (dims.some((d) => !Number.isInteger(d) || d < 1))
      skip(`its size ${dims.join(" x ")} is not whole numbers of at least 1`);
    if (dims.filter((d) => d > 1).length > 2)
      skip(`a block of ${dims.join(" x ")} values has more than two dimensions`);
    const [cols, rows = 1] = dims.length === 3 && dims[0] === 1 ? dims.slice(1) : dims;
    const cells = dims.reduce((a, b) => a * b, 1);
    const placed = placeIn(ctx, layout, address!, {}, () => cells, endian);
    const v = values(placed);
    if (type === "ASCII") {
      if (DATA_TYPE_SIZE[v.type] !== 1) skip(`ASCII text stored as ${v.type}; one byte per character is supported`);
      const z = element(ctx, v.address, v.type, cells, endian, { kind: "numeric", toPhysical: "X" }, "its text");
      ctx.notes.push(`ASCII text of ${cells} characters, shown as their character codes`);
      return { kind: "table1d", z: { ...z, rows: 1, cols: cells } };
    }
    const conversion = numericOnly(withFormat(conversionOf(conversionName, ctx.tables)), "VAL_BLK");
    const z = { ...element(ctx, v.address, v.type, cells, endian, conversion, "its values"), ...limits };
    if (rows === 1 || cols === 1) return { kind: "table1d", z: { ...z, rows: 1, cols: cells } };
    return { kind: "table2d", z: { ...z, rows, cols, columnMajor: v.columnMajor } };
  }

  if (type === "CURVE" || type === "MAP") {
    const descrs = blocksNamed(block, "AXIS_DESCR");
    const wanted = type === "CURVE" ? 1 : 2;
    if (descrs.length !== wanted) skip(`a ${type} needs ${wanted} AXIS_DESCR, it has ${descrs.length}`);
    const axes: Axis[] = type === "CURVE" ? ["X"] : ["X", "Y"];
    const plans = descrs.map((d, i) => within(`axis ${axes[i]}`, () => planAxis(ctx, d, layout, axes[i])));
    const counts: Partial<Record<Axis, number>> = {};
    plans.forEach((p, i) => {
      counts[axes[i]] = p.count;
    });
    const cellsOf = (c: Partial<Record<Axis, number>>) => (c.X ?? 1) * (type === "MAP" ? (c.Y ?? 1) : 1);
    const placed = placeIn(ctx, layout, address!, counts, cellsOf, endian);
    const v = values(placed);
    const conversion = numericOnly(withFormat(conversionOf(conversionName, ctx.tables)), type);
    const cols = placed.counts.X ?? plans[0].count;
    const rows = type === "MAP" ? (placed.counts.Y ?? plans[1].count) : 1;
    const z = { ...element(ctx, v.address, v.type, rows * cols, endian, conversion, "its values"), ...limits };
    const x = within("axis X", () => axisDocument(ctx, plans[0], placed, "X", endian));
    if (type === "CURVE") return { kind: "table1d", z: { ...z, rows: 1, cols }, ...(x && { x }) };
    const y = within("axis Y", () => axisDocument(ctx, plans[1], placed, "Y", endian));
    return { kind: "table2d", z: { ...z, rows, cols, columnMajor: v.columnMajor }, ...(x && { x }), ...(y && { y }) };
  }

  if (type === "CUBOID" || type === "CUBE_4" || type === "CUBE_5")
    return skip(`a ${type} has more than two axes; our maps have at most two`);
  return skip(`characteristic type ${type || "(none)"} is not supported`);
}

/** An AXIS_PTS as a 1-D table of its points, so that a shared axis can be tuned like any map. */
export function axisPtsDocument(ctx: Context, block: Block): Record<string, unknown> {
  const s = sharedAxis(ctx, block);
  const t = tokensOf(block);
  const conversion = numericOnly(s.conversion, "AXIS_PTS");
  const z = { ...element(ctx, s.address, s.type, s.count, s.endian, conversion, "its points"), ...limitsOf(t, 8, 9) };
  return { kind: "table1d", z: { ...z, rows: 1, cols: s.count } };
}
