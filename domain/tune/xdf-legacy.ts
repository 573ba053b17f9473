/**
 * TunerPro's older text XDF (format 1.x): a first line `XDF`, a version line
 * (`1.110000`), then blocks `%%HEADER%%`, `%%TABLE%%`, `%%CONSTANT%%`,
 * `%%FLAG%%`, `%%CHECKSUM%%` … each closed by `%%END%%`, one field a line:
 * `<tab>040100 Address          =0xB879`.
 *
 * The blocks are turned into the element tree the XML format gives
 * (XDFFORMAT, XDFHEADER, XDFTABLE …), so one importer maps both and the same
 * tolerance applies. Fields read, as TunerPro 4 wrote them:
 * - header: BinSize (the image size, as the XML REGION size: 0xFFFF for a
 *   64 KiB EPROM is the last address, rounded up by the importer),
 *   BaseOffset, CategoryN = name (items refer to them as N + 1, like the XML);
 * - tables: Address, Rows, Cols, SizeInBits (default 8), Flags (bit 0x01
 *   signed), PopByCol (column major), ZEq (`formula,TH|…`: the formula before
 *   the first comma), ZUnits, DecimalPl, Cat0ID/Cat1ID/…; axes from XLabels /
 *   YLabels (comma-separated; "(null)" means none) or, with XLabelSource 1,
 *   from the image at XAddress with XDataSize bytes and XAddrStep, XEq and
 *   XUnits;
 * - constants: Address, SizeInBits, Flags, Equation, Units, DecimalPl;
 * - flags: Address, BitNumber (the mask is 1 << BitNumber);
 * - checksums: DataStart, DataEnd, StoreAddr, CalcMethod.
 * Unknown fields are ignored, as TunerPro does with fields of later versions.
 */
import type { XmlElement } from "./xml";

export function isLegacyXdf(text: string): boolean {
  return /^\uFEFF?\s*XDF\s*\r?\n\s*\d+\.\d+/.test(text.slice(0, 64));
}

interface Block {
  kind: string;
  line: number;
  fields: Map<string, string>;
}

function blocks(text: string): Block[] {
  const out: Block[] = [];
  let current: Block | null = null;
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    const marker = /^\s*%%(\w+)%%\s*$/.exec(line);
    if (marker) {
      if (marker[1].toUpperCase() === "END") {
        if (current) out.push(current);
        current = null;
      } else {
        current = { kind: marker[1].toUpperCase(), line: i + 1, fields: new Map() };
      }
      return;
    }
    const field = /^\s*\d{6}\s+(\w+)\s*=(.*)$/.exec(line);
    if (current && field) current.fields.set(field[1], field[2].trim());
  });
  if (current) out.push(current);
  return out;
}

const element = (
  name: string,
  line: number,
  attributes: Record<string, string> = {},
  children: XmlElement[] = [],
  text = "",
): XmlElement => ({
  name,
  attributes,
  children,
  text,
  line,
});

/** A quoted value without its quotes. */
const unquote = (value: string | undefined) => (value ?? "").replace(/^"(.*)"$/s, "$1");
/** `(X*0.75)-22.5,TH|0|0|0|0|` → `(X*0.75)-22.5`. */
const formula = (value: string | undefined) => (value ?? "").split(",")[0].trim() || "X";

function number(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const t = value.trim();
  const n = /^-?0x[0-9a-f]+$/i.test(t)
    ? (t.startsWith("-") ? -1 : 1) * parseInt(t.replace(/^-?0x/i, ""), 16)
    : Number(t);
  return Number.isFinite(n) ? n : undefined;
}

const hex = (n: number) => `0x${n.toString(16).toUpperCase()}`;

function math(equation: string, line: number): XmlElement {
  return element("MATH", line, { equation }, [element("VAR", line, { id: "X" })]);
}

function common(block: Block): XmlElement[] {
  const f = block.fields;
  const out = [element("title", block.line, {}, [], unquote(f.get("Title")))];
  const description = unquote(f.get("Desc"));
  if (description) out.push(element("description", block.line, {}, [], description));
  for (let n = 0; n < 8; n++) {
    const id = number(f.get(`Cat${n}ID`));
    if (id !== undefined && id > 0)
      out.push(element("CATEGORYMEM", block.line, { index: String(n), category: String(id) }));
  }
  return out;
}

function dataAttributes(f: Map<string, string>, address: string | undefined): Record<string, string> {
  const attributes: Record<string, string> = {};
  if (address !== undefined) attributes.mmedaddress = address;
  attributes.mmedelementsizebits = String(number(f.get("SizeInBits")) ?? 8);
  const flags = number(f.get("Flags")) ?? 0;
  const columnMajor = number(f.get("PopByCol")) === 1;
  attributes.mmedtypeflags = hex((flags & 0x01) | (columnMajor ? 0x04 : 0));
  return attributes;
}

function presentation(block: Block, units: string | undefined, equation: string | undefined): XmlElement[] {
  const out: XmlElement[] = [];
  const unit = unquote(units);
  if (unit) out.push(element("units", block.line, {}, [], unit));
  const decimals = number(block.fields.get("DecimalPl"));
  if (decimals !== undefined) out.push(element("decimalpl", block.line, {}, [], String(decimals)));
  out.push(math(formula(equation), block.line));
  return out;
}

