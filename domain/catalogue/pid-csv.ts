/**
 * PID descriptor CSVs in the two formats tuners bring:
 *   VW_Flash: Name,Unit,Equation,Format,Address,Length,Signed,ProgMin,ProgMax,WarnMin,WarnMax,Smoothing,Enabled,Tabs,Assign To
 *   Torque:   Name,ShortName,ModeAndPID,Equation,Min,Max,Units,Header
 * VW_Flash marks derived channels with a placeholder address (0xFFFF or
 * 0xFFFFFFFF) and an equation over other channels' "Assign To" names: those
 * rows become computed descriptors. Each row is checked with the schema the
 * API validates with (./checked-schemas: the contract's, its expression
 * compiled), so the preview shows the errors the API would give.
 */

import {
  type ComputedDescriptorInput,
  computedDescriptorInputSchema,
  type PidDescriptorInput,
  type pidDescriptorInputSchema,
} from "../../contracts/firmware-support";
import { compileExpression, ExpressionError } from "../expression";
import { checkedPidDescriptorInputSchema } from "./checked-schemas";

export const pidCsvFormats = ["vwflash", "torque"] as const;
export type PidCsvFormat = (typeof pidCsvFormats)[number];

export interface RowError {
  field: string;
  message: string;
  /** Character position in the expression, for expression errors. */
  position?: number;
}

type Values<T> = T extends { parse(v: unknown): infer O } ? O : never;

export type ParsedRow =
  | {
      line: number;
      kind: "pid";
      value: Omit<Values<typeof pidDescriptorInputSchema>, "id">;
      errors: RowError[];
      names?: undefined;
    }
  | {
      line: number;
      kind: "computed";
      value: Omit<Values<typeof computedDescriptorInputSchema>, "id">;
      errors: RowError[];
      names?: readonly string[];
    };

export type ParseResult = { ok: true; format: PidCsvFormat; rows: ParsedRow[] } | { ok: false; error: string };

const VWFLASH_HEADER = [
  "name",
  "unit",
  "equation",
  "format",
  "address",
  "length",
  "signed",
  "progmin",
  "progmax",
  "warnmin",
  "warnmax",
  "smoothing",
  "enabled",
  "tabs",
  "assignto",
];
const TORQUE_HEADER = ["name", "shortname", "modeandpid", "equation", "min", "max", "units", "header"];

