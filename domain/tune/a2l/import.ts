/**
 * A2L (ASAM MCD-2 MC) into our definition document: the calibration objects
 * of the file's first MODULE, each CHARACTERISTIC (VALUE, VAL_BLK, ASCII,
 * CURVE, MAP) and each AXIS_PTS (a shared axis, also an item of its own so
 * that it can be tuned). What cannot be read is skipped with its name, line
 * and reason, the rest imported.
 *
 * - Addresses are ECU memory; the image is a file: file offset = ECU address
 *   − `addressOffset`. An item outside the image is skipped, naming its ECU
 *   address.
 * - Byte order: the item's BYTE_ORDER (an axis description's for its axis),
 *   else MOD_COMMON's, else MSB_FIRST. MSB_FIRST is big endian, MSB_LAST
 *   little endian; the deprecated LITTLE_ENDIAN and BIG_ENDIAN stand,
 *   as the standard defines them, for MSB_FIRST and MSB_LAST.
 * - A map's X axis runs across its columns and Y down its rows; FNC_VALUES
 *   ROW_DIR stores the map row after row, COLUMN_DIR column after column. A
 *   VAL_BLK's MATRIX_DIM gives the columns first, then the rows.
 * - Axes: STD_AXIS reads the points the record stores (AXIS_PTS_X/Y),
 *   COM_AXIS those of the AXIS_PTS it names, FIX_AXIS computes them
 *   (FIX_AXIS_PAR offset + i·2^shift, FIX_AXIS_PAR_DIST offset + i·distance,
 *   FIX_AXIS_PAR_LIST) as raw values shown through the axis's conversion.
 *   CURVE_AXIS and RES_AXIS, axes stored as differences and axes with a
 *   verbal conversion read from the image are left out with a note; the map
 *   keeps its size.
 * - Values: a VALUE with a verbal conversion is an enum, one with a BIT_MASK
 *   of one bit a flag; a BIT_MASK of several bits is not supported. ASCII is
 *   a 1-D table of its character codes. The lower and upper limits are the
 *   physical limits for writing. CUBOID and higher, virtual characteristics
 *   (computed by the calibration tool, not in memory) are skipped.
 * - Categories: the FUNCTIONs that define (DEF_CHARACTERISTIC) or list
 *   (the item's FUNCTION_LIST) an item.
 */
import { type TuneItem, tuneDefinitionSchema } from "../../../contracts/tune-definition";
import { readElement } from "../elements";
import { hexAddress, TuneError } from "../errors";
import {
  checkedItem,
  type DefinitionImport,
  type DefinitionSkipped,
  Skip,
  skip,
  slug,
  summarize,
  UniqueIds,
  within,
} from "../import-common";
import { scalingFunction } from "../maps";
import { type Block, blocksNamed, isBlock, keyword, numberOf, readBlocks, type Token, tokensOf } from "./blocks";
import { type Conversion, type ConversionTables, conversionOf } from "./conversions";
import {
  ALIGNMENT_KEYWORDS,
  type Axis,
  DATA_TYPE_SIZE,
  type DataType,
  elementType,
  type Placement,
  place,
  type RecordLayout,
  readLayout,
} from "./layouts";

export interface A2lImportOptions {
  firmwareId: string;
  /** The firmware's image size: an A2L describes ECU memory and does not give it. */
  imageSize?: number;
  /** The stock image: the number of axis points a record stores is read from it. */
  stockImage?: Uint8Array;
  /** ECU address of the image's first byte (file offset = ECU address − addressOffset); 0 when absent. */
  addressOffset?: number;
  /** Files uploaded with the A2L, by name, for its `/include`s. */
  includes?: Readonly<Record<string, string>>;
}

type Endian = "big" | "little";

