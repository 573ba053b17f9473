/**
 * RECORD_LAYOUT: how a characteristic's record lies in ECU memory. Its
 * entries are placed in the order of their position numbers, each at the next
 * address aligned for its data type (ALIGNMENT_* of the layout, else of
 * MOD_COMMON, else the type's own size, as pyA2L assumes), taking one value
 * (NO_AXIS_PTS_X, SRC_ADDR_X, RESERVED…), one per axis point (AXIS_PTS_X) or
 * one per cell (FNC_VALUES).
 *
 * Read: FNC_VALUES (ROW_DIR or COLUMN_DIR, DIRECT), AXIS_PTS_X/Y (INDEX_INCR,
 * DIRECT), NO_AXIS_PTS_X/Y (the number of points is then stored in the
 * record: read from the stock image when there is one, else the maximum of
 * the axis description), FIX_NO_AXIS_PTS_X/Y, STATIC_RECORD_LAYOUT (space
 * kept for the maximum number of points), and entries that only take room:
 * SRC_ADDR, RIP_ADDR, RESERVED, IDENTIFICATION. The others (OFFSET, DIST_OP,
 * SHIFT_OP, rescale axes, alternate index modes, pointers, decreasing axes,
 * 64-bit and 16-bit float values) skip the item with the reason.
 */
import { skip } from "../import-common";
import { type Block, numberOf, type Token, tokensOf } from "./blocks";

export type DataType =
  | "UBYTE"
  | "SBYTE"
  | "UWORD"
  | "SWORD"
  | "ULONG"
  | "SLONG"
  | "A_UINT64"
  | "A_INT64"
  | "FLOAT16_IEEE"
  | "FLOAT32_IEEE"
  | "FLOAT64_IEEE";

export const DATA_TYPE_SIZE: Record<DataType, number> = {
  UBYTE: 1,
  SBYTE: 1,
  UWORD: 2,
  SWORD: 2,
  ULONG: 4,
  SLONG: 4,
  A_UINT64: 8,
  A_INT64: 8,
  FLOAT16_IEEE: 2,
  FLOAT32_IEEE: 4,
  FLOAT64_IEEE: 8,
};

const RESERVED_SIZE: Record<string, DataType> = { BYTE: "UBYTE", WORD: "UWORD", LONG: "ULONG", LONG64: "A_UINT64" };

export const isDataType = (text: string | undefined): text is DataType =>
  text !== undefined && Object.hasOwn(DATA_TYPE_SIZE, text);

/** The element fields of a data type we can hold, or a Skip naming it. */
export function elementType(type: DataType, what: string): { bits: 8 | 16 | 32; signed: boolean; float: boolean } {
  switch (type) {
    case "UBYTE":
    case "SBYTE":
      return { bits: 8, signed: type === "SBYTE", float: false };
    case "UWORD":
    case "SWORD":
      return { bits: 16, signed: type === "SWORD", float: false };
    case "ULONG":
    case "SLONG":
      return { bits: 32, signed: type === "SLONG", float: false };
    case "FLOAT32_IEEE":
      return { bits: 32, signed: false, float: true };
    default:
      return skip(`${what}: data type ${type} is not supported (values of 8, 16 or 32 bits and 32-bit floats are)`);
  }
}

export type Axis = "X" | "Y" | "Z" | "4" | "5";

export type LayoutEntry =
  | { kind: "FNC_VALUES"; position: number; type: DataType; indexMode: string; addressing: string }
  | { kind: "AXIS_PTS"; axis: Axis; position: number; type: DataType; order: string; addressing: string }
  | { kind: "NO_AXIS_PTS"; axis: Axis; position: number; type: DataType }
  | { kind: "ROOM"; name: string; position: number; type: DataType }
  | { kind: "UNSUPPORTED"; name: string; position: number };

export interface RecordLayout {
  name: string;
  entries: LayoutEntry[];
  fixedCounts: Partial<Record<Axis, number>>;
  alignments: Partial<Record<string, number>>;
  staticLayout: boolean;
}

