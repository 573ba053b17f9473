/**
 * TunerPro XDF import: tables, functions, constants, flags, patches and
 * checksums into our definition document, tune-file patches and checksum
 * schemes (contracts/tune-definition.ts). Both XDF formats are read: the XML
 * one (TunerPro 5 and later, `<XDFFORMAT>`) and the older text one (XDF 1.x,
 * `XDF` / `%%TABLE%%` blocks; ./xdf-legacy.ts turns it into the same tree).
 *
 * Tolerant as TunerPro is: every element that can be read is imported, and
 * each one that cannot is skipped with the reason, its title, uniqueid and
 * line (`skipped`). Only a file that is not an XDF at all, or cannot be read
 * as one, is refused as a whole.
 *
 * Mapping decisions:
 * - Addresses are file offsets after BASEOFFSET: `address + offset`, or
 *   `address - offset` when `subtract` is set.
 * - `mmedtypeflags`: 0x01 signed, 0x02 little endian, 0x04 column major,
 *   0x10000 float. Missing `mmedelementsizebits` is 8 bits and missing row or
 *   column counts are 1, as TunerPro itself assumes.
 * - Strides: a minor stride of 0 or the element size is contiguous; the major
 *   stride (from one row, or column when column major, to the next) matters
 *   only when there are several of those: then 0, a negative value (TunerPro
 *   writes −32 as a "not set" placeholder) or one whole line is contiguous.
 *   Any other stride leaves gaps our elements cannot express: skipped.
 * - A table with one row or one column becomes `table1d`, its axis being
 *   whichever of the XDF x/y axes runs along the cells; otherwise `table2d`.
 *   An XDFFUNCTION (a lookup from its x axis to its y axis) becomes a
 *   `table1d` whose cells are the y values over the x axis.
 * - An axis with `mmedaddress` is read from the image; one without but with
 *   LABELs is static (indexes without a LABEL show their index, as in
 *   TunerPro); one with neither is a plain index and is left out. An axis that
 *   cannot be read is left out with a warning; the table still imports.
 * - MATH equations: the cell value is `X` in our evaluator. TunerPro names it
 *   with the MATH's own VAR (`<VAR id="x" />`, `x/128`): that name, in any
 *   case, is read as X. VARs linked to other items or addresses are not
 *   supported and skip the element.
 * - REGION size: a size one short of a power of two (0xFFFF) is the last
 *   address written as the size, and is rounded up (0x10000).
 * - XDF min/max are display ranges in TunerPro, not write limits, so they are
 *   not imported as limits.
 * - CATEGORYMEM refers to CATEGORY index + 1; every one is kept (`category`
 *   the first, `categories` all when there are several).
 * - XDFPATCHENTRY without `basedata`: the base bytes are read from the stock
 *   image when the caller gives one; without it the patch is skipped, as its
 *   state could not be told nor the patch removed.
 * - XDFCHECKSUM: TunerPro's built-in calculation method 0 (a 16-bit sum of the
 *   bytes from datastart to dataend inclusive, stored big endian at
 *   storeaddress) is our `byte-sum16`; plugin checksums and other methods are
 *   listed as not supported.
 */

import {
  type ChecksumScheme,
  checksumSchemeSchema,
  type Patch,
  patchSchema,
  type TuneDefinition,
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
} from "./import-common";
import { isLegacyXdf, parseLegacyXdf } from "./xdf-legacy";
import { attribute, childNamed, childrenNamed, parseXml, type XmlElement, XmlError, type XmlSlip } from "./xml";

export interface XdfImportOptions {
  /** XDFs do not carry the software id; the admin importing it says which firmware it describes. */
  firmwareId: string;
  /** Defaults to the size of the XDF's first REGION. */
  imageSize?: number;
  /** The firmware's stock image, when known: patches without basedata take their base bytes from it. */
  stockImage?: Uint8Array;
}

/** One element that was not imported, and why. */
export type XdfSkipped = DefinitionSkipped;

