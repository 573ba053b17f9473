/**
 * A definition (and patches) written as a TunerPro XDF (XML, format 1.60, as
 * TunerPro 5 writes it), so that tuners can open a firmware's maps in
 * TunerPro. importXdf reads it back to the same items (tests/unit/domain/tune).
 *
 * - Addresses are file offsets: BASEOFFSET 0, one REGION of the image size.
 * - Constants → XDFCONSTANT; flags → XDFFLAG with the mask; 1-D and 2-D
 *   tables → XDFTABLE with x, y and z axes (a 1-D table's axis on x when it is
 *   one row, on y when it is one column, as TunerPro lays them out).
 * - Enums have no XDF element: written as a constant, the labels listed in the
 *   description (TunerPro shows the raw value).
 * - `toRaw` and write limits have no place in an XDF and are left out;
 *   `toPhysical` is the MATH equation of X.
 */
import type {
  Axis,
  ElementSpec,
  Patch,
  TableElementSpec,
  TuneDefinition,
  TuneItem,
} from "../../contracts/tune-definition";

const hex = (n: number) => `0x${n.toString(16).toUpperCase()}`;

function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/\r/g, "&#013;")
    .replace(/\n/g, "&#010;");
}

function typeFlags(element: ElementSpec & { columnMajor?: boolean }): string {
  return hex(
    (element.signed ? 0x01 : 0) |
      (element.endian === "little" ? 0x02 : 0) |
      (element.columnMajor ? 0x04 : 0) |
      (element.float ? 0x10000 : 0),
  );
}

function embedded(element: ElementSpec, rows: number, cols: number, columnMajor = false): string {
  return `<EMBEDDEDDATA mmedtypeflags="${typeFlags({ ...element, columnMajor })}" mmedaddress="${hex(element.address)}" mmedelementsizebits="${element.bits}" mmedrowcount="${rows}" mmedcolcount="${cols}" mmedmajorstridebits="0" mmedminorstridebits="0" />`;
}

function shown(element: { unit?: string; decimals?: number }, indent: string): string[] {
  const out: string[] = [];
  if (element.unit) out.push(`${indent}<units>${escapeXml(element.unit)}</units>`);
  if (element.decimals !== undefined) out.push(`${indent}<decimalpl>${element.decimals}</decimalpl>`);
  return out;
}

const math = (equation: string, indent: string) =>
  `${indent}<MATH equation="${escapeXml(equation)}">\n${indent}  <VAR id="X" />\n${indent}</MATH>`;

function axisXml(id: "x" | "y", axis: Axis | undefined, count: number): string {
  const i = "      ";
  const lines = [`    <XDFAXIS id="${id}" uniqueid="0x0">`];
  if (axis && !("labels" in axis)) {
    lines.push(
      `${i}${embedded(axis, 1, count)}`,
      ...shown(axis, i),
      `${i}<indexcount>${count}</indexcount>`,
      `${i}<embedinfo type="1" />`,
      math(axis.toPhysical, i),
    );
  } else {
    lines.push(`${i}<EMBEDDEDDATA mmedelementsizebits="16" mmedmajorstridebits="-32" mmedminorstridebits="0" />`);
    if (axis?.unit) lines.push(`${i}<units>${escapeXml(axis.unit)}</units>`);
    lines.push(`${i}<indexcount>${count}</indexcount>`);
    // Without labels TunerPro shows the index; writing them keeps that on a round trip as "no axis".
    if (axis)
      axis.labels.forEach((label, index) => {
        lines.push(`${i}<LABEL index="${index}" value="${escapeXml(label)}" />`);
      });
    lines.push(math("X", i));
  }
  lines.push("    </XDFAXIS>");
  return lines.join("\n");
}

function zAxis(z: TableElementSpec): string {
  const i = "      ";
  return [
    `    <XDFAXIS id="z">`,
    `${i}${embedded(z, z.rows, z.cols, z.columnMajor)}`,
    ...shown(z, i),
    math(z.toPhysical, i),
    "    </XDFAXIS>",
  ].join("\n");
}