const ALIGNMENT_OF: Record<DataType, string> = {
  UBYTE: "ALIGNMENT_BYTE",
  SBYTE: "ALIGNMENT_BYTE",
  UWORD: "ALIGNMENT_WORD",
  SWORD: "ALIGNMENT_WORD",
  ULONG: "ALIGNMENT_LONG",
  SLONG: "ALIGNMENT_LONG",
  A_UINT64: "ALIGNMENT_INT64",
  A_INT64: "ALIGNMENT_INT64",
  FLOAT16_IEEE: "ALIGNMENT_FLOAT16_IEEE",
  FLOAT32_IEEE: "ALIGNMENT_FLOAT32_IEEE",
  FLOAT64_IEEE: "ALIGNMENT_FLOAT64_IEEE",
};

export const ALIGNMENT_KEYWORDS = new Set(Object.values(ALIGNMENT_OF));

/** Entries whose values only take room in the record. */
const ROOM = /^(SRC_ADDR|RIP_ADDR)_[WXYZ45]$|^IDENTIFICATION$/;
/** Entries of a position and a data type whose meaning we do not read. */
const TWO_PART = /^(OFFSET|DIST_OP|SHIFT_OP|NO_RESCALE)_[XYZ45]$/;

function dataType(token: Token | undefined, where: string): DataType {
  if (!isDataType(token?.text)) skip(`RECORD_LAYOUT ${where}: ${token?.text ?? "nothing"} is not a data type`);
  return token!.text as DataType;
}

/** A RECORD_LAYOUT block read into entries; a Skip naming what it holds that is not a layout entry. */
export function readLayout(block: Block): RecordLayout {
  const tokens = tokensOf(block);
  const name = tokens[0]?.text ?? "";
  const layout: RecordLayout = { name, entries: [], fixedCounts: {}, alignments: {}, staticLayout: false };
  for (let i = 1; i < tokens.length; ) {
    const word = tokens[i].text;
    const position = numberOf(tokens[i + 1]) ?? 0;
    const where = `${name} ${word}`;
    let m: RegExpExecArray | null;
    if (word === "FNC_VALUES") {
      layout.entries.push({
        kind: "FNC_VALUES",
        position,
        type: dataType(tokens[i + 2], where),
        indexMode: tokens[i + 3]?.text ?? "",
        addressing: tokens[i + 4]?.text ?? "",
      });
      i += 5;
    } else if ((m = /^AXIS_PTS_([XYZ45])$/.exec(word))) {
      layout.entries.push({
        kind: "AXIS_PTS",
        axis: m[1] as Axis,
        position,
        type: dataType(tokens[i + 2], where),
        order: tokens[i + 3]?.text ?? "",
        addressing: tokens[i + 4]?.text ?? "",
      });
      i += 5;
    } else if ((m = /^NO_AXIS_PTS_([XYZ45])$/.exec(word))) {
      layout.entries.push({ kind: "NO_AXIS_PTS", axis: m[1] as Axis, position, type: dataType(tokens[i + 2], where) });
      i += 3;
    } else if ((m = /^FIX_NO_AXIS_PTS_([XYZ45])$/.exec(word))) {
      layout.fixedCounts[m[1] as Axis] = position;
      i += 2;
    } else if (ROOM.test(word)) {
      layout.entries.push({ kind: "ROOM", name: word, position, type: dataType(tokens[i + 2], where) });
      i += 3;
    } else if (word === "RESERVED") {
      const size = RESERVED_SIZE[tokens[i + 2]?.text ?? ""];
      if (!size) skip(`RECORD_LAYOUT ${where}: ${tokens[i + 2]?.text ?? "nothing"} is not BYTE, WORD, LONG or LONG64`);
      layout.entries.push({ kind: "ROOM", name: word, position, type: size! });
      i += 3;
    } else if (TWO_PART.test(word)) {
      layout.entries.push({ kind: "UNSUPPORTED", name: word, position });
      i += 3;
    } else if (/^AXIS_RESCALE_[XYZ45]$/.test(word)) {
      layout.entries.push({ kind: "UNSUPPORTED", name: word, position });
      i += 6;
    } else if (ALIGNMENT_KEYWORDS.has(word)) {
      layout.alignments[word] = position;
      i += 2;
    } else if (word === "STATIC_RECORD_LAYOUT" || word === "STATIC_ADDRESS_OFFSETS") {
      layout.staticLayout = true;
      i += 1;
    } else {
      layout.entries.push({ kind: "UNSUPPORTED", name: word, position: Number.MAX_SAFE_INTEGER });
      i = tokens.length;
    }
  }
  layout.entries.sort((a, b) => a.position - b.position);
  return layout;
}