export interface XdfImport extends DefinitionImport {
  format: "xdf" | "xdf-1.x";
}

const FLAG_SIGNED = 0x01;
const FLAG_LITTLE_ENDIAN = 0x02;
const FLAG_COLUMN_MAJOR = 0x04;
const FLAG_FLOAT = 0x10000;

export function parseXdfNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (/^[-+]?0x[0-9a-f]+$/i.test(t)) return (t.startsWith("-") ? -1 : 1) * parseInt(t.replace(/^[-+]?0x/i, ""), 16);
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return Number(t);
  return NaN;
}

function textOf(element: XmlElement, name: string): string | undefined {
  const child = childNamed(element, name);
  return child ? child.text.trim() : undefined;
}

interface Context {
  baseOffset: number;
  subtract: boolean;
  imageSize: number;
  /** Notes on the element being imported (it still imports). */
  notes: string[];
}

function fileAddress(ctx: Context, raw: number, what = "address"): number {
  const address = ctx.subtract ? raw - ctx.baseOffset : raw + ctx.baseOffset;
  if (address < 0) skip(`${what} ${hexAddress(raw)} minus the base offset ${hexAddress(ctx.baseOffset)} is negative`);
  return address;
}

function numberAttribute(element: XmlElement, name: string, fallback?: number): number {
  const raw = attribute(element, name);
  if (raw === undefined || raw.trim() === "") return fallback ?? skip(`missing ${name}`);
  const value = parseXdfNumber(raw);
  if (value === undefined || !Number.isFinite(value)) return skip(`${name} "${raw}" is not a number`);
  return value;
}

/** Equations already checked, and the error of those that failed: files repeat a few equations thousands of times. */
const checkedEquations = new Map<string, string | null>();

/** The MATH equation in terms of X (see the module notes). */
function equation(element: XmlElement): string {
  const math = childNamed(element, "MATH");
  if (!math) return "X";
  const src = attribute(math, "equation")?.trim();
  if (!src) return "X";
  const cellNames = new Set(["x"]);
  for (const v of childrenNamed(math, "VAR")) {
    const id = attribute(v, "id")?.trim();
    if (!id) continue;
    const type = attribute(v, "type")?.trim().toLowerCase();
    if (type === undefined || type === "" || type === "inline") cellNames.add(id.toLowerCase());
    else if (/^\w+$/.test(id) && new RegExp(`\\b${id}\\b`).test(src))
      skip(`equation "${src}": variable ${id} is linked (${type}) to another value, which is not supported`);
  }
  const rewritten = src.replace(/[A-Za-z_][A-Za-z0-9_]*/g, (name) => (cellNames.has(name.toLowerCase()) ? "X" : name));
  let error = checkedEquations.get(rewritten);
  if (error === undefined) {
    const check = validateExpression(rewritten, ["X"]);
    error = check.ok ? null : check.error.message;
    if (checkedEquations.size < 10_000) checkedEquations.set(rewritten, error);
  }
  if (error !== null) skip(`equation "${src}": ${error}`);
  return rewritten;
}

interface ElementFields {
  address: number;
  bits: 8 | 16 | 32;
  signed: boolean;
  endian: "big" | "little";
  float: boolean;
  columnMajor: boolean;
  rows: number;
  cols: number;
}