function head(element: string, item: TuneItem, uniqueId: number, categoryNumber: Map<string, number>): string[] {
  const lines = [
    `  <${element} uniqueid="${hex(uniqueId)}" flags="0x0">`,
    `    <title>${escapeXml(item.title)}</title>`,
  ];
  let description = item.description ?? "";
  if (item.kind === "enum")
    description = [description, ...item.values.map((v) => `${v.raw} = ${v.label}`)].filter(Boolean).join("\n");
  if (description) lines.push(`    <description>${escapeXml(description)}</description>`);
  const categories = item.categories ?? (item.category !== undefined ? [item.category] : []);
  categories.forEach((id, index) => {
    const n = categoryNumber.get(id);
    if (n !== undefined) lines.push(`    <CATEGORYMEM index="${index}" category="${n + 1}" />`);
  });
  return lines;
}

function itemXml(item: TuneItem, uniqueId: number, categoryNumber: Map<string, number>): string {
  if (item.kind === "constant" || item.kind === "enum" || item.kind === "flag") {
    const element = item.kind === "flag" ? "XDFFLAG" : "XDFCONSTANT";
    const lines = head(element, item, uniqueId, categoryNumber);
    lines.push(`    ${embedded(item.z, 1, 1)}`);
    if (item.kind === "flag") lines.push(`    <mask>${hex(item.mask)}</mask>`);
    lines.push(...shown(item.z, "    "), math(item.z.toPhysical, "    "));
    lines.push(`  </${element}>`);
    return lines.join("\n");
  }
  const lines = head("XDFTABLE", item, uniqueId, categoryNumber);
  const { rows, cols } = item.z;
  if (item.kind === "table1d") {
    const alongY = cols === 1 && rows > 1;
    lines.push(axisXml("x", alongY ? undefined : item.x, cols), axisXml("y", alongY ? item.x : undefined, rows));
  } else {
    lines.push(axisXml("x", item.x, cols), axisXml("y", item.y, rows));
  }
  lines.push(zAxis(item.z), "  </XDFTABLE>");
  return lines.join("\n");
}

function patchXml(patch: Patch, uniqueId: number): string {
  const lines = [`  <XDFPATCH uniqueid="${hex(uniqueId)}">`, `    <title>${escapeXml(patch.title)}</title>`];
  if (patch.description) lines.push(`    <description>${escapeXml(patch.description)}</description>`);
  patch.entries.forEach((entry, i) => {
    lines.push(
      `    <XDFPATCHENTRY name="${i + 1}" address="${hex(entry.address)}" datasize="${hex(entry.patch.length / 2)}" patchdata="${entry.patch}" basedata="${entry.base}" />`,
    );
  });
  lines.push("  </XDFPATCH>");
  return lines.join("\n");
}

export interface XdfExportOptions {
  /** The XDF's title (TunerPro's "deftitle"); defaults to the firmware id. */
  title?: string;
  patches?: readonly Patch[];
}

/** The definition as the text of an XML XDF. */
export function exportXdf(definition: TuneDefinition, options: XdfExportOptions = {}): string {
  const categoryNumber = new Map(definition.categories.map((c, i) => [c.id, i]));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    "<!-- Written by the tuning portal -->",
    '<XDFFORMAT version="1.60">',
    "  <XDFHEADER>",
    "    <flags>0x1</flags>",
    `    <deftitle>${escapeXml(options.title ?? definition.firmwareId)}</deftitle>`,
    `    <description>${escapeXml(`Firmware ${definition.firmwareId}`)}</description>`,
    '    <BASEOFFSET offset="0" subtract="0" />',
    '    <DEFAULTS datasizeinbits="8" sigdigits="2" outputtype="1" signed="0" lsbfirst="0" float="0" />',
    `    <REGION type="0xFFFFFFFF" startaddress="0x0" size="${hex(definition.imageSize)}" regionflags="0x0" name="Binary File" desc="This region describes the bin file edited by this XDF" />`,
    ...definition.categories.map((c, i) => `    <CATEGORY index="${hex(i)}" name="${escapeXml(c.name)}" />`),
    "  </XDFHEADER>",
  ];
  let uniqueId = 0x100;
  for (const item of definition.items) lines.push(itemXml(item, uniqueId++, categoryNumber));
  for (const patch of options.patches ?? []) lines.push(patchXml(patch, uniqueId++));
  lines.push("</XDFFORMAT>", "");
  return lines.join("\n");
}