interface Context {
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

const refuse = (message: string): never => {
  throw new TuneError("definition_invalid", message, { problems: [message] });
};

/** A BYTE_ORDER word as our endian. */
function endianOf(word: string | undefined, what: string): Endian {
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

function ownEndian(block: Block, from: number, fallback: Endian, what: string): Endian {
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

function layoutOf(ctx: Context, name: string | undefined): RecordLayout {
  const block = name === undefined ? undefined : ctx.layouts.get(name);
  if (!block) return skip(`its RECORD_LAYOUT ${name ?? "(none)"} is not in the file`);
  return readLayout(block);
}

function placeIn(
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

type Numeric = Extract<Conversion, { kind: "numeric" }>;

function element(
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

const numericOnly = (conversion: Conversion, what: string): Numeric =>
  conversion.kind === "numeric"
    ? conversion
    : skip(`${what}: a verbal conversion (TAB_VERB) on more than one value is not supported`);

// ---------------------------------------------------------------------------
// Axes

interface AxisPlan {
  descr: Block;
  attribute: string;
  count: number;
  /** FIX_AXIS: the raw points. */
  fixed?: number[];
  /** COM_AXIS: the AXIS_PTS read. */
  shared?: SharedAxis;
}

interface SharedAxis {
  name: string;
  address: number;
  type: DataType;
  count: number;
  endian: Endian;
  conversion: Conversion;
}

/** An AXIS_PTS: where its points lie and how many there are. */
function sharedAxis(ctx: Context, block: Block): SharedAxis {
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

function planAxis(ctx: Context, descr: Block, layout: RecordLayout, axis: Axis): AxisPlan {
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
function axisDocument(
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

// ---------------------------------------------------------------------------
// Items

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

function characteristicDocument(ctx: Context, block: Block): Record<string, unknown> {
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
function axisPtsDocument(ctx: Context, block: Block): Record<string, unknown> {
  const s = sharedAxis(ctx, block);
  const t = tokensOf(block);
  const conversion = numericOnly(s.conversion, "AXIS_PTS");
  const z = { ...element(ctx, s.address, s.type, s.count, s.endian, conversion, "its points"), ...limitsOf(t, 8, 9) };
  return { kind: "table1d", z: { ...z, rows: 1, cols: s.count } };
}

// ---------------------------------------------------------------------------

function moduleOf(top: Array<Token | Block>, warnings: string[]): Block {
  const project = top.find((p): p is Block => isBlock(p) && p.name === "PROJECT");
  if (!project) return refuse("an A2L without /begin PROJECT: nothing to read");
  const modules = blocksNamed(project, "MODULE");
  if (modules.length === 0) return refuse("the A2L's PROJECT has no MODULE: nothing to read");
  if (modules.length > 1)
    warnings.push(
      `the A2L describes ${modules.length} modules; the first, ${tokensOf(modules[0])[0]?.text ?? ""}, is imported`,
    );
  return modules[0];
}

/** Imports an A2L's calibration objects into a definition. */
export function importA2l(text: string, options: A2lImportOptions): DefinitionImport {
  const offset = options.addressOffset ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0)
    refuse(`addressOffset must be a non-negative whole number, got ${offset}`);
  const imageSize = options.imageSize;
  if (imageSize === undefined || !Number.isInteger(imageSize) || imageSize <= 0)
    refuse("an A2L does not give the image size: give the firmware's image size");
  const firmwareId = tuneDefinitionSchema.shape.firmwareId.safeParse(options.firmwareId);
  if (!firmwareId.success) refuse("a firmware id is needed");

  const tree = readBlocks(text, options.includes ?? {});
  const warnings: string[] = [];
  const skipped: DefinitionSkipped[] = [];
  const skipElement = (element: string, title: string | undefined, line: number, reason: string) => {
    skipped.push({ element, ...(title && { title }), line, reason });
    warnings.push(`${element} ${title ? JSON.stringify(title) : "(untitled)"} on line ${line} skipped: ${reason}`);
  };
  for (const missing of tree.missingIncludes) {
    skipElement(
      "/include",
      missing.name,
      missing.line,
      `${missing.name} was not uploaded with the A2L${missing.file ? ` (included by ${missing.file})` : ""}: upload it together with the A2L to read what it holds`,
    );
  }
  const module = moduleOf(tree.top, warnings);

  const ctx: Context = {
    imageSize: imageSize!,
    offset,
    ...(options.stockImage && { stock: options.stockImage }),
    endian: "big",
    deposit: "ABSOLUTE",
    alignments: new Map(),
    tables: { methods: new Map(), tabs: new Map(), units: new Map() },
    layouts: new Map(),
    axisPts: new Map(),
    notes: [],
  };
  const characteristics: Block[] = [];
  const axisPts: Block[] = [];
  const functionsOf = new Map<string, string[]>();
  const addFunction = (item: string, fn: string) => {
    const list = functionsOf.get(item) ?? [];
    if (!list.includes(fn)) list.push(fn);
    functionsOf.set(item, list);
  };
  for (const part of module.content) {
    if (!isBlock(part)) continue;
    const name = tokensOf(part)[0]?.text ?? "";
    switch (part.name) {
      case "COMPU_METHOD":
        ctx.tables.methods.set(name, part);
        break;
      case "COMPU_TAB":
      case "COMPU_VTAB":
      case "COMPU_VTAB_RANGE":
        ctx.tables.tabs.set(name, part);
        break;
      case "UNIT":
        ctx.tables.units.set(name, part);
        break;
      case "RECORD_LAYOUT":
        ctx.layouts.set(name, part);
        break;
      case "AXIS_PTS":
        ctx.axisPts.set(name, part);
        axisPts.push(part);
        break;
      case "CHARACTERISTIC":
        characteristics.push(part);
        break;
      case "FUNCTION":
        for (const def of blocksNamed(part, "DEF_CHARACTERISTIC"))
          for (const item of tokensOf(def)) addFunction(item.text, name);
        break;
      case "MOD_COMMON": {
        const tokens = tokensOf(part);
        for (let i = 1; i < tokens.length; i++) {
          const word = tokens[i].text;
          if (word === "BYTE_ORDER") {
            try {
              ctx.endian = endianOf(tokens[i + 1]?.text, "MOD_COMMON");
            } catch (error) {
              if (!(error instanceof Skip)) throw error;
              refuse(`MOD_COMMON on line ${part.line}: ${error.message}`);
            }
          } else if (word === "DEPOSIT") ctx.deposit = tokens[i + 1]?.text ?? ctx.deposit;
          else if (ALIGNMENT_KEYWORDS.has(word)) {
            const n = numberOf(tokens[i + 1]);
            if (n !== undefined) ctx.alignments.set(word, n);
          }
        }
        break;
      }
    }
  }

  const categoryIds = new UniqueIds();
  const categoryByName = new Map<string, string>();
  const categories: Array<{ id: string; name: string }> = [];
  const categoryOf = (name: string) => {
    let id = categoryByName.get(name);
    if (id === undefined) {
      id = categoryIds.take(slug(name));
      categoryByName.set(name, id);
      categories.push({ id, name });
    }
    return id;
  };

  const itemIds = new UniqueIds();
  const items: TuneItem[] = [];
  const importOne = (block: Block, build: (ctx: Context, block: Block) => Record<string, unknown>) => {
    const t = tokensOf(block);
    const name = t[0]?.text ?? "";
    ctx.notes = [];
    try {
      const document = build(ctx, block);
      for (const list of blocksNamed(block, "FUNCTION_LIST"))
        for (const fn of tokensOf(list)) addFunction(name, fn.text);
      const fns = (functionsOf.get(name) ?? []).map(categoryOf);
      const longId = t[1]?.quoted ? t[1].text.trim() : "";
      const item = checkedItem(
        {
          id: "item",
          title: name,
          ...(longId && longId !== name && { description: longId }),
          ...(fns.length > 0 && { category: fns[0] }),
          ...(fns.length > 1 && { categories: fns }),
          ...document,
        },
        ctx.imageSize,
      );
      item.id = itemIds.take(slug(name));
      items.push(item);
      const place = block.file ? ` in ${block.file}` : "";
      for (const note of ctx.notes)
        warnings.push(`${block.name} ${JSON.stringify(name)} on line ${block.line}${place}: ${note}`);
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      skipElement(
        block.name,
        name || undefined,
        block.line,
        block.file ? `in ${block.file}: ${error.message}` : error.message,
      );
    }
  };
  for (const block of characteristics) importOne(block, characteristicDocument);
  for (const block of axisPts) importOne(block, axisPtsDocument);

  const definition = { firmwareId: firmwareId.data!, imageSize: imageSize!, categories, items };
  return {
    format: "a2l",
    definition,
    patches: [],
    checksums: [],
    skipped,
    warnings,
    summary: summarize(definition, [], [], skipped),
  };
}