function labelAxis(block: Block, id: "x" | "y", count: number): XmlElement {
  const f = block.fields;
  const prefix = id.toUpperCase();
  const children: XmlElement[] = [element("indexcount", block.line, {}, [], String(count))];
  if (number(f.get(`${prefix}LabelSource`)) === 1 && f.get(`${prefix}Address`) !== undefined) {
    const bytes = number(f.get(`${prefix}DataSize`)) ?? 1;
    const step = number(f.get(`${prefix}AddrStep`)) ?? bytes;
    children.unshift(
      element("EMBEDDEDDATA", block.line, {
        mmedaddress: f.get(`${prefix}Address`)!,
        mmedelementsizebits: String(bytes * 8),
        mmedcolcount: String(count),
        mmedminorstridebits: String(step * 8),
      }),
    );
    const unit = unquote(f.get(`${prefix}Units`));
    if (unit) children.push(element("units", block.line, {}, [], unit));
    children.push(math(formula(f.get(`${prefix}Eq`)), block.line));
  } else {
    const labels = (f.get(`${prefix}Labels`) ?? "").split(",").map((l) => l.trim());
    if (labels.length === count && labels.every((l) => l !== "" && l !== "(null)")) {
      labels.forEach((value, index) => {
        children.push(element("LABEL", block.line, { index: String(index), value }));
      });
    }
    const unit = unquote(f.get(`${prefix}Units`));
    if (unit) children.push(element("units", block.line, {}, [], unit));
  }
  return element("XDFAXIS", block.line, { id }, children);
}

function table(block: Block): XmlElement {
  const f = block.fields;
  const rows = number(f.get("Rows")) ?? 1;
  const cols = number(f.get("Cols")) ?? 1;
  const z = element("XDFAXIS", block.line, { id: "z" }, [
    element("EMBEDDEDDATA", block.line, {
      ...dataAttributes(f, f.get("Address")),
      mmedrowcount: String(rows),
      mmedcolcount: String(cols),
    }),
    ...presentation(block, f.get("ZUnits"), f.get("ZEq")),
  ]);
  return element("XDFTABLE", block.line, uniqueId(f), [
    ...common(block),
    labelAxis(block, "x", cols),
    labelAxis(block, "y", rows),
    z,
  ]);
}

function uniqueId(f: Map<string, string>): Record<string, string> {
  const id = f.get("UniqueID");
  return id ? { uniqueid: id } : {};
}

function constant(block: Block): XmlElement {
  const f = block.fields;
  return element("XDFCONSTANT", block.line, uniqueId(f), [
    ...common(block),
    element("EMBEDDEDDATA", block.line, dataAttributes(f, f.get("Address"))),
    ...presentation(block, f.get("Units"), f.get("Equation")),
  ]);
}

function flag(block: Block): XmlElement {
  const f = block.fields;
  const bit = number(f.get("BitNumber"));
  const children = [...common(block), element("EMBEDDEDDATA", block.line, dataAttributes(f, f.get("Address")))];
  if (bit !== undefined && Number.isInteger(bit) && bit >= 0 && bit < 32)
    children.push(element("mask", block.line, {}, [], hex(2 ** bit)));
  return element("XDFFLAG", block.line, uniqueId(f), children);
}

function checksum(block: Block): XmlElement {
  const f = block.fields;
  const field = (name: string, value: string | undefined) =>
    value === undefined ? [] : [element(name, block.line, {}, [], value)];
  const region = element("REGION", block.line, {}, [
    ...field("datastart", f.get("DataStart")),
    ...field("dataend", f.get("DataEnd")),
    ...field("storeaddress", f.get("StoreAddr")),
    ...field("calculationmethod", f.get("CalcMethod")),
  ]);
  return element("XDFCHECKSUM", block.line, uniqueId(f), [
    element("title", block.line, {}, [], unquote(f.get("Title")) || "Checksum"),
    region,
  ]);
}

/** The text XDF as the element tree of an XML XDF. */
export function parseLegacyXdf(text: string): XmlElement {
  const root = element("XDFFORMAT", 1, { version: "1.x" });
  for (const block of blocks(text)) {
    const f = block.fields;
    if (block.kind === "HEADER") {
      const children: XmlElement[] = [];
      const title = unquote(f.get("DefTitle"));
      if (title) children.push(element("deftitle", block.line, {}, [], title));
      const offset = number(f.get("BaseOffset"));
      if (offset)
        children.push(
          element("BASEOFFSET", block.line, { offset: String(Math.abs(offset)), subtract: offset < 0 ? "1" : "0" }),
        );
      const size = number(f.get("BinSize"));
      // A size one short of a power of two is rounded up by the importer, as for the XML REGION.
      if (size !== undefined && size > 0) children.push(element("REGION", block.line, { size: hex(size) }));
      for (const [name, value] of f) {
        const category = /^Category(\d+)$/.exec(name);
        if (category) children.push(element("CATEGORY", block.line, { index: category[1], name: unquote(value) }));
      }
      root.children.push(element("XDFHEADER", block.line, {}, children));
    } else if (block.kind === "TABLE") root.children.push(table(block));
    else if (block.kind === "CONSTANT") root.children.push(constant(block));
    else if (block.kind === "FLAG") root.children.push(flag(block));
    else if (block.kind === "CHECKSUM") root.children.push(checksum(block));
    else
      root.children.push(
        element(`%%${block.kind}%%`, block.line, {}, [element("title", block.line, {}, [], unquote(f.get("Title")))]),
      );
  }
  return root;
}
