/**
 * What every A2L object is read with: the module's byte order, alignment,
 * deposit and tables, the address offset that turns ECU addresses into file
 * offsets, and an element of our model for values at an ECU address.
 */
import { readElement } from "../elements";
import { hexAddress, TuneError } from "../errors";
import { skip } from "../import-common";
import { type Block, keyword } from "./blocks";
import type { Conversion, ConversionTables } from "./conversions";
import {
  type Axis,
  DATA_TYPE_SIZE,
  type DataType,
  elementType,
  type Placement,
  place,
  type RecordLayout,
  readLayout,
} from "./layouts";

export type Endian = "big" | "little";

export interface Context {
  imageSize: number;
  offset: number;
  stock?: Uint8Array;
  endian: Endian;
  deposit: string;
  alignments: Map<string, number>;
  tables: ConversionTables;
  layouts: Map<string, Block>;
  axisPts: Map<string, Block>;
  notes: string[];
}

export const refuse = (message: string): never => {
  throw new TuneError("definition_invalid", message, { problems: [message] });
};

/** A BYTE_ORDER word as our endian. */
export function endianOf(word: string | undefined, what: string): Endian {
  switch (word) {
    case "MSB_FIRST":
    case "LITTLE_ENDIAN":
      return "big";
    case "MSB_LAST":
    case "BIG_ENDIAN":
      return "little";
    default:
      return skip(`${what}: byte order ${word ?? "(none)"} is not supported (MSB_FIRST and MSB_LAST are)`);
  }
}

export function ownEndian(block: Block, from: number, fallback: Endian, what: string): Endian {
  const order = keyword(block, "BYTE_ORDER", 1, from);
  return order ? endianOf(order[0]?.text, what) : fallback;
}

/** File offset of `bytes` bytes at an ECU address, or a Skip saying where it falls. */
function inImage(ctx: Context, ecu: number, bytes: number, what: string): number {
  const file = ecu - ctx.offset;
  if (file < 0 || file + bytes > ctx.imageSize) {
    skip(
      `${what} at ECU address ${hexAddress(ecu)} (file offset ${hexAddress(file)}, ${bytes} byte${bytes === 1 ? "" : "s"}) lies outside the image of ${hexAddress(ctx.imageSize)} bytes` +
        (ctx.offset === 0 ? "; give the address offset of the image" : ` at address offset ${hexAddress(ctx.offset)}`),
    );
  }
  return file;
}

export function layoutOf(ctx: Context, name: string | undefined): RecordLayout {
  const block = name === undefined ? undefined : ctx.layouts.get(name);
  if (!block) return skip(`its RECORD_LAYOUT ${name ?? "(none)"} is not in the file`);
  return readLayout(block);
}

export function placeIn(
  ctx: Context,
  layout: RecordLayout,
  address: number,
  counts: Partial<Record<Axis, number>>,
  cells: (c: Partial<Record<Axis, number>>) => number,
  endian: Endian,
): Placement {
  return place(layout, {
    address,
    counts,
    cells,
    alignment: (name, size) => ctx.alignments.get(name) ?? size,
    notes: ctx.notes,
    ...(ctx.stock && {
      readCount: (ecu: number, type: DataType) => {
        const file = ecu - ctx.offset;
        const size = DATA_TYPE_SIZE[type];
        if (file < 0 || file + size > ctx.stock!.length) return undefined;
        return readElement(ctx.stock!, file, { ...elementType(type, "NO_AXIS_PTS"), endian });
      },
    }),
  });
}

export type Numeric = Extract<Conversion, { kind: "numeric" }>;

export function element(
  ctx: Context,
  ecu: number,
  type: DataType,
  count: number,
  endian: Endian,
  conversion: Numeric,
  what: string,
) {
  const fields = elementType(type, what);
  const address = inImage(ctx, ecu, DATA_TYPE_SIZE[type] * count, what);
  return {
    address,
    bits: fields.bits,
    ...(fields.float ? { float: true } : { signed: fields.signed }),
    endian,
    toPhysical: conversion.toPhysical,
    ...(conversion.toRaw && { toRaw: conversion.toRaw }),
    ...(conversion.unit && { unit: conversion.unit }),
    ...(conversion.decimals !== undefined && { decimals: conversion.decimals }),
  };
}

export const numericOnly = (conversion: Conversion, what: string): Numeric =>
  conversion.kind === "numeric"
    ? conversion
    : skip(`${what}: a verbal conversion (TAB_VERB) on more than one value is not supported`);
