/**
 * TunerPro XDF import: tables, constants, flags and patches into our
 * definition document and tune-file patches (contracts/tune-definition.ts).
 *
 * Mapping decisions:
 * - Addresses are file offsets after BASEOFFSET: `address + offset`, or
 *   `address - offset` when `subtract` is set.
 * - `mmedtypeflags`: 0x01 signed, 0x02 little endian, 0x04 column major,
 *   0x10000 float. Missing `mmedelementsizebits` is 8 bits and missing row or
 *   column counts are 1, as TunerPro itself assumes.
 * - A table with one row or one column becomes `table1d`, its axis being
 *   whichever of the XDF x/y axes runs along the cells; otherwise `table2d`.
 * - An axis with `mmedaddress` is read from the image; one without but with
 *   LABELs is static; one with neither is a plain index and is left out.
 * - MATH equations must be expressions of X in our evaluator; TunerPro's
 *   linked variables are refused by name. Writing inverts them when linear.
 * - XDF min/max are display ranges in TunerPro, not write limits, so they are
 *   not imported as limits.
 * - Element strides other than the natural ones are refused: our elements are
 *   contiguous.
 * Every problem found is collected, and the import fails as a whole naming
 * each element and field at fault.
 */
import { z } from "zod";
import {
  patchSchema,
  tuneDefinitionSchema,
  type Patch,
  type TuneDefinition,
} from "../../contracts/tune-definition";
import { validateExpression } from "../../contracts/expression";
import { TuneError, hexAddress } from "./errors";
import { attribute, childNamed, childrenNamed, parseXml, XmlError, type XmlElement } from "./xml";

export interface XdfImportOptions {
  /** XDFs do not carry the software id; the admin importing it says which firmware it describes. */
  firmwareId: string;
  /** Defaults to the size of the XDF's first REGION. */
  imageSize?: number;
}

export interface XdfImport {
  definition: TuneDefinition;
  patches: Patch[];
  /** Things skipped on purpose (unsupported element kinds), for the admin to review. */
  warnings: string[];
}

const FLAG_SIGNED = 0x01;
const FLAG_LITTLE_ENDIAN = 0x02;
const FLAG_COLUMN_MAJOR = 0x04;
const FLAG_FLOAT = 0x10000;

/** Collects problems; every lookup that fails records one and returns undefined so the walk can go on. */
class Problems {
  readonly list: string[] = [];

  add(where: string, message: string): undefined {
    this.list.push(`${where}: ${message}`);
    return undefined;
  }
}