export interface Placement {
  /** ECU address of FNC_VALUES, when the layout has them. */
  values?: { address: number; type: DataType; columnMajor: boolean };
  /** ECU address and type of each axis's points stored in the record. */
  axes: Partial<Record<Axis, { address: number; type: DataType }>>;
  /** Points per axis, as the record holds them (the stock image's number where the record stores one). */
  counts: Partial<Record<Axis, number>>;
}

export interface PlacementInput {
  address: number;
  /** Points per axis; NO_AXIS_PTS entries may change them (`readCount`). */
  counts: Partial<Record<Axis, number>>;
  /** Cells of FNC_VALUES for these counts. */
  cells: (counts: Partial<Record<Axis, number>>) => number;
  alignment: (keyword: string, size: number) => number;
  /** The number of points stored at an ECU address, from the stock image; undefined without one. */
  readCount?: (address: number, type: DataType) => number | undefined;
  /** Notes on the item (a count assumed). */
  notes: string[];
}

function checkEntry(layout: string, entry: LayoutEntry): void {
  if (entry.kind === "UNSUPPORTED") skip(`RECORD_LAYOUT ${layout}: ${entry.name} is not supported`);
  if (entry.kind === "FNC_VALUES") {
    if (entry.addressing !== "DIRECT")
      skip(`RECORD_LAYOUT ${layout}: FNC_VALUES addressed ${entry.addressing}, only DIRECT is supported`);
    if (entry.indexMode !== "ROW_DIR" && entry.indexMode !== "COLUMN_DIR")
      skip(
        `RECORD_LAYOUT ${layout}: FNC_VALUES index mode ${entry.indexMode} is not supported (ROW_DIR and COLUMN_DIR are)`,
      );
  }
  if (entry.kind === "AXIS_PTS") {
    if (entry.order !== "INDEX_INCR")
      skip(
        `RECORD_LAYOUT ${layout}: AXIS_PTS_${entry.axis} stored ${entry.order}; only INDEX_INCR (rising with the address) is supported`,
      );
    if (entry.addressing !== "DIRECT")
      skip(`RECORD_LAYOUT ${layout}: AXIS_PTS_${entry.axis} addressed ${entry.addressing}, only DIRECT is supported`);
  }
}

/** Where each entry of the layout lies for one record; a Skip naming an entry we cannot place. */
export function place(layout: RecordLayout, input: PlacementInput): Placement {
  const counts = { ...input.counts, ...layout.fixedCounts };
  const room = { ...counts };
  const placement: Placement = { axes: {}, counts };
  // What the layout holds is checked before any count is read from the image, so the reason names the layout.
  for (const entry of layout.entries) checkEntry(layout.name, entry);
  let at = input.address;
  for (const entry of layout.entries) {
    if (entry.kind === "UNSUPPORTED") continue;
    const size = DATA_TYPE_SIZE[entry.type];
    const keywordName = ALIGNMENT_OF[entry.type];
    const align = layout.alignments[keywordName] ?? input.alignment(keywordName, size);
    if (align > 1) at = Math.ceil(at / align) * align;
    if (entry.kind === "FNC_VALUES") {
      placement.values = { address: at, type: entry.type, columnMajor: entry.indexMode === "COLUMN_DIR" };
      at += size * input.cells(layout.staticLayout ? room : counts);
    } else if (entry.kind === "AXIS_PTS") {
      placement.axes[entry.axis] = { address: at, type: entry.type };
      const n = (layout.staticLayout ? room : counts)[entry.axis];
      if (n === undefined)
        skip(`RECORD_LAYOUT ${layout.name}: AXIS_PTS_${entry.axis} for an axis the item does not describe`);
      at += size * n!;
    } else if (entry.kind === "NO_AXIS_PTS") {
      const max = counts[entry.axis];
      const stored = input.readCount?.(at, entry.type);
      if (max !== undefined && stored !== undefined) {
        if (!Number.isInteger(stored) || stored < 1 || stored > max)
          skip(`the stock image holds ${stored} points for axis ${entry.axis}, where at most ${max} are described`);
        counts[entry.axis] = stored;
      } else if (max !== undefined && stored === undefined) {
        input.notes.push(
          `the number of ${entry.axis} axis points is stored in the image (NO_AXIS_PTS_${entry.axis}); without a stock file the maximum, ${max}, is taken`,
        );
      }
      at += size;
    } else {
      at += size;
    }
  }
  return placement;
}