/** EMBEDDEDDATA to element fields (address, type, layout). */
function embedded(ctx: Context, data: XmlElement): ElementFields {
  if (attribute(data, "mmedaddress") === undefined) skip("no mmedaddress: nothing to read (a heading or divider)");
  const rawAddress = numberAttribute(data, "mmedaddress");
  const bits = numberAttribute(data, "mmedelementsizebits", 8);
  const flags = numberAttribute(data, "mmedtypeflags", 0);
  const rows = numberAttribute(data, "mmedrowcount", 1);
  const cols = numberAttribute(data, "mmedcolcount", 1);
  const float = (flags & FLAG_FLOAT) !== 0;
  if (bits !== 8 && bits !== 16 && bits !== 32) skip(`mmedelementsizebits ${bits} is not 8, 16 or 32`);
  if (float && bits !== 32) skip(`a float element must be 32 bits, mmedelementsizebits is ${bits}`);
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 1 || cols < 1) {
    skip(`mmedrowcount ${rows} and mmedcolcount ${cols} must be positive integers`);
  }
  const columnMajor = (flags & FLAG_COLUMN_MAJOR) !== 0;
  const minor = numberAttribute(data, "mmedminorstridebits", 0);
  const major = numberAttribute(data, "mmedmajorstridebits", 0);
  const inner = columnMajor ? rows : cols;
  const outer = columnMajor ? cols : rows;
  const minorOk = minor === 0 || minor === bits;
  const majorOk = outer === 1 || major <= 0 || major === bits * inner;
  if (!minorOk || !majorOk)
    skip(`element strides (major ${major}, minor ${minor} bits) leave gaps between cells, which is not supported`);
  return {
    address: fileAddress(ctx, rawAddress, "mmedaddress"),
    bits: bits as 8 | 16 | 32,
    signed: !float && (flags & FLAG_SIGNED) !== 0,
    endian: (flags & FLAG_LITTLE_ENDIAN) !== 0 ? "little" : "big",
    float,
    columnMajor,
    rows,
    cols,
  };
}

/** Scaling, unit and decimals shared by data elements and axes. */
function presentation(element: XmlElement): Record<string, unknown> {
  const out: Record<string, unknown> = { toPhysical: equation(element) };
  const unit = textOf(element, "units");
  if (unit) out.unit = unit;
  const decimals = parseXdfNumber(textOf(element, "decimalpl"));
  if (decimals !== undefined && Number.isInteger(decimals) && decimals >= 0 && decimals <= 12) out.decimals = decimals;
  return out;
}

function dataElement(
  ctx: Context,
  owner: XmlElement,
  part?: string,
): { fields: ElementFields; document: Record<string, unknown> } {
  const data = childNamed(owner, "EMBEDDEDDATA");
  try {
    if (!data) skip("missing EMBEDDEDDATA");
    const fields = embedded(ctx, data!);
    const shown = presentation(owner);
    const { address, bits, signed, endian, float } = fields;
    return { fields, document: { address, bits, signed, endian, float, ...shown } };
  } catch (error) {
    if (error instanceof Skip && part) throw new Skip(`${part}: ${error.message}`);
    throw error;
  }
}

/** An XDF axis to our axis document, or null for a plain index axis; never skips the table (a bad axis is left out with a note). */
function axis(ctx: Context, id: string, element: XmlElement, expected: number): Record<string, unknown> | null {
  try {
    const data = childNamed(element, "EMBEDDEDDATA");
    const indexCount = parseXdfNumber(textOf(element, "indexcount"));
    if (data && attribute(data, "mmedaddress") !== undefined) {
      const count = indexCount !== undefined && Number.isFinite(indexCount) ? indexCount : expected;
      if (count !== expected) skip(`indexcount ${count} does not match the table's ${expected} cells along it`);
      const fields = embedded(ctx, data);
      const shown = presentation(element);
      const { address, bits, signed, endian, float } = fields;
      const end = address + (bits / 8) * expected;
      if (end > ctx.imageSize) skip(`ends at ${hexAddress(end)}, beyond the image size ${hexAddress(ctx.imageSize)}`);
      return { address, bits, signed, endian, float, count: expected, ...shown };
    }
    const labels = childrenNamed(element, "LABEL");
    if (labels.length === 0) return null;
    const values: Array<string | undefined> = new Array(expected).fill(undefined);
    let given = 0;
    for (const label of labels) {
      const index = parseXdfNumber(attribute(label, "index"));
      const value = attribute(label, "value");
      if (index === undefined || !Number.isInteger(index) || index < 0 || value === undefined) continue;
      if (index >= expected) continue;
      if (values[index] === undefined) given++;
      values[index] = value;
    }
    if (given === 0) return null;
    if (given < expected)
      ctx.notes.push(`axis ${id}: labels for ${given} of ${expected} indexes, the others show their index`);
    const unit = textOf(element, "units");
    return { labels: values.map((v, i) => v ?? String(i)), ...(unit && { unit }) };
  } catch (error) {
    if (!(error instanceof Skip)) throw error;
    ctx.notes.push(`axis ${id} left out: ${error.message}`);
    return null;
  }
}

