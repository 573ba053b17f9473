/**
 * RomRaider and EcuFlash XML definitions (`<roms><rom>…</rom></roms>` or one
 * `<rom>`) into our definition document, with the same tolerance as the XDF
 * import: every table that can be read is imported, each one that cannot is
 * skipped with its name, line and the reason (`skipped`).
 *
 * The two tools share the format and differ in style: RomRaider writes
 * `storageaddress`, `storagetype`, `endian` and sizes on the table with
 * `<scaling expression= to_byte= format= units=>` children (or
 * `<scaling base=>` naming a `<scalingbase>` of the file); EcuFlash writes
 * `address` and names a rom-level `<scaling name= toexpr= frexpr=
 * storagetype= endian=>` with `scaling=`, axis sizes as `elements`.
 * Either is read wherever it appears. `format` says which style the file has
 * (EcuFlash when it uses `<include>`, named rom-level scalings or `address=`).
 *
 * Mapping decisions (RomRaider's own reader, DOMRomUnmarshaller and
 * TableScaleUnmarshaller, is the reference where the format is silent):
 * - Inheritance: a rom's `base="XMLID"` (RomRaider) and its `<include>XMLID
 *   </include>` (EcuFlash) name roms whose tables and scalings it inherits;
 *   they are looked for in the same file (concatenate the files into one
 *   `<roms>` to resolve a base kept in another file). A table of the
 *   inheriting rom merges into the table of the same name: its attributes
 *   override, its axes merge with the axis of the same type (or name; an
 *   EcuFlash axis named just `X` or `Y` is the base's axis of that type,
 *   keeping its name, elements and scaling), its
 *   `<scaling>`, `<data>`, `<state>` and `<description>` children replace
 *   the base's. `omit="true"` removes an inherited table; a table's own
 *   `base="Other table"` starts from a copy of that table.
 * - Which rom: among those named by `romId` (all when absent) and, when
 *   some do, those whose `filesize` (declared or inherited) is the image
 *   size (a file may describe one software as a whole flash and as its
 *   calibration alone, under one xmlid): the only one; else the one whose
 *   internal id (`internalidaddress` with `internalidstring` or
 *   `internalidhex`) is in the stock image; else the one whose xmlid,
 *   internal id or ecuid is the firmware id; else the only rom no other rom
 *   inherits from, or the only such rom with an internal id of its own (base
 *   roms have none). A file whose rom cannot be told is refused, naming its
 *   roms.
 * - Tables that got no address from the chosen rom or any it inherits from
 *   are not in that ROM: left out, counted in one warning, not "skipped".
 * - Types: `1D` is a constant (one cell) or a 1-D table without axis; `2D`
 *   a 1-D table over its axis (X or Y, shown across as the viewer does); `3D` a
 *   2-D table, `sizex` columns by `sizey` rows (or the axes' `elements`),
 *   row after row, or column after column with `swapxy="true"`. `Switch`
 *   becomes an enum when it spans 1, 2 or 4 bytes (its states' `data` bytes
 *   read big endian), `BitwiseSwitch` one flag per `<bit>`, a 1-D table with
 *   an EcuFlash `bloblist` scaling an enum of its `<data name= value=>`.
 * - Elements: `storagetype` uint8/int8/uint16/int16/uint32/int32/float;
 *   `endian` big or little (big when absent); `<memmodel endian=>` in the
 *   romid overrides every table's, as in RomRaider. Floats in RomRaider's
 *   style are read big endian unless the memmodel says little: RomRaider
 *   does this to correct the `endian="little"` its Subaru definitions write
 *   on big-endian floats. EcuFlash floats follow their `endian`.
 * - Addresses are hex (`0x…` or bare). When the romid's `filesize` differs
 *   from the image size, addresses move by the difference (RomRaider's RAM
 *   offset), except on tables marked `beforeram`.
 * - Scalings: `expression`/`toexpr` of `x` is our `toPhysical` of X,
 *   `to_byte`/`frexpr` our `toRaw`. JEP's functions are renamed where ours
 *   differ (`ln` is our `log`, `log` our `log10`); an expression our
 *   evaluator cannot run skips the table (a `toRaw` is only left out).
 *   `format` gives the decimals (`0.00` or `%.2f`). `min`/`max` are display
 *   ranges, not imported as write limits. Of several `<scaling>` children
 *   the Metric one is used, else Default, else the first.
 * - An axis with an address is read from the image with the table's cell
 *   count along it; one with `<data>` values (a static axis) shows them as
 *   labels; one with neither is left out with a note.
 * - Not supported, skipped with the reason: `flipx`/`flipy` (cells stored in
 *   reverse; except a 2D table flipped together with its axis, read in
 *   storage order, or over static labels, which are reversed), `skipCells`,
 *   bloblists of bits (`storagebits` other than 8), a value `mask` of more than one bit, the
 *   Bosch subtract data layout, MOVI20 storage, switches of other sizes.
 * - Checksums: RomRaider `<checksum type="std">` (Nissan sum and XOR, when
 *   the XOR is stored right after the sum) is our `nissan-sum-xor`,
 *   `bytexor` our `byte-xor`, `motronicsingle` (no initial value, stored
 *   outside its range) our `byte-sum16`; other types and EcuFlash
 *   `<checksummodule>` are listed as not supported.
 */

import {
  CHECKSUM_LAYOUT,
  type ChecksumScheme,
  checksumSchemeSchema,
  type TuneItem,
  tuneDefinitionSchema,
} from "../../contracts/tune-definition";
import { validateExpression } from "../expression";
import { hexAddress, TuneError } from "./errors";
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
} from "./import-common";
import { attribute, childNamed, childrenNamed, parseXml, type XmlElement, XmlError } from "./xml";