/** RFC 4180 fields: quotes around fields with commas, "" for a quote. */
export function parseCsvLines(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const src = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && src[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const headerKey = (cell: string) =>
  cell
    .toLowerCase()
    .replace(/[^a-z]/g, "")
    .replace(/value$/, "");

function detect(header: string[]): PidCsvFormat | null {
  const keys = header.map(headerKey);
  if (VWFLASH_HEADER.slice(0, 6).every((key, i) => keys[i] === key)) return "vwflash";
  if (TORQUE_HEADER.slice(0, 4).every((key, i) => keys[i] === key)) return "torque";
  return null;
}

/** "Ambient Temp" → "ambient_temp": a channel variable from a display name. */
export function variableFromName(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[^\x00-\x7f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return /^[a-z_]/.test(slug) ? slug.slice(0, 64) : `_${slug}`.slice(0, 64);
}

const numberOrNull = (cell: string | undefined) => {
  if (cell === undefined || cell.trim() === "") return null;
  const n = Number(cell);
  return Number.isFinite(n) ? n : Number.NaN;
};

const decimalsOf = (format: string) => {
  const match = /\.(\d+)f/.exec(format);
  return match ? Number(match[1]) : 0;
};

function issues(error: { issues: Array<{ path: PropertyKey[]; message: string; params?: unknown }> }): RowError[] {
  return error.issues.map((issue) => {
    const params = issue.params as { position?: number } | undefined;
    return {
      field: issue.path.map(String).join(".") || "row",
      message: issue.message,
      ...(params?.position !== undefined && { position: params.position }),
    };
  });
}

function pidRow(line: number, input: PidDescriptorInput): ParsedRow {
  const result = checkedPidDescriptorInputSchema.safeParse(input);
  if (result.success) return { line, kind: "pid", value: result.data, errors: [] };
  // The preview still shows what was read, as written.
  return {
    line,
    kind: "pid",
    value: input as ParsedRow["value"] & PidDescriptorInput as never,
    errors: issues(result.error),
  };
}

function computedRow(line: number, input: ComputedDescriptorInput): ParsedRow {
  const result = computedDescriptorInputSchema.safeParse(input);
  if (!result.success) return { line, kind: "computed", value: input as never, errors: issues(result.error) };
  try {
    return {
      line,
      kind: "computed",
      value: result.data,
      errors: [],
      names: compileExpression(result.data.expression).variables,
    };
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    return {
      line,
      kind: "computed",
      value: result.data,
      errors: [{ field: "expression", message: error.message, position: error.position }],
    };
  }
}

const PLACEHOLDER_ADDRESSES = new Set(["0xffff", "0xffffffff"]);

function vwflashRow(line: number, cells: string[], options: ParseOptions): ParsedRow {
  const [
    name,
    unit,
    equation,
    format,
    address,
    length,
    signed,
    progMin,
    progMax,
    warnMin,
    warnMax,
    smoothing,
    ,
    ,
    assignTo,
  ] = cells.map((c) => c?.trim() ?? "");
  const variable = assignTo || variableFromName(name);
  const decimals = decimalsOf(format ?? "");
  if (PLACEHOLDER_ADDRESSES.has((address ?? "").toLowerCase())) {
    return computedRow(line, {
      name,
      variable,
      unit,
      expression: equation,
      decimals,
      min: numberOrNull(progMin),
      max: numberOrNull(progMax),
    });
  }
  // Mode 0x22 DIDs are 16 bits; anything longer is a RAM address read with 0x3E.
  const source = options.source ?? ((address ?? "").length > 6 ? "ram" : "uds");
  return pidRow(line, {
    name,
    variable,
    unit,
    source,
    address,
    length: Number(length),
    signed: signed.toUpperCase() === "TRUE",
    expression: equation,
    decimals,
    min: numberOrNull(progMin),
    max: numberOrNull(progMax),
    warnMin: numberOrNull(warnMin),
    warnMax: numberOrNull(warnMax),
    smoothing: numberOrNull(smoothing) ?? 0,
    firmwareIds: options.firmwareIds,
  });
}

function torqueRow(line: number, cells: string[], options: ParseOptions): ParsedRow {
  const [name, shortName, modeAndPid, equation, min, max, units] = cells.map((c) => c?.trim() ?? "");
  const code = (modeAndPid ?? "").replace(/^0x/i, "").toUpperCase();
  const mode = code.slice(0, 2);
  // Torque's equation reads response bytes A, B, C, D: the last one used gives the length.
  const used = [..."ABCD"].filter((letter) => new RegExp(`\\b${letter}\\b`).test(equation ?? ""));
  const length = used.length ? "ABCD".indexOf(used[used.length - 1]) + 1 : 1;
  return pidRow(line, {
    name,
    variable: variableFromName(shortName || name),
    unit: units,
    source: options.source ?? (mode === "01" ? "obd" : "uds"),
    address: `0x${code.slice(2) || code}`,
    length,
    expression: equation,
    min: numberOrNull(min),
    max: numberOrNull(max),
    firmwareIds: options.firmwareIds,
  });
}

export interface ParseOptions {
  format?: PidCsvFormat | "auto";
  source?: "obd" | "uds" | "ram";
  firmwareIds: string[];
}

export function parsePidCsv(text: string, options: ParseOptions): ParseResult {
  const lines = parseCsvLines(text);
  if (lines.length === 0) return { ok: false, error: "The file is empty" };
  const detected = detect(lines[0]);
  const format = options.format && options.format !== "auto" ? options.format : detected;
  if (!format)
    return { ok: false, error: `Unknown header "${lines[0].join(",")}": expected a VW_Flash or Torque PID list` };
  if (detected !== format) return { ok: false, error: `The header is not a ${format} header` };
  const rows: ParsedRow[] = [];
  lines.slice(1).forEach((cells, i) => {
    if (cells.every((cell) => cell.trim() === "")) return;
    rows.push(format === "vwflash" ? vwflashRow(i + 2, cells, options) : torqueRow(i + 2, cells, options));
  });
  // Variables must be unique within the file too.
  const seen = new Map<string, number>();
  for (const row of rows) {
    const earlier = seen.get(row.value.variable);
    if (earlier !== undefined)
      row.errors.push({ field: "variable", message: `"${row.value.variable}" is already used on line ${earlier}` });
    else seen.set(row.value.variable, row.line);
  }
  return { ok: true, format, rows };
}

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

interface PidLike {
  name: string;
  variable: string;
  unit: string;
  source: string;
  address: string;
  length: number;
  signed: boolean;
  expression: string;
  decimals: number;
  min: number | null;
  max: number | null;
  warnMin: number | null;
  warnMax: number | null;
  smoothing: number;
}

interface ComputedLike {
  name: string;
  variable: string;
  unit: string;
  expression: string;
  decimals: number;
  min: number | null;
  max: number | null;
}

/** Writes descriptors back in the chosen format; VW_Flash also carries computed channels. */
export function writePidCsv(
  format: PidCsvFormat,
  pids: readonly PidLike[],
  computed: readonly ComputedLike[] = [],
): string {
  const lines: unknown[][] = [];
  if (format === "vwflash") {
    lines.push([
      "Name",
      "Unit",
      "Equation",
      "Format",
      "Address",
      "Length",
      "Signed",
      "ProgMin",
      "ProgMax",
      "WarnMin",
      "WarnMax",
      "Smoothing",
      "Enabled",
      "Tabs",
      "Assign To",
    ]);
    for (const p of pids) {
      lines.push([
        p.name,
        p.unit,
        p.expression,
        `%01.${p.decimals}f`,
        p.address.toLowerCase(),
        p.length,
        p.signed ? "TRUE" : "FALSE",
        p.min,
        p.max,
        p.warnMin,
        p.warnMax,
        p.smoothing,
        "TRUE",
        "",
        p.variable,
      ]);
    }
    for (const c of computed) {
      lines.push([
        c.name,
        c.unit,
        c.expression,
        `%01.${c.decimals}f`,
        "0xffffffff",
        1,
        "FALSE",
        c.min,
        c.max,
        "",
        "",
        0,
        "TRUE",
        "",
        c.variable,
      ]);
    }
  } else {
    lines.push(["Name", "ShortName", "ModeAndPID", "Equation", "Min Value", "Max Value", "Units", "Header"]);
    for (const p of pids) {
      const mode = p.source === "obd" ? "01" : p.source === "uds" ? "22" : "3E";
      lines.push([
        p.name,
        p.variable,
        `0x${mode}${p.address.slice(2).toUpperCase()}`,
        p.expression,
        p.min,
        p.max,
        p.unit,
        "",
      ]);
    }
  }
  return `${lines.map((cells) => cells.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