function axesOf(element: XmlElement): Map<string, XmlElement> {
  return new Map(childrenNamed(element, "XDFAXIS").map((a) => [(attribute(a, "id") ?? "").toLowerCase(), a]));
}

function table(ctx: Context, element: XmlElement, base: Record<string, unknown>): Record<string, unknown> {
  const axes = axesOf(element);
  const zAxis = axes.get("z") ?? skip('missing XDFAXIS id="z"');
  const z = dataElement(ctx, zAxis, "axis z");
  const { rows, cols, columnMajor } = z.fields;
  const zDocument = { ...z.document, rows, cols, columnMajor };
  const readAxis = (id: "x" | "y", count: number) => {
    const xml = axes.get(id);
    return xml ? axis(ctx, id, xml, count) : null;
  };
  if (rows === 1 || cols === 1) {
    const along = cols > 1 || rows === 1 ? "x" : "y";
    const x = readAxis(along, rows * cols);
    return { ...base, kind: "table1d", z: zDocument, ...(x && { x }) };
  }
  const x = readAxis("x", cols);
  const y = readAxis("y", rows);
  return { ...base, kind: "table2d", z: zDocument, ...(x && { x }), ...(y && { y }) };
}

/** XDFFUNCTION: y = f(x) over breakpoints, both read from the image; a 1-D table of the y values over the x axis. */
function xdfFunction(ctx: Context, element: XmlElement, base: Record<string, unknown>): Record<string, unknown> {
  const axes = axesOf(element);
  const yAxis = axes.get("y") ?? skip('missing XDFAXIS id="y" (the function\'s values)');
  const y = dataElement(ctx, yAxis, "axis y");
  const indexCount = parseXdfNumber(textOf(yAxis, "indexcount"));
  const count =
    indexCount !== undefined && Number.isInteger(indexCount) && indexCount > 0
      ? indexCount
      : y.fields.rows * y.fields.cols;
  const xAxis = axes.get("x");
  const x = xAxis ? axis(ctx, "x", xAxis, count) : null;
  return { ...base, kind: "table1d", z: { ...y.document, rows: 1, cols: count, columnMajor: false }, ...(x && { x }) };
}

function flag(ctx: Context, element: XmlElement, base: Record<string, unknown>): Record<string, unknown> {
  const data = dataElement(ctx, element);
  const maskText = textOf(element, "mask");
  const mask = parseXdfNumber(maskText);
  if (mask === undefined) skip("missing mask");
  if (!Number.isInteger(mask) || mask! <= 0) skip(`mask ${maskText} is not a positive integer`);
  return { ...base, kind: "flag", z: data.document, mask };
}