export interface RomRaiderImportOptions {
  /** The firmware the definition is imported for; also used to tell which rom of a file is meant. */
  firmwareId: string;
  /** The firmware's image size; defaults to the romid's `filesize`. */
  imageSize?: number;
  /** The stock image: tells which rom of a file matches (its internal id). */
  stockImage?: Uint8Array;
  /** The xmlid of the rom to import, when the file holds several. */
  romId?: string;
}

/** A table (or an axis, which is a table inside a table) after inheritance. */
interface Spec {
  name: string;
  /** Attributes with lower-case names; the most derived definition wins. */
  attrs: Record<string, string>;
  axes: Spec[];
  scalings: XmlElement[];
  data?: string[];
  states?: Array<{ name: string; data: string }>;
  bits?: Array<{ name: string; position: string }>;
  description?: string;
  /** Line of the most derived definition. */
  line: number;
}

const lower = (text: string | undefined) => text?.trim().toLowerCase() ?? "";
const truthy = (text: string | undefined) => lower(text) === "true" || lower(text) === "1";

function axisKey(type: string | undefined): "x" | "y" | undefined {
  const t = lower(type);
  if (t === "x axis" || t === "static x axis" || t === "4") return "x";
  if (t === "y axis" || t === "static y axis" || t === "5") return "y";
  return undefined;
}

function mergeSpec(base: Spec | undefined, node: XmlElement): Spec {
  const attrs = { ...base?.attrs };
  for (const [key, value] of Object.entries(node.attributes)) attrs[key.toLowerCase()] = value;
  const axes = [...(base?.axes ?? [])];
  for (const child of childrenNamed(node, "table")) {
    const name = lower(attribute(child, "name"));
    // EcuFlash roms name an inherited axis by its type alone: `<table name="Y" address=…/>` is the base's "Y Axis".
    const shorthand = axisKey(attribute(child, "type")) === undefined && (name === "x" || name === "y");
    const key = axisKey(attribute(child, "type")) ?? (shorthand ? (name as "x" | "y") : undefined);
    let at = key ? axes.findIndex((a) => axisKey(a.attrs.type) === key) : -1;
    // By name only among axes of no other type: RomRaider names both axes of many maps alike ("dummy_b").
    if (at < 0 && name)
      at = axes.findIndex((a) => lower(a.name) === name && (key === undefined || axisKey(a.attrs.type) === undefined));
    if (at >= 0) {
      const merged = mergeSpec(axes[at], child);
      // The shorthand keeps the base axis' name and type: "Y" says which axis, not what it is called.
      axes[at] = shorthand
        ? { ...merged, name: axes[at].name, attrs: { ...merged.attrs, name: axes[at].name } }
        : merged;
    } else {
      const added = mergeSpec(undefined, child);
      axes.push(shorthand ? { ...added, attrs: { type: `${name.toUpperCase()} Axis`, ...added.attrs } } : added);
    }
  }
  const scalings = childrenNamed(node, "scaling");
  const data = childrenNamed(node, "data").map((d) => d.text.trim());
  const states = childrenNamed(node, "state").map((s) => ({
    name: attribute(s, "name") ?? "",
    data: attribute(s, "data") ?? "",
  }));
  const bits = childrenNamed(node, "bit").map((b) => ({
    name: attribute(b, "name") ?? "",
    position: attribute(b, "position") ?? "",
  }));
  const description = childNamed(node, "description")?.text.trim();
  return {
    name: attribute(node, "name")?.trim() ?? base?.name ?? "",
    attrs,
    axes,
    scalings: scalings.length ? scalings : (base?.scalings ?? []),
    data: data.length ? data : base?.data,
    states: states.length ? states : base?.states,
    bits: bits.length ? bits : base?.bits,
    description: description || base?.description,
    line: node.line,
  };
}

// ---------------------------------------------------------------------------
// Roms and inheritance

interface RomId {
  xmlId: string;
  fields: Record<string, string>;
  memEndian?: string;
}

function romIdOf(rom: XmlElement): RomId {
  const romid = childNamed(rom, "romid");
  const fields: Record<string, string> = {};
  let memEndian: string | undefined;
  for (const child of romid?.children ?? []) {
    fields[child.name.toLowerCase()] = child.text.trim();
    if (child.name.toLowerCase() === "memmodel" && attribute(child, "endian"))
      memEndian = lower(attribute(child, "endian"));
  }
  return { xmlId: fields.xmlid ?? "", fields, ...(memEndian && { memEndian }) };
}

function parentsOf(rom: XmlElement): string[] {
  const base = attribute(rom, "base")?.trim();
  const includes = childrenNamed(rom, "include").map((i) => i.text.trim());
  return [...(base && lower(base) !== "none" ? [base] : []), ...includes].filter(Boolean);
}

interface Resolved {
  tables: Map<string, Spec>;
  /** Tables the chosen rom itself names. */
  mentioned: Set<string>;
  scalings: Map<string, XmlElement>;
  checksums: XmlElement[];
  checksumModules: XmlElement[];
  unnamed: XmlElement[];
  /** Roms inherited from, farthest first. */
  chain: string[];
  missing: string[];
  romFields: Record<string, string>;
  memEndian?: string;
  ecuflash: boolean;
  notes: string[];
}