function parseNumber(text: string | undefined): number | undefined {
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

function slug(text: string): string {
  const s = text
    .normalize("NFKD")
    .replace(/[^\w.-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 100);
  return s || "item";
}

class UniqueIds {
  private readonly used = new Set<string>();

  take(base: string): string {
    let id = base;
    for (let n = 2; this.used.has(id); n++) id = `${base}_${n}`;
    this.used.add(id);
    return id;
  }
}

interface Context {
  problems: Problems;
  baseOffset: number;
  subtract: boolean;
}

function fileAddress(ctx: Context, where: string, raw: number): number | undefined {
  const address = ctx.subtract ? raw - ctx.baseOffset : raw + ctx.baseOffset;
  if (address < 0) return ctx.problems.add(where, `address ${hexAddress(raw)} minus the base offset ${hexAddress(ctx.baseOffset)} is negative`);
  return address;
}

function numberAttribute(ctx: Context, where: string, element: XmlElement, name: string, fallback?: number): number | undefined {
  const raw = attribute(element, name);
  if (raw === undefined) return fallback ?? ctx.problems.add(where, `missing ${name}`);
  const value = parseNumber(raw);
  if (value === undefined || !Number.isFinite(value)) return ctx.problems.add(where, `${name} "${raw}" is not a number`);
  return value;
}

function equation(ctx: Context, where: string, element: XmlElement): string | undefined {
  const math = childNamed(element, "MATH");
  if (!math) return "X";
  const src = attribute(math, "equation");
  if (src === undefined) return ctx.problems.add(where, "MATH has no equation");
  const check = validateExpression(src.trim(), ["X"]);
  if (!check.ok) return ctx.problems.add(where, `equation "${src}": ${check.error.message}`);
  return src.trim();
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
function embedded(ctx: Context, where: string, data: XmlElement): ElementFields | undefined {
  const rawAddress = numberAttribute(ctx, where, data, "mmedaddress");
  const bits = numberAttribute(ctx, where, data, "mmedelementsizebits", 8);
  const flags = numberAttribute(ctx, where, data, "mmedtypeflags", 0);
  const rows = numberAttribute(ctx, where, data, "mmedrowcount", 1);
  const cols = numberAttribute(ctx, where, data, "mmedcolcount", 1);
  if (rawAddress === undefined || bits === undefined || flags === undefined || rows === undefined || cols === undefined) return undefined;
  const float = (flags & FLAG_FLOAT) !== 0;
  if (bits !== 8 && bits !== 16 && bits !== 32) return ctx.problems.add(where, `mmedelementsizebits ${bits} is not 8, 16 or 32`);
  if (float && bits !== 32) return ctx.problems.add(where, `a float element must be 32 bits, mmedelementsizebits is ${bits}`);
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 1 || cols < 1) {
    return ctx.problems.add(where, `mmedrowcount ${rows} and mmedcolcount ${cols} must be positive integers`);
  }
  const columnMajor = (flags & FLAG_COLUMN_MAJOR) !== 0;
  const minor = numberAttribute(ctx, where, data, "mmedminorstridebits", 0) ?? 0;
  const major = numberAttribute(ctx, where, data, "mmedmajorstridebits", 0) ?? 0;
  const inner = columnMajor ? rows : cols;
  if ((minor !== 0 && minor !== bits) || (major !== 0 && major !== bits * inner)) {
    return ctx.problems.add(where, `element strides (major ${major}, minor ${minor} bits) are not contiguous and are not supported`);
  }
  const address = fileAddress(ctx, where, rawAddress);
  if (address === undefined) return undefined;
  return {
    address,
    bits,
    signed: !float && (flags & FLAG_SIGNED) !== 0,
    endian: (flags & FLAG_LITTLE_ENDIAN) !== 0 ? "little" : "big",
    float,
    columnMajor,
    rows,
    cols,
  };
}

/** Scaling, unit and decimals shared by data elements and axes. */
function presentation(ctx: Context, where: string, element: XmlElement): Record<string, unknown> | undefined {
  const toPhysical = equation(ctx, where, element);
  if (toPhysical === undefined) return undefined;
  const out: Record<string, unknown> = { toPhysical };
  const unit = textOf(element, "units");
  if (unit) out.unit = unit;
  const decimals = parseNumber(textOf(element, "decimalpl"));
  if (decimals !== undefined && Number.isInteger(decimals) && decimals >= 0 && decimals <= 12) out.decimals = decimals;
  return out;
}

function dataElement(ctx: Context, where: string, owner: XmlElement): { fields: ElementFields; document: Record<string, unknown> } | undefined {
  const data = childNamed(owner, "EMBEDDEDDATA");
  if (!data) return ctx.problems.add(where, "missing EMBEDDEDDATA");
  const fields = embedded(ctx, where, data);
  const shown = presentation(ctx, where, owner);
  if (!fields || !shown) return undefined;
  const { address, bits, signed, endian, float } = fields;
  return { fields, document: { address, bits, signed, endian, float, ...shown } };
}

/** An XDF axis to our axis document, or null for a plain index axis. */
function axis(ctx: Context, where: string, element: XmlElement, expected: number): Record<string, unknown> | null | undefined {
  const data = childNamed(element, "EMBEDDEDDATA");
  const indexCount = parseNumber(textOf(element, "indexcount"));
  if (data && attribute(data, "mmedaddress") !== undefined) {
    if (indexCount === undefined) return ctx.problems.add(where, "missing indexcount");
    if (indexCount !== expected) return ctx.problems.add(where, `indexcount ${indexCount} does not match the table's ${expected} cells along it`);
    const fields = embedded(ctx, where, data);
    const shown = presentation(ctx, where, element);
    if (!fields || !shown) return undefined;
    const { address, bits, signed, endian, float } = fields;
    return { address, bits, signed, endian, float, count: expected, ...shown };
  }
  const labels = childrenNamed(element, "LABEL");
  if (labels.length === 0) return null;
  const values: string[] = [];
  for (const label of labels) {
    const index = parseNumber(attribute(label, "index"));
    const value = attribute(label, "value");
    if (index === undefined || !Number.isInteger(index) || index < 0) return ctx.problems.add(where, "LABEL without a valid index");
    if (value === undefined) return ctx.problems.add(where, `LABEL ${index} has no value`);
    values[index] = value;
  }
  const count = indexCount ?? values.length;
  if (count !== expected) return ctx.problems.add(where, `${count} labels do not match the table's ${expected} cells along it`);
  if (values.length !== count || values.some((v) => v === undefined)) {
    return ctx.problems.add(where, `labels must cover indexes 0 to ${count - 1}`);
  }
  const unit = textOf(element, "units");
  return { labels: values, ...(unit && { unit }) };
}

function describe(kind: string, element: XmlElement, title: string | undefined): string {
  const id = attribute(element, "uniqueid");
  return `${kind} ${title ? JSON.stringify(title) : "(untitled)"}${id ? ` (uniqueid ${id})` : ""} on line ${element.line}`;
}

function table(ctx: Context, where: string, element: XmlElement, base: Record<string, unknown>): Record<string, unknown> | undefined {
  const axes = new Map(childrenNamed(element, "XDFAXIS").map((a) => [(attribute(a, "id") ?? "").toLowerCase(), a]));
  const zAxis = axes.get("z");
  if (!zAxis) return ctx.problems.add(where, 'missing XDFAXIS id="z"');
  const z = dataElement(ctx, `${where} axis z`, zAxis);
  if (!z) return undefined;
  const { rows, cols, columnMajor } = z.fields;
  const zDocument = { ...z.document, rows, cols, columnMajor };
  const readAxis = (id: "x" | "y", count: number) => {
    const xml = axes.get(id);
    return xml ? axis(ctx, `${where} axis ${id}`, xml, count) : null;
  };
  if (rows === 1 || cols === 1) {
    const along = cols > 1 || rows === 1 ? "x" : "y";
    const x = readAxis(along, rows * cols);
    if (x === undefined) return undefined;
    return { ...base, kind: "table1d", z: zDocument, ...(x && { x }) };
  }
  const x = readAxis("x", cols);
  const y = readAxis("y", rows);
  if (x === undefined || y === undefined) return undefined;
  return { ...base, kind: "table2d", z: zDocument, ...(x && { x }), ...(y && { y }) };
}

function patch(ctx: Context, where: string, element: XmlElement, base: { id: string; title: string; description?: string }, firmwareId: string) {
  const entries: Array<{ address: number; patch: string; base: string }> = [];
  const xmlEntries = childrenNamed(element, "XDFPATCHENTRY");
  if (xmlEntries.length === 0) return ctx.problems.add(where, "has no XDFPATCHENTRY");
  xmlEntries.forEach((entry, i) => {
    const at = `${where} entry ${i + 1}${attribute(entry, "name") ? ` "${attribute(entry, "name")}"` : ""}`;
    const rawAddress = numberAttribute(ctx, at, entry, "address");
    const size = numberAttribute(ctx, at, entry, "datasize");
    const patchData = attribute(entry, "patchdata")?.replace(/\s+/g, "");
    const baseData = attribute(entry, "basedata")?.replace(/\s+/g, "");
    if (patchData === undefined) ctx.problems.add(at, "missing patchdata");
    if (baseData === undefined) ctx.problems.add(at, "missing basedata (without it the patch could not be removed or checked)");
    if (rawAddress === undefined || size === undefined || patchData === undefined || baseData === undefined) return;
    if (!/^([0-9a-fA-F]{2})+$/.test(patchData) || !/^([0-9a-fA-F]{2})+$/.test(baseData)) {
      ctx.problems.add(at, "patchdata and basedata must be hex bytes");
      return;
    }
    if (patchData.length / 2 !== size || baseData.length / 2 !== size) {
      ctx.problems.add(at, `datasize ${size} differs from patchdata (${patchData.length / 2} bytes) or basedata (${baseData.length / 2} bytes)`);
      return;
    }
    const address = fileAddress(ctx, at, rawAddress);
    if (address !== undefined) entries.push({ address, patch: patchData, base: baseData });
  });
  return { ...base, firmwareIds: [firmwareId], entries };
}

/** Schema issues named after the XDF element they came from. */
function zodProblems(error: z.ZodError, label: (path: PropertyKey[]) => string | undefined): string[] {
  return error.issues.map((issue) => `${label(issue.path) ?? (issue.path.map(String).join(".") || "definition")}: ${issue.message}`);
}

/** Imports an XDF document; throws TuneError `xdf_invalid` listing every problem. */
export function importXdf(xml: string, options: XdfImportOptions): XdfImport {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (error) {
    if (error instanceof XmlError) throw new TuneError("xdf_invalid", `not a readable XDF: ${error.message}`, { problems: [error.message] });
    throw error;
  }
  if (root.name.toUpperCase() !== "XDFFORMAT") {
    throw new TuneError("xdf_invalid", `not an XDF: the root element is <${root.name}>, expected <XDFFORMAT>`, { problems: [] });
  }
  const problems = new Problems();
  const warnings: string[] = [];
  const header = childNamed(root, "XDFHEADER");
  const baseOffsetElement = header && childNamed(header, "BASEOFFSET");
  const ctx: Context = { problems, baseOffset: 0, subtract: false };
  if (baseOffsetElement) {
    ctx.baseOffset = numberAttribute(ctx, "BASEOFFSET", baseOffsetElement, "offset", 0) ?? 0;
    ctx.subtract = (numberAttribute(ctx, "BASEOFFSET", baseOffsetElement, "subtract", 0) ?? 0) !== 0;
  }
  const region = header && childNamed(header, "REGION");
  const imageSize = options.imageSize ?? (region ? numberAttribute(ctx, "XDFHEADER REGION", region, "size") : undefined);
  if (imageSize === undefined && !region) problems.add("XDFHEADER", "no REGION gives the image size; pass imageSize");

  // CATEGORYMEM refers to categories by index + 1.
  const categoryIds = new UniqueIds();
  const categories: Array<{ id: string; name: string }> = [];
  const categoryByNumber = new Map<number, string>();
  for (const category of header ? childrenNamed(header, "CATEGORY") : []) {
    const index = parseNumber(attribute(category, "index"));
    const name = attribute(category, "name")?.trim();
    if (index === undefined || !Number.isInteger(index) || !name) {
      problems.add(`XDFHEADER CATEGORY on line ${category.line}`, "needs an index and a name");
      continue;
    }
    const id = categoryIds.take(slug(name).toLowerCase());
    categories.push({ id, name });
    categoryByNumber.set(index + 1, id);
  }

  const itemIds = new UniqueIds();
  const patchIds = new UniqueIds();
  const items: unknown[] = [];
  const patchDocuments: unknown[] = [];
  const itemLabels: string[] = [];
  const patchLabels: string[] = [];

  for (const element of root.children) {
    const kind = element.name.toUpperCase();
    if (kind === "XDFHEADER") continue;
    const title = textOf(element, "title");
    const where = describe(kind, element, title);
    if (kind !== "XDFTABLE" && kind !== "XDFCONSTANT" && kind !== "XDFFLAG" && kind !== "XDFPATCH") {
      warnings.push(`${where}: ${kind} is not imported`);
      continue;
    }
    if (!title) {
      problems.add(where, "missing title");
      continue;
    }
    const description = textOf(element, "description");
    const membership = childNamed(element, "CATEGORYMEM");
    const categoryNumber = membership ? parseNumber(attribute(membership, "category")) : undefined;
    const category = categoryNumber !== undefined ? categoryByNumber.get(categoryNumber) : undefined;
    const base = {
      title,
      ...(description && { description }),
    };
    if (kind === "XDFPATCH") {
      const document = patch(ctx, where, element, { id: patchIds.take(slug(title).toLowerCase()), ...base }, options.firmwareId);
      if (document) {
        patchLabels.push(where);
        patchDocuments.push(document);
      }
      continue;
    }
    const itemBase = { id: itemIds.take(slug(title)), ...base, ...(category && { category }) };
    let document: Record<string, unknown> | undefined;
    if (kind === "XDFTABLE") document = table(ctx, where, element, itemBase);
    else {
      const data = dataElement(ctx, where, element);
      if (data && kind === "XDFCONSTANT") document = { ...itemBase, kind: "constant", z: data.document };
      if (data && kind === "XDFFLAG") {
        const mask = parseNumber(textOf(element, "mask"));
        if (mask === undefined) problems.add(where, "missing mask");
        else if (!Number.isInteger(mask) || mask <= 0) problems.add(where, `mask ${textOf(element, "mask")} is not a positive integer`);
        else document = { ...itemBase, kind: "flag", z: data.document, mask };
      }
    }
    if (document) {
      itemLabels.push(where);
      items.push(document);
    }
  }

  if (problems.list.length === 0) {
    const definition = tuneDefinitionSchema.safeParse({ firmwareId: options.firmwareId, imageSize, categories, items });
    const patches = z.array(patchSchema).safeParse(patchDocuments);
    if (!definition.success) {
      problems.list.push(...zodProblems(definition.error, (path) => (path[0] === "items" ? itemLabels[path[1] as number] : undefined)));
    }
    if (!patches.success) problems.list.push(...zodProblems(patches.error, (path) => patchLabels[path[0] as number]));
    if (definition.success && patches.success) return { definition: definition.data, patches: patches.data, warnings };
  }
  const shown = problems.list.slice(0, 5).join("; ");
  const more = problems.list.length > 5 ? `; and ${problems.list.length - 5} more` : "";
  throw new TuneError("xdf_invalid", `the XDF cannot be imported: ${shown}${more}`, { problems: problems.list });
}