function patch(
  ctx: Context,
  element: XmlElement,
  base: { id: string; title: string; description?: string },
  options: XdfImportOptions,
) {
  const entries: Array<{ address: number; patch: string; base: string }> = [];
  const xmlEntries = childrenNamed(element, "XDFPATCHENTRY");
  if (xmlEntries.length === 0) skip("has no XDFPATCHENTRY");
  xmlEntries.forEach((entry, i) => {
    const at = `entry ${i + 1}${attribute(entry, "name") ? ` "${attribute(entry, "name")}"` : ""}`;
    try {
      const rawAddress = numberAttribute(entry, "address");
      const size = numberAttribute(entry, "datasize");
      const patchData = attribute(entry, "patchdata")?.replace(/\s+/g, "") ?? skip("missing patchdata");
      let baseData = attribute(entry, "basedata")?.replace(/\s+/g, "");
      if (!/^([0-9a-fA-F]{2})+$/.test(patchData)) skip("patchdata must be hex bytes");
      if (patchData.length / 2 !== size)
        skip(`datasize ${size} differs from patchdata (${patchData.length / 2} bytes)`);
      const address = fileAddress(ctx, rawAddress);
      if (address + size > ctx.imageSize) skip(`ends beyond the image size ${hexAddress(ctx.imageSize)}`);
      if (baseData === undefined || baseData === "") {
        const stock = options.stockImage;
        if (!stock)
          skip(
            "no basedata, and no stock file to read the base bytes from (without them the patch could not be checked or removed)",
          );
        if (address + size > stock!.length) skip("lies beyond the stock file");
        baseData = Array.from(stock!.subarray(address, address + size), (b) => b.toString(16).padStart(2, "0")).join(
          "",
        );
        if (baseData.toUpperCase() === patchData.toUpperCase())
          skip("no basedata, and the stock file already holds the patch bytes: the original bytes are unknown");
        ctx.notes.push(`${at}: no basedata; base bytes read from the stock file`);
      }
      if (!/^([0-9a-fA-F]{2})+$/.test(baseData) || baseData.length !== patchData.length) {
        skip(`basedata must be hex bytes as long as patchdata (${patchData.length / 2} bytes)`);
      }
      entries.push({ address, patch: patchData, base: baseData });
    } catch (error) {
      if (error instanceof Skip) throw new Skip(`${at}: ${error.message}`);
      throw error;
    }
  });
  return { ...base, firmwareIds: [options.firmwareId], entries };
}

/** XDFCHECKSUM to a scheme we can compute; Skip with "not supported: …" otherwise. */
function checksum(ctx: Context, element: XmlElement, title: string): ChecksumScheme {
  const region = childNamed(element, "REGION");
  if (!region) skip(`not supported: ${title} (no REGION)`);
  const plugin = textOf(region!, "pluginmoduleid");
  if (plugin) skip(`not supported: ${title} (TunerPro plugin ${plugin})`);
  const method = parseXdfNumber(textOf(region!, "calculationmethod")) ?? 0;
  if (method !== 0) skip(`not supported: ${title} (calculation method ${method})`);
  const dataBits = parseXdfNumber(textOf(region!, "datasizebits")) ?? 8;
  const storeBits = parseXdfNumber(textOf(region!, "storesizebits")) ?? 16;
  if (dataBits !== 8 || storeBits !== 16)
    skip(`not supported: ${title} (a sum of ${dataBits}-bit data stored in ${storeBits} bits)`);
  const number = (name: string) => {
    const value = parseXdfNumber(textOf(region!, name));
    if (value === undefined || !Number.isInteger(value)) skip(`${title}: REGION ${name} is missing or not a number`);
    return fileAddress(ctx, value!, name);
  };
  const scheme = checksumSchemeSchema.safeParse({
    name: title,
    type: "byte-sum16",
    ranges: [[number("datastart"), number("dataend")]],
    store: { address: number("storeaddress") },
  });
  if (!scheme.success) skip(`${title}: ${scheme.error.issues.map((i) => i.message).join("; ")}`);
  const s = scheme.data!;
  const end = Math.max(s.store.address + s.store.size, ...s.ranges.map(([, e]) => e + 1));
  if (end > ctx.imageSize)
    skip(`${title}: reaches ${hexAddress(end - 1)}, beyond the image size ${hexAddress(ctx.imageSize)}`);
  return s;
}