function resolve(
  rom: XmlElement,
  byId: Map<string, XmlElement>,
  target: XmlElement,
  path: XmlElement[],
  out: Resolved,
): void {
  const id = romIdOf(rom);
  for (const parentId of parentsOf(rom)) {
    const parent = byId.get(lower(parentId));
    if (!parent) {
      if (!out.missing.includes(parentId)) out.missing.push(parentId);
      out.notes.push(
        `${id.xmlId || "the rom"} inherits from ${parentId}, which is not in this file: import the file that holds ${parentId} together with this one`,
      );
      continue;
    }
    if (parent === rom || path.includes(parent)) {
      out.notes.push(`${id.xmlId} and ${parentId} inherit from each other: that inheritance is ignored`);
      continue;
    }
    resolve(parent, byId, target, [...path, rom], out);
    if (!out.chain.includes(romIdOf(parent).xmlId)) out.chain.push(romIdOf(parent).xmlId);
  }
  if (childrenNamed(rom, "include").length) out.ecuflash = true;
  Object.assign(out.romFields, id.fields);
  if (id.memEndian) out.memEndian = id.memEndian;
  for (const module of childNamed(rom, "romid") ? childrenNamed(childNamed(rom, "romid")!, "checksummodule") : [])
    out.checksumModules.push(module);
  for (const child of rom.children) {
    const kind = child.name.toLowerCase();
    if (kind === "scaling") {
      const name = attribute(child, "name");
      if (name) out.scalings.set(lower(name), child);
      out.ecuflash ||= attribute(child, "toexpr") !== undefined;
    } else if (kind === "checksum") {
      out.checksums.push(child);
    } else if (kind === "table") {
      const name = attribute(child, "name")?.trim();
      if (!name) {
        if (rom === target) out.unnamed.push(child);
        continue;
      }
      const key = lower(name);
      if (attribute(child, "address") !== undefined) out.ecuflash = true;
      if (truthy(attribute(child, "omit"))) {
        out.tables.delete(key);
        out.mentioned.delete(key);
        continue;
      }
      const copyOf = attribute(child, "base")?.trim();
      let start = out.tables.get(key);
      if (copyOf && lower(copyOf) !== "none") {
        const original = out.tables.get(lower(copyOf));
        if (original) start = original;
        else
          out.notes.push(`table "${name}" on line ${child.line}: its base table "${copyOf}" is not defined before it`);
      }
      const spec = mergeSpec(start, child);
      spec.name = name;
      out.tables.set(key, spec);
      if (rom === target) out.mentioned.add(key);
    }
  }
}

function parseHex(text: string): number | undefined {
  const t = text.trim();
  if (/^-?0x[0-9a-f]+$/i.test(t)) return (t.startsWith("-") ? -1 : 1) * parseInt(t.replace(/^-?0x/i, ""), 16);
  if (/^[0-9a-f]+$/i.test(t)) return parseInt(t, 16);
  return undefined;
}

function fileSize(text: string | undefined): number | undefined {
  const m = /^\s*(\d+)\s*(kb|mb|b)?\s*$/i.exec(text ?? "");
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = lower(m[2]);
  return unit === "kb" ? n * 1024 : unit === "mb" ? n * 1024 * 1024 : n;
}

/** Whether the rom's internal id is in the image (RomRaider's and EcuFlash's own test). */
function matchesImage(rom: XmlElement, image: Uint8Array): boolean {
  const { fields } = romIdOf(rom);
  const address = fields.internalidaddress !== undefined ? parseHex(fields.internalidaddress) : undefined;
  if (address === undefined || address < 0) return false;
  let expected: number[] | undefined;
  if (fields.internalidhex && /^([0-9a-f]{2})+$/i.test(fields.internalidhex)) {
    expected = fields.internalidhex.match(/../g)!.map((b) => parseInt(b, 16));
  } else if (fields.internalidstring) {
    expected = Array.from(fields.internalidstring, (c) => c.charCodeAt(0) & 0xff);
  }
  if (!expected || expected.length === 0 || address + expected.length > image.length) return false;
  return expected.every((b, i) => image[address + i] === b);
}

/** The file size a rom declares, itself or through the roms it inherits from. */
function declaredSize(rom: XmlElement, byId: Map<string, XmlElement>, seen: XmlElement[] = []): number | undefined {
  const own = fileSize(romIdOf(rom).fields.filesize);
  if (own !== undefined) return own;
  for (const parentId of parentsOf(rom)) {
    const parent = byId.get(lower(parentId));
    if (!parent || parent === rom || seen.includes(parent)) continue;
    const inherited = declaredSize(parent, byId, [...seen, rom]);
    if (inherited !== undefined) return inherited;
  }
  return undefined;
}

function chooseRom(roms: XmlElement[], byId: Map<string, XmlElement>, options: RomRaiderImportOptions): XmlElement {
  const label = (r: XmlElement) => romIdOf(r).xmlId || `(rom on line ${r.line})`;
  const ids = roms.map(label);
  const refuse = (why: string): never => {
    throw new TuneError("definition_invalid", `${why}; the file describes ${roms.length} roms: ${ids.join(", ")}`, {
      roms: [...new Set(ids)],
    });
  };
  let pool = roms;
  if (options.romId !== undefined) {
    pool = roms.filter((r) => lower(romIdOf(r).xmlId) === lower(options.romId));
    if (pool.length === 0) refuse(`no rom has the xmlid ${options.romId}`);
  }
  // Files describe the same software as a whole flash and as its calibration alone: the record's image size tells them apart.
  if (options.imageSize !== undefined) {
    const sized = pool.filter((r) => {
      const size = declaredSize(r, byId);
      return size === undefined || size === options.imageSize;
    });
    if (sized.length > 0) pool = sized;
  }
  if (pool.length === 1) return pool[0];
  const parents = new Set(roms.flatMap((r) => parentsOf(r).map(lower)));
  const mostDerived = (candidates: XmlElement[]) => {
    const leaves = candidates.filter((r) => !parents.has(lower(romIdOf(r).xmlId)));
    return leaves.length === 1 ? leaves[0] : candidates.length === 1 ? candidates[0] : undefined;
  };
  const image = options.stockImage;
  const identified = image ? mostDerived(pool.filter((r) => matchesImage(r, image))) : undefined;
  if (identified) return identified;
  const firmware = lower(options.firmwareId);
  const byFirmware = pool.filter((r) => {
    const f = romIdOf(r).fields;
    return [f.xmlid, f.internalidstring, f.internalidhex, f.ecuid, f.caseid].some(
      (v) => v !== undefined && lower(v) === firmware,
    );
  });
  const named = mostDerived(byFirmware);
  if (named) return named;
  // Base roms carry no internal id of their own (none, or EcuFlash's "----"): a file chosen with all its bases still tells its rom.
  const identifiable = pool.filter((r) => {
    const f = romIdOf(r).fields;
    return /[^-\s]/.test(f.internalidhex ?? "") || /[^-\s]/.test(f.internalidstring ?? "");
  });
  const leaf = mostDerived(pool) ?? mostDerived(identifiable);
  return (
    leaf ??
    refuse(
      `which rom describes ${options.firmwareId} cannot be told (none has its internal id in the stock file, the firmware id as its xmlid, internal id or ecuid, or alone the image size${options.imageSize !== undefined ? ` of ${options.imageSize} bytes` : ""}); choose one with romId`,
    )
  );
}

