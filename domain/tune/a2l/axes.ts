/**
 * An A2L axis description (AXIS_DESCR) or shared axis (AXIS_PTS) as one of
 * our axes: read from the record (STD_AXIS), from the AXIS_PTS it names
 * (COM_AXIS), or computed (FIX_AXIS); the others are left out with a note.
 */
import { Skip, skip, within } from "../import-common";
import { scalingFunction } from "../maps";
import { type Block, blocksNamed, keyword, numberOf, tokensOf } from "./blocks";
import { type Context, type Endian, element, layoutOf, ownEndian, placeIn } from "./context";
import { type Conversion, conversionOf } from "./conversions";
import type { Axis, DataType, Placement, RecordLayout } from "./layouts";

export interface AxisPlan {
  descr: Block;
  attribute: string;
  count: number;
  /** FIX_AXIS: the raw points. */
  fixed?: number[];
  /** COM_AXIS: the AXIS_PTS read. */
  shared?: SharedAxis;
}

export interface SharedAxis {
  name: string;
  address: number;
  type: DataType;
  count: number;
  endian: Endian;
  conversion: Conversion;
}

/** An AXIS_PTS: where its points lie and how many there are. */
export function sharedAxis(ctx: Context, block: Block): SharedAxis {
  const t = tokensOf(block);
  const name = t[0]?.text ?? "";
  const address = numberOf(t[2]);
  const max = numberOf(t[7]);
  if (address === undefined) skip(`AXIS_PTS ${name}: no address`);
  if (max === undefined || !Number.isInteger(max) || max < 1) skip(`AXIS_PTS ${name}: no maximum number of points`);
  const endian = ownEndian(block, 10, ctx.endian, `AXIS_PTS ${name}`);
  const layout = layoutOf(ctx, t[4]?.text);
  const placed = placeIn(ctx, layout, address!, { X: max! }, () => 0, endian);
  const points = placed.axes.X;
  if (!points) skip(`AXIS_PTS ${name}: its RECORD_LAYOUT ${layout.name} stores no AXIS_PTS_X`);
  return {
    name,
    address: points!.address,
    type: points!.type,
    count: placed.counts.X ?? max!,
    endian,
    conversion: conversionOf(t[6]?.text ?? "", ctx.tables),
  };
}

function fixedPoints(descr: Block): number[] | undefined {
  const par = keyword(descr, "FIX_AXIS_PAR", 3, 6)?.map(numberOf);
  const dist = keyword(descr, "FIX_AXIS_PAR_DIST", 3, 6)?.map(numberOf);
  const list = blocksNamed(descr, "FIX_AXIS_PAR_LIST")[0];
  const run = (values: Array<number | undefined> | undefined, step: (v: number[]) => number) => {
    if (!values || values.length < 3 || values.some((v) => v === undefined)) return undefined;
    const [offset, , n] = values as number[];
    if (!Number.isInteger(n) || n < 1 || n > 65_536) return skip(`FIX_AXIS: ${n} points`);
    return Array.from({ length: n }, (_, i) => offset + i * step(values as number[]));
  };
  if (par) return run(par, (v) => 2 ** v[1]);
  if (dist) return run(dist, (v) => v[1]);
  if (list) {
    const values = tokensOf(list).map(numberOf);
    if (values.length === 0 || values.some((v) => v === undefined))
      skip("FIX_AXIS_PAR_LIST holds something other than numbers");
    return values as number[];
  }
  return undefined;
}

export function planAxis(ctx: Context, descr: Block, layout: RecordLayout, axis: Axis): AxisPlan {
  const t = tokensOf(descr);
  const attribute = t[0]?.text ?? "";
  const max = numberOf(t[3]);
  if (max === undefined || !Number.isInteger(max) || max < 1) skip(`AXIS_DESCR: no maximum number of points`);
  if (attribute === "FIX_AXIS") {
    const fixed = fixedPoints(descr);
    if (!fixed) skip("FIX_AXIS without FIX_AXIS_PAR, FIX_AXIS_PAR_DIST or FIX_AXIS_PAR_LIST");
    return { descr, attribute, count: fixed!.length, fixed };
  }
  if (attribute === "COM_AXIS") {
    const ref = keyword(descr, "AXIS_PTS_REF", 1, 6)?.[0]?.text;
    const block = ref === undefined ? undefined : ctx.axisPts.get(ref);
    if (!block) skip(`COM_AXIS: its AXIS_PTS ${ref ?? "(no AXIS_PTS_REF)"} is not in the file`);
    const shared = within(`COM_AXIS ${ref}`, () => sharedAxis(ctx, block!));
    return { descr, attribute, count: shared.count, shared };
  }
  return { descr, attribute, count: layout.fixedCounts[axis] ?? max! };
}

function labelsOf(points: number[], conversion: Conversion): string[] {
  if (conversion.kind === "verbal") {
    const byRaw = new Map(conversion.values.map((v) => [v.raw, v.label]));
    return points.map((p) => byRaw.get(p) ?? String(p));
  }
  const f = scalingFunction(conversion.toPhysical);
  return points.map((p) => {
    const v = f(p);
    return String(
      conversion.decimals !== undefined ? Number(v.toFixed(conversion.decimals)) : Number(v.toPrecision(12)),
    );
  });
}

/** The axis document for a planned axis, or undefined (with a note) when it is not one we can show. */
export function axisDocument(
  ctx: Context,
  plan: AxisPlan,
  placed: Placement,
  axis: Axis,
  itemEndian: Endian,
): Record<string, unknown> | undefined {
  const t = tokensOf(plan.descr);
  const what = `axis ${axis} (${plan.attribute})`;
  const count = placed.counts[axis] ?? plan.count;
  const leaveOut = (why: string) => {
    ctx.notes.push(`${what} left out: ${why}`);
    return undefined;
  };
  const conversionOrNote = (name: string) => {
    try {
      return conversionOf(name, ctx.tables);
    } catch (error) {
      if (error instanceof Skip) return leaveOut(error.message);
      throw error;
    }
  };
  if (plan.fixed) {
    const conversion = conversionOrNote(t[2]?.text ?? "");
    if (!conversion) return undefined;
    return { labels: labelsOf(plan.fixed, conversion), ...(conversion.unit && { unit: conversion.unit }) };
  }
  if (plan.shared) {
    const s = plan.shared;
    if (s.conversion.kind !== "numeric") return leaveOut(`AXIS_PTS ${s.name} has a verbal conversion`);
    return { ...element(ctx, s.address, s.type, count, s.endian, s.conversion, `AXIS_PTS ${s.name}`), count };
  }
  if (plan.attribute !== "STD_AXIS") return leaveOut(`${plan.attribute} is not supported`);
  const deposit = keyword(plan.descr, "DEPOSIT", 1, 6)?.[0]?.text ?? ctx.deposit;
  if (deposit === "DIFFERENCE") return leaveOut("its points are stored as differences (DEPOSIT DIFFERENCE)");
  const points = placed.axes[axis];
  if (!points) return leaveOut(`the record layout stores no AXIS_PTS_${axis}`);
  const conversion = conversionOrNote(t[2]?.text ?? "");
  if (!conversion) return undefined;
  if (conversion.kind !== "numeric") return leaveOut("a verbal conversion on points read from the image");
  const endian = ownEndian(plan.descr, 6, itemEndian, what);
  return { ...element(ctx, points.address, points.type, count, endian, conversion, what), count };
}