/** The root element of an XDF in either format, refusing what is not one with a message that says what it is. */
function readRoot(text: string): { root: XmlElement; format: XdfImport["format"]; slips: XmlSlip[] } {
  const slips: XmlSlip[] = [];
  if (isLegacyXdf(text)) return { root: parseLegacyXdf(text), format: "xdf-1.x", slips };
  let root: XmlElement;
  try {
    // A local slip (an unclosed root, a </min> closing <max>) is read past and reported, as TunerPro opens such files.
    root = parseXml(text, {}, slips);
  } catch (error) {
    if (error instanceof XmlError) {
      const start = text.replace(/^\uFEFF/, "").trimStart();
      const what = start.startsWith("<")
        ? "not a readable XDF"
        : "not an XDF (neither the XML format nor the XDF 1.x text format)";
      throw new TuneError("xdf_invalid", `${what}: ${error.message}`, { problems: [error.message] });
    }
    throw error;
  }
  if (root.name.toUpperCase() !== "XDFFORMAT") {
    const hint =
      root.name.toLowerCase() === "rom" || root.name.toLowerCase() === "roms"
        ? " (a RomRaider/EcuFlash definition)"
        : "";
    throw new TuneError("xdf_invalid", `not an XDF: the root element is <${root.name}>${hint}, expected <XDFFORMAT>`, {
      problems: [],
    });
  }
  return { root, format: "xdf", slips };
}

const ITEM_ELEMENTS = new Set(["XDFTABLE", "XDFCONSTANT", "XDFFLAG", "XDFFUNCTION"]);

function describe(kind: string, title: string | undefined, uniqueId: string | undefined, line: number): string {
  return `${kind} ${title ? JSON.stringify(title) : "(untitled)"}${uniqueId ? ` (uniqueid ${uniqueId})` : ""} on line ${line}`;
}