// ---------------------------------------------------------------------------
// Scalings and elements

const JEP_FUNCTIONS: Record<string, string> = {
  ln: "log",
  log: "log10",
  sqrt: "sqrt",
  abs: "abs",
  exp: "exp",
  round: "round",
  floor: "floor",
  ceil: "ceil",
  pow: "pow",
  min: "min",
  max: "max",
};
const EXPRESSION_TOKEN = /(\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)/g;
const checkedExpressions = new Map<string, string | null>();

/** A RomRaider/EcuFlash expression of `x` in our language; Skip naming the problem. */
export function convertExpression(src: string): string {
  const rewritten = src
    .trim()
    .replace(
      EXPRESSION_TOKEN,
      (token, number: string | undefined, name: string | undefined, at: number, whole: string) => {
        if (number !== undefined || name === undefined) return token;
        const call = /^\s*\(/.test(whole.slice(at + token.length));
        if (call) return JEP_FUNCTIONS[name.toLowerCase()] ?? name;
        return name.toLowerCase() === "x" ? "X" : name;
      },
    );
  if (rewritten === "") return "X";
  let error = checkedExpressions.get(rewritten);
  if (error === undefined) {
    const check = validateExpression(rewritten, ["X"]);
    error = check.ok ? null : check.error.message;
    if (checkedExpressions.size < 10_000) checkedExpressions.set(rewritten, error);
  }
  if (error !== null) skip(`expression "${src}": ${error}`);
  return rewritten;
}

/** Decimals from a RomRaider (Java DecimalFormat, `0.00`, `#`) or EcuFlash (printf, `%.2f`, `%d`) format. */
export function decimalsOf(format: string | undefined): number | undefined {
  if (format === undefined) return undefined;
  const printf = /%[-+ #0]*\d*(?:\.(\d+))?([diouxXfFeEgG])/.exec(format);
  if (printf) {
    if ("diouxX".includes(printf[2])) return 0;
    return Math.min(printf[1] !== undefined ? Number(printf[1]) : 6, 12);
  }
  const decimal = /^[^.]*?[#0,]+(?:\.([#0]*))?/.exec(format.trim());
  if (decimal) return Math.min(decimal[1]?.length ?? 0, 12);
  return undefined;
}

interface Scaling {
  expression?: string;
  toByte?: string;
  units?: string;
  format?: string;
  storagetype?: string;
  endian?: string;
  element: XmlElement;
}

interface Context {
  imageSize: number;
  /** Subtracted from addresses (RomRaider's RAM offset: filesize minus image size). */
  shift: number;
  memEndian?: "big" | "little";
  scalings: Map<string, XmlElement>;
  scalingBases: Map<string, XmlElement>;
  missing: string[];
  notes: string[];
}

function scalingFrom(element: XmlElement, under?: XmlElement): Scaling {
  const pick = (...names: string[]) => {
    for (const name of names) {
      const own = attribute(element, name);
      if (own !== undefined) return own;
    }
    for (const name of names) {
      const inherited = under && attribute(under, name);
      if (inherited !== undefined) return inherited;
    }
    return undefined;
  };
  return {
    expression: pick("expression", "toexpr"),
    toByte: pick("to_byte", "frexpr"),
    units: pick("units"),
    format: pick("format"),
    storagetype: pick("storagetype"),
    endian: pick("endian"),
    element,
  };
}

function scalingOf(ctx: Context, spec: Spec): Scaling | undefined {
  const named = spec.attrs.scaling?.trim();
  if (named) {
    const element = ctx.scalings.get(lower(named)) ?? ctx.scalingBases.get(lower(named));
    if (!element) {
      const where = ctx.missing.length ? ` (probably in ${ctx.missing.join(", ")}, which is not in this file)` : "";
      skip(`scaling "${named}" is not defined in this file${where}`);
    }
    return scalingFrom(element!);
  }
  if (spec.scalings.length === 0) return undefined;
  const category = (s: XmlElement) => lower(attribute(s, "category"));
  const chosen =
    spec.scalings.find((s) => category(s) === "metric") ??
    spec.scalings.find((s) => category(s) === "" || category(s) === "default") ??
    spec.scalings[0];
  const baseName = attribute(chosen, "base")?.trim();
  const base = baseName ? ctx.scalingBases.get(lower(baseName)) : undefined;
  if (baseName && !base) skip(`scaling base "${baseName}" is not a <scalingbase> of this file`);
  return scalingFrom(chosen, base);
}

function addressOf(ctx: Context, spec: Spec): number | undefined {
  const raw = spec.attrs.storageaddress ?? spec.attrs.address;
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = parseHex(raw);
  if (value === undefined) skip(`address "${raw}" is not a hex number`);
  const address = value! - (truthy(spec.attrs.beforeram) ? 0 : ctx.shift);
  if (address < 0) skip(`address ${hexAddress(value!)} lies before the start of the image`);
  return address;
}

function size(spec: Spec | undefined, ...names: string[]): number | undefined {
  if (!spec) return undefined;
  for (const name of names) {
    const raw = spec.attrs[name];
    if (raw === undefined || raw.trim() === "") continue;
    const n = Number(raw.trim());
    if (!Number.isInteger(n) || n < 1 || n > 65_536) skip(`${name} "${raw}" is not a positive whole number`);
    return n;
  }
  return undefined;
}

/** How many values an axis has: its elements or size attributes, else its static values. */
const axisCount = (axis: Spec | undefined) =>
  size(axis, "elements", "sizey", "sizex") ?? (axis?.data?.length || undefined);

/** The element (address, type, scaling) of a table's data or of an axis read from the image. */
function element(ctx: Context, spec: Spec, address: number): Record<string, unknown> & { bits: number } {
  const scaling = scalingOf(ctx, spec);
  const storage = lower(spec.attrs.storagetype ?? scaling?.storagetype);
  if (!storage) skip("no storagetype (on the table or its scaling)");
  const written = lower(spec.attrs.endian ?? scaling?.endian) || "big";
  if (written !== "big" && written !== "little") skip(`endian "${written}" is neither big nor little`);
  let endian = (ctx.memEndian ?? written) as "big" | "little";
  let bits: 8 | 16 | 32;
  let signed = false;
  let float = false;
  const int = /^(u?)int(8|16|32)$/.exec(storage);
  if (storage === "float") {
    float = true;
    bits = 32;
    const romRaiderStyle = spec.attrs.storageaddress !== undefined;
    if (!ctx.memEndian && romRaiderStyle) endian = "big";
  } else if (int) {
    bits = Number(int[2]) as 8 | 16 | 32;
    signed = int[1] === "";
  } else if (storage === "bloblist") {
    const bits = scaling && attribute(scaling.element, "storagebits");
    if (bits !== undefined && bits.trim() !== "8")
      return skip(`a bloblist of ${bits}-bit values (storagebits) is not supported`);
    return skip("a bloblist scaling (named byte strings) is read only on a 1D table, as an enum");
  } else if (storage.startsWith("movi20")) {
    return skip(`storagetype ${storage} (a value inside an SH instruction) is not supported`);
  } else {
    return skip(`storagetype "${storage}" is not supported`);
  }
  const toPhysical = within("scaling", () => convertExpression(scaling?.expression ?? "x"));
  let toRaw: string | undefined;
  if (scaling?.toByte !== undefined && scaling.toByte.trim() !== "") {
    try {
      toRaw = convertExpression(scaling.toByte);
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      ctx.notes.push(
        `${spec.name ? `"${spec.name}" ` : ""}to_byte/frexpr left out (${error.message}): writing inverts the expression when it is linear`,
      );
    }
  }
  const decimals = decimalsOf(scaling?.format);
  return {
    address,
    bits,
    signed,
    endian,
    float,
    toPhysical,
    ...(toRaw !== undefined && { toRaw }),
    ...(scaling?.units?.trim() && { unit: scaling.units.trim() }),
    ...(decimals !== undefined && { decimals }),
  };
}

/** An axis document, or null (with a note) when it cannot be read: the table imports without it. */
function axis(ctx: Context, spec: Spec, expected: number, label: string): Record<string, unknown> | null {
  const name = `axis ${label}${spec.name ? ` "${spec.name}"` : ""}`;
  try {
    const address = addressOf(ctx, spec);
    if (address !== undefined) {
      const declared = size(spec, "elements");
      if (declared !== undefined && declared !== expected)
        ctx.notes.push(`${name}: ${declared} elements given, read as the table's ${expected}`);
      const document = element(ctx, spec, address);
      const end = address + (document.bits / 8) * expected;
      if (end > ctx.imageSize) skip(`ends at ${hexAddress(end)}, beyond the image size ${hexAddress(ctx.imageSize)}`);
      return { ...document, count: expected };
    }
    if (spec.data?.length) {
      const labels = spec.data.slice(0, expected).map((v, i) => v || String(i));
      if (spec.data.length !== expected)
        ctx.notes.push(
          `${name}: ${spec.data.length} values for ${expected} cells${spec.data.length < expected ? ", the others show their index" : ", the extra ones left out"}`,
        );
      while (labels.length < expected) labels.push(String(labels.length));
      let unit: string | undefined;
      try {
        unit = scalingOf(ctx, spec)?.units?.trim();
      } catch (error) {
        if (!(error instanceof Skip)) throw error;
      }
      return { labels, ...(unit && { unit }) };
    }
    ctx.notes.push(`${name} has no address and no values: left out`);
    return null;
  } catch (error) {
    if (!(error instanceof Skip)) throw error;
    ctx.notes.push(`${name} left out: ${error.message}`);
    return null;
  }
}

/** The axis of `key` (x or y) a table has, preferring one read from the image, then one with values. */
function axisSpec(spec: Spec, key?: "x" | "y"): Spec | undefined {
  const candidates = spec.axes.filter((a) => key === undefined || axisKey(a.attrs.type) === key);
  return (
    candidates.find((a) => (a.attrs.storageaddress ?? a.attrs.address) !== undefined) ??
    candidates.find((a) => a.data?.length) ??
    candidates[0]
  );
}

function unsupportedLayout(spec: Spec): void {
  const skipCells = size(spec, "skipcells");
  if (skipCells !== undefined) skip(`skipCells ${skipCells} leaves gaps between cells, which is not supported`);
  const layout = lower(spec.attrs.datalayout);
  if (layout && layout !== "default") skip(`dataLayout "${spec.attrs.datalayout}" is not supported`);
  if (lower(spec.attrs.mask) && lower(spec.attrs.type) !== "1d")
    skip(`a value mask (${spec.attrs.mask}) is only read on a 1D table`);
}

/** The item documents of one table (several for a bitwise switch); Skip naming what cannot be read. */
function tableItems(ctx: Context, spec: Spec, address: number): Array<Record<string, unknown>> {
  const type = lower(spec.attrs.type);
  if (!type) {
    const where = ctx.missing.length
      ? `; it is probably defined in ${ctx.missing.join(", ")}, which is not in this file`
      : "";
    skip(`no type${where}`);
  }
  unsupportedLayout(spec);
  if (type === "3d") {
    if (truthy(spec.attrs.flipx) || truthy(spec.attrs.flipy))
      skip("flipx/flipy (cells stored in reverse order) is not supported on a 3D table");
    const xSpec = axisSpec(spec, "x");
    const ySpec = axisSpec(spec, "y");
    const cols = size(spec, "sizex") ?? axisCount(xSpec);
    const rows = size(spec, "sizey") ?? axisCount(ySpec);
    if (!cols || !rows) skip("its size is not given (sizex and sizey, or the axes' elements)");
    const z = { ...element(ctx, spec, address), rows, cols, columnMajor: truthy(spec.attrs.swapxy) };
    const x = xSpec ? axis(ctx, xSpec, cols!, "x") : null;
    const y = ySpec ? axis(ctx, ySpec, rows!, "y") : null;
    if (!xSpec) ctx.notes.push("no X axis");
    if (!ySpec) ctx.notes.push("no Y axis");
    return [{ kind: "table2d", z, ...(x && { x }), ...(y && { y }) }];
  }
  if (type === "2d") {
    const axisOf = axisSpec(spec);
    const count = size(spec, "sizey", "sizex") ?? axisCount(axisOf);
    if (!count) skip("its size is not given (sizey, or the axis' elements or values)");
    const flipped = truthy(spec.attrs.flipx) || truthy(spec.attrs.flipy);
    const axisFlipped = axisOf !== undefined && (truthy(axisOf.attrs.flipx) || truthy(axisOf.attrs.flipy));
    const staticAxis =
      axisOf !== undefined &&
      (axisOf.attrs.storageaddress ?? axisOf.attrs.address) === undefined &&
      Boolean(axisOf.data?.length);
    if (flipped !== axisFlipped && !(flipped && staticAxis)) {
      skip(
        "its cells and its axis are stored in different orders (flipx/flipy on one of them), which is not supported",
      );
    }
    const z = { ...element(ctx, spec, address), rows: 1, cols: count, columnMajor: false };
    let x = axisOf ? axis(ctx, axisOf, count!, axisKey(axisOf.attrs.type) ?? "x") : null;
    if (flipped && staticAxis && !axisFlipped && x && Array.isArray(x.labels)) {
      // Cells stored last to first under labels written first to last: the labels, reversed, name the cells in storage order.
      x = { ...x, labels: [...x.labels].reverse() };
      ctx.notes.push("stored in reverse order: shown in storage order, its labels reversed to match");
    } else if (flipped) {
      ctx.notes.push("stored in reverse order together with its axis: shown in storage order");
    }
    return [{ kind: "table1d", z, ...(x && { x }) }];
  }
  if (type === "1d") {
    const scaling = scalingOf(ctx, spec);
    if (lower(spec.attrs.storagetype ?? scaling?.storagetype) === "bloblist") return [blobList(scaling!, address)];
    const count = size(spec, "sizey", "sizex") ?? 1;
    const z = element(ctx, spec, address);
    const maskText = spec.attrs.mask?.trim();
    if (maskText) {
      const mask = parseHex(maskText);
      if (count !== 1 || mask === undefined || mask <= 0 || (mask & (mask - 1)) !== 0)
        skip(`a value mask (${maskText}) of more than one bit is not supported`);
      return [{ kind: "flag", z, mask }];
    }
    if (count === 1) return [{ kind: "constant", z }];
    return [{ kind: "table1d", z: { ...z, rows: 1, cols: count, columnMajor: false } }];
  }
  if (type === "switch") return [switchItem(spec, address)];
  if (type === "bitwiseswitch") return bitwiseSwitch(ctx, spec, address);
  if (axisKey(type)) skip(`an axis (${spec.attrs.type}) outside a table`);
  return skip(`table type "${spec.attrs.type}" is not supported`);
}

function bytesToRaw(bytes: number[]): number {
  return bytes.reduce((value, b) => value * 256 + b, 0);
}

function enumElement(address: number, bytes: number) {
  return { address, bits: bytes * 8, signed: false, endian: "big", float: false };
}

/** A RomRaider Switch: named byte strings at one address, shown as an enum when they fit one value. */
function switchItem(spec: Spec, address: number): Record<string, unknown> {
  const count = size(spec, "sizey", "sizex") ?? 1;
  const states = spec.states ?? [];
  if (states.length === 0) skip("a switch without states");
  if (count !== 1 && count !== 2 && count !== 4)
    skip(`a switch over ${count} bytes cannot be shown as one value (1, 2 or 4 bytes)`);
  const values = states.map((state) => {
    const tokens = state.data
      .split(state.data.includes(",") ? "," : /\s+/)
      .map((t) => t.trim())
      .filter(Boolean);
    const bytes = tokens.map((t) => parseHex(t));
    if (bytes.some((b) => b === undefined || b < 0 || b > 0xff))
      skip(`state "${state.name}": data "${state.data}" is not hex bytes`);
    if (bytes.length !== count) skip(`state "${state.name}" has ${bytes.length} bytes, the switch ${count}`);
    return { raw: bytesToRaw(bytes as number[]), label: state.name || `0x${state.data}` };
  });
  return { kind: "enum", z: enumElement(address, count), values: uniqueValues(values) };
}

/** An EcuFlash bloblist scaling on a 1D table: named byte strings, an enum when they fit one value. */
function blobList(scaling: Scaling, address: number): Record<string, unknown> {
  const entries = childrenNamed(scaling.element, "data").map((d) => ({
    name: attribute(d, "name") ?? "",
    value: (attribute(d, "value") ?? "").replace(/\s+/g, ""),
  }));
  const bits = attribute(scaling.element, "storagebits");
  if (bits !== undefined && bits.trim() !== "8")
    skip(`a bloblist of ${bits}-bit values (storagebits) is not supported`);
  if (entries.length === 0) skip("a bloblist scaling without values");
  const lengths = new Set(entries.map((e) => e.value.length / 2));
  const bytes = entries[0].value.length / 2;
  if (entries.some((e) => !/^([0-9a-f]{2})+$/i.test(e.value))) skip("a bloblist value is not hex bytes");
  if (lengths.size !== 1 || (bytes !== 1 && bytes !== 2 && bytes !== 4))
    skip(`a bloblist of ${[...lengths].join(", ")}-byte values cannot be shown as one value (1, 2 or 4 bytes)`);
  const values = entries.map((e) => ({ raw: parseInt(e.value, 16), label: e.name || `0x${e.value}` }));
  return { kind: "enum", z: enumElement(address, bytes), values: uniqueValues(values) };
}

function uniqueValues(values: Array<{ raw: number; label: string }>) {
  const seen = new Set<number>();
  return values.filter((v) => !seen.has(v.raw) && seen.add(v.raw));
}

/** A RomRaider BitwiseSwitch: one flag per named bit of one value. */
function bitwiseSwitch(ctx: Context, spec: Spec, address: number): Array<Record<string, unknown>> {
  const bits = spec.bits ?? [];
  if (bits.length === 0) skip("a bitwise switch without bits");
  const z = element(
    ctx,
    { ...spec, attrs: { ...spec.attrs, storagetype: spec.attrs.storagetype ?? "uint8" }, scalings: [] },
    address,
  );
  return bits.map((bit) => {
    const position = Number(bit.position);
    if (!Number.isInteger(position) || position < 0 || position >= z.bits)
      skip(`bit "${bit.name}": position ${bit.position} is not within ${z.bits} bits`);
    return {
      kind: "flag",
      title: `${spec.name}: ${bit.name || `bit ${position}`}`,
      z: { ...z, toPhysical: "X" },
      mask: 2 ** position,
    };
  });
}

// ---------------------------------------------------------------------------
// Checksums

function checksum(element: XmlElement, imageSize: number): ChecksumScheme {
  const type = lower(attribute(element, "type"));
  const hex = (name: string) => {
    const raw = attribute(element, name);
    const value = raw === undefined ? undefined : parseHex(raw);
    if (value === undefined || value < 0)
      skip(`not supported: ${type} checksum (${name} ${raw === undefined ? "missing" : `"${raw}" is not hex`})`);
    return value!;
  };
  let document: Record<string, unknown>;
  if (type === "std") {
    const [start, end, sum, xor] = [hex("start"), hex("end"), hex("sumloc"), hex("xorloc")];
    if (xor !== sum + 4)
      skip(
        `not supported: std checksum with its XOR at ${hexAddress(xor)} not right after its sum at ${hexAddress(sum)}`,
      );
    document = { type: "nissan-sum-xor", ranges: [[start, end - 1]], store: { address: sum } };
  } else if (type === "bytexor") {
    const [start, end, loc] = [hex("start"), hex("end"), hex("xorloc")];
    document = { type: "byte-xor", ranges: [[start, end - 1]], store: { address: loc } };
  } else if (type === "motronicsingle") {
    const [start, end, loc] = [hex("start"), hex("end"), hex("loc")];
    const initial = attribute(element, "initial");
    if (initial !== undefined && parseHex(initial) !== 0)
      skip(`not supported: motronicsingle checksum with an initial value ${initial}`);
    if (loc + 1 >= start && loc <= end)
      skip(
        "not supported: motronicsingle checksum stored inside its own range (RomRaider sums its own bytes, byte-sum16 leaves them out)",
      );
    document = { type: "byte-sum16", ranges: [[start, end]], store: { address: loc } };
  } else {
    return skip(`not supported: ${type || "untyped"} checksum`);
  }
  const [[start, end]] = document.ranges as number[][];
  const parsed = checksumSchemeSchema.safeParse({
    name: `${type} ${hexAddress(start)}-${hexAddress(end)}`,
    ...document,
  });
  if (!parsed.success) skip(`${type} checksum: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  const scheme = parsed.data!;
  const last = Math.max(
    scheme.store.address + CHECKSUM_LAYOUT[scheme.type].storeSize,
    ...scheme.ranges.map(([, e]) => e + 1),
  );
  if (last > imageSize) skip(`${type} checksum reaches beyond the image size ${hexAddress(imageSize)}`);
  return scheme;
}

// ---------------------------------------------------------------------------

function readRoot(text: string | XmlElement): XmlElement {
  if (typeof text !== "string") return text;
  try {
    return parseXml(text);
  } catch (error) {
    if (error instanceof XmlError)
      throw new TuneError("definition_invalid", `not a readable RomRaider/EcuFlash definition: ${error.message}`, {
        problems: [error.message],
      });
    throw error;
  }
}

/** Imports a RomRaider or EcuFlash definition; refuses only a file that is not one, or whose rom cannot be told. */
export function importRomRaider(text: string | XmlElement, options: RomRaiderImportOptions): DefinitionImport {
  const root = readRoot(text);
  const rootName = root.name.toLowerCase();
  if (rootName !== "roms" && rootName !== "rom") {
    throw new TuneError(
      "definition_invalid",
      `not a RomRaider/EcuFlash definition: the root element is <${root.name}>, expected <roms> or <rom>`,
      { problems: [] },
    );
  }
  const roms = rootName === "rom" ? [root] : childrenNamed(root, "rom");
  if (roms.length === 0) throw new TuneError("definition_invalid", "the file has no <rom>", { problems: [] });
  const byId = new Map<string, XmlElement>();
  for (const rom of roms) {
    const id = lower(romIdOf(rom).xmlId);
    if (id && !byId.has(id)) byId.set(id, rom);
  }
  const target = chooseRom(roms, byId, options);
  const resolved: Resolved = {
    tables: new Map(),
    mentioned: new Set(),
    scalings: new Map(),
    checksums: [],
    checksumModules: [],
    unnamed: [],
    chain: [],
    missing: [],
    romFields: {},
    ecuflash: false,
    notes: [],
  };
  resolve(target, byId, target, [], resolved);
  const xmlId = romIdOf(target).xmlId;

  const definedSize = fileSize(resolved.romFields.filesize);
  const imageSize = options.imageSize ?? definedSize;
  if (imageSize === undefined || !Number.isInteger(imageSize) || imageSize <= 0) {
    throw new TuneError(
      "definition_invalid",
      "the definition gives no image size (no filesize in its romid); give the firmware's image size",
      { problems: ["no filesize"] },
    );
  }
  const warnings: string[] = [...resolved.notes];
  const shift = definedSize !== undefined && definedSize > 0 && definedSize !== imageSize ? definedSize - imageSize : 0;
  if (shift !== 0) {
    warnings.push(
      `the definition describes a ${definedSize}-byte file and the image has ${imageSize} bytes: addresses move by ${-shift} as in RomRaider (tables marked beforeram excepted)`,
    );
  }
  const memEndian = resolved.memEndian === "big" || resolved.memEndian === "little" ? resolved.memEndian : undefined;
  const ctx: Context = {
    imageSize,
    shift,
    ...(memEndian && { memEndian }),
    scalings: resolved.scalings,
    scalingBases: new Map(
      rootName === "roms"
        ? childrenNamed(root, "scalingbase").map((s) => [lower(attribute(s, "name")), s] as const)
        : [],
    ),
    missing: resolved.missing,
    notes: [],
  };

  const skipped: DefinitionSkipped[] = [];
  const skipElement = (element: string, title: string | undefined, line: number, reason: string) => {
    skipped.push({ element, ...(title && { title }), line, reason });
    warnings.push(`${element} ${title ? JSON.stringify(title) : "(untitled)"} on line ${line} skipped: ${reason}`);
  };
  for (const unnamed of resolved.unnamed) skipElement("table", undefined, unnamed.line, "a table without a name");

  const categoryIds = new UniqueIds();
  const categoryByName = new Map<string, string>();
  const categories: Array<{ id: string; name: string }> = [];
  const categoryOf = (name: string | undefined) => {
    const trimmed = name?.trim();
    if (!trimmed) return undefined;
    let id = categoryByName.get(trimmed);
    if (id === undefined) {
      id = categoryIds.take(slug(trimmed).toLowerCase());
      categoryByName.set(trimmed, id);
      categories.push({ id, name: trimmed });
    }
    return id;
  };

  const itemIds = new UniqueIds();
  const items: TuneItem[] = [];
  let notInRom = 0;
  for (const [key, spec] of resolved.tables) {
    ctx.notes = [];
    try {
      const address = addressOf(ctx, spec);
      if (address === undefined) {
        if (!resolved.mentioned.has(key)) {
          notInRom++;
          continue;
        }
        skip("no storage address");
      }
      const documents = tableItems(ctx, spec, address!);
      const category = categoryOf(spec.attrs.category);
      const description = spec.description || spec.attrs.description?.trim();
      const checked = documents.map((document) =>
        checkedItem(
          {
            id: "item",
            title: spec.name,
            ...(category && { category }),
            ...(description && { description }),
            ...document,
          },
          imageSize,
        ),
      );
      for (const item of checked) {
        item.id = itemIds.take(slug(item.title));
        items.push(item);
      }
      for (const note of ctx.notes) warnings.push(`table ${JSON.stringify(spec.name)} on line ${spec.line}: ${note}`);
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      skipElement("table", spec.name, spec.line, error.message);
    }
  }
  if (notInRom > 0) {
    const from = resolved.chain.length ? ` (inherited from ${resolved.chain.join(", ")})` : "";
    warnings.push(
      `${notInRom} table${notInRom === 1 ? "" : "s"}${from} have no address for ${xmlId || "this rom"}: not in this ROM, left out`,
    );
  }

  const checksums: ChecksumScheme[] = [];
  for (const element of resolved.checksums) {
    try {
      checksums.push(checksum(element, imageSize));
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      skipElement("checksum", attribute(element, "type"), element.line, error.message);
    }
  }
  for (const module of resolved.checksumModules)
    skipElement(
      "checksummodule",
      module.text.trim(),
      module.line,
      `not supported: EcuFlash checksum module ${module.text.trim()}`,
    );

  const firmwareId = tuneDefinitionSchema.shape.firmwareId.safeParse(options.firmwareId);
  if (!firmwareId.success)
    throw new TuneError("definition_invalid", "a firmware id is needed", { problems: ["firmwareId is empty"] });
  const definition = { firmwareId: firmwareId.data, imageSize, categories, items };
  return {
    format: resolved.ecuflash ? "ecuflash" : "romraider",
    rom: { xmlId, inherits: resolved.chain },
    definition,
    patches: [],
    checksums,
    skipped,
    warnings,
    summary: summarize(definition, [], checksums, skipped),
  };
}