/** Imports an XDF (XML or 1.x text); refuses only a file that is not a readable XDF, with TuneError `xdf_invalid`. */
export function importXdf(text: string, options: XdfImportOptions): XdfImport {
  const { root, format, slips } = readRoot(text);
  const header = childNamed(root, "XDFHEADER");
  const ctx: Context = { baseOffset: 0, subtract: false, imageSize: 0, notes: [] };
  const headerNumber = (element: XmlElement, name: string, fallback: number) => {
    try {
      return numberAttribute(element, name, fallback);
    } catch (error) {
      if (error instanceof Skip)
        throw new TuneError(
          "xdf_invalid",
          `the XDF header cannot be read: ${element.name} ${error.message} (line ${element.line})`,
          { problems: [error.message] },
        );
      throw error;
    }
  };
  const baseOffsetElement = header && childNamed(header, "BASEOFFSET");
  if (baseOffsetElement) {
    ctx.baseOffset = headerNumber(baseOffsetElement, "offset", 0);
    ctx.subtract = headerNumber(baseOffsetElement, "subtract", 0) !== 0;
  }
  const region = header && childNamed(header, "REGION");
  let regionSize = region ? headerNumber(region, "size", NaN) : undefined;
  // 0xFFFF for a 64 KiB image: the last address written as the size (TunerPro files of every age do it).
  if (regionSize !== undefined && regionSize > 0xff && (regionSize & (regionSize + 1)) === 0) regionSize += 1;
  const imageSize = options.imageSize ?? regionSize;
  if (imageSize === undefined || !Number.isInteger(imageSize) || imageSize <= 0) {
    throw new TuneError(
      "xdf_invalid",
      "the XDF gives no image size (no REGION size in its header); give the firmware's image size",
      { problems: ["no REGION size"] },
    );
  }
  ctx.imageSize = imageSize;

  const skipped: XdfSkipped[] = [];
  const warnings: string[] = [];
  const skipElement = (element: XmlElement, title: string | undefined, reason: string) => {
    const uniqueId = attribute(element, "uniqueid");
    skipped.push({
      element: element.name,
      ...(title && { title }),
      ...(uniqueId && { uniqueId }),
      line: element.line,
      reason,
    });
    warnings.push(`${describe(element.name, title, uniqueId, element.line)} skipped: ${reason}`);
  };

  const categoryIds = new UniqueIds();
  const categories: Array<{ id: string; name: string }> = [];
  const categoryByNumber = new Map<number, string>();
  for (const category of header ? childrenNamed(header, "CATEGORY") : []) {
    const index = parseXdfNumber(attribute(category, "index"));
    const name = attribute(category, "name")?.trim();
    if (index === undefined || !Number.isInteger(index) || !name) {
      skipElement(category, name, "a CATEGORY needs an index and a name");
      continue;
    }
    const id = categoryIds.take(slug(name).toLowerCase());
    categories.push({ id, name });
    categoryByNumber.set(index + 1, id);
  }
  const knownCategories = new Set(categories.map((c) => c.id));

  const itemIds = new UniqueIds();
  const patchIds = new UniqueIds();
  const items: TuneItem[] = [];
  const patches: Patch[] = [];
  const checksums: ChecksumScheme[] = [];

  for (const element of root.children) {
    const kind = element.name.toUpperCase();
    if (kind === "XDFHEADER") continue;
    const title = textOf(element, "title");
    const uniqueId = attribute(element, "uniqueid");
    ctx.notes = [];
    try {
      if (kind === "XDFCHECKSUM") {
        checksums.push(checksum(ctx, element, title || `checksum on line ${element.line}`));
        continue;
      }
      if (!ITEM_ELEMENTS.has(kind) && kind !== "XDFPATCH") skip(`${element.name} is not a kind of element we import`);
      if (!title) skip("missing title");
      const description = textOf(element, "description");
      const base = { title: title!, ...(description && { description }) };
      if (kind === "XDFPATCH") {
        const parsed = patchSchema.safeParse(patch(ctx, element, { id: "patch", ...base }, options));
        if (!parsed.success) skip(parsed.error.issues.map((i) => i.message).join("; "));
        patches.push({ ...parsed.data!, id: patchIds.take(slug(title!).toLowerCase()) });
      } else {
        const memberOf = [
          ...new Set(
            childrenNamed(element, "CATEGORYMEM")
              .map((m) => categoryByNumber.get(parseXdfNumber(attribute(m, "category")) ?? NaN))
              .filter((id): id is string => id !== undefined && knownCategories.has(id)),
          ),
        ];
        const itemBase = {
          id: "item",
          ...base,
          ...(memberOf.length > 0 && { category: memberOf[0] }),
          ...(memberOf.length > 1 && { categories: memberOf }),
        };
        let document: Record<string, unknown>;
        if (kind === "XDFTABLE") document = table(ctx, element, itemBase);
        else if (kind === "XDFFUNCTION") document = xdfFunction(ctx, element, itemBase);
        else if (kind === "XDFFLAG") document = flag(ctx, element, itemBase);
        else document = { ...itemBase, kind: "constant", z: dataElement(ctx, element).document };
        items.push(checkedItem(document, imageSize));
        items[items.length - 1].id = itemIds.take(slug(title!));
      }
      const label = describe(element.name, title, uniqueId, element.line);
      for (const note of ctx.notes) warnings.push(`${label}: ${note}`);
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      skipElement(element, title, error.message);
    }
  }

  // Each item went through the item schema and the image bounds alone (checkedItem), ids are unique and
  // categories known by construction: parsing all of them again as a document would double the import's time.
  const firmwareId = tuneDefinitionSchema.shape.firmwareId.safeParse(options.firmwareId);
  if (!firmwareId.success)
    throw new TuneError("xdf_invalid", "a firmware id is needed", { problems: ["firmwareId is empty"] });
  const definition = { data: { firmwareId: firmwareId.data, imageSize, categories, items } satisfies TuneDefinition };
  for (const slip of slips)
    warnings.push(`malformed XML on line ${slip.line}: ${slip.message}; read as far as it goes`);
  return {
    format,
    definition: definition.data,
    patches,
    checksums,
    skipped,
    warnings,
    summary: summarize(definition.data, patches, checksums, skipped),
  };
}
