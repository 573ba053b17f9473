/**
 * A2L conversion methods (COMPU_METHOD) as our scalings: `toPhysical` (and
 * `toRaw` where the method gives it) in the expression language, or the
 * labels of an enum.
 *
 * - IDENTICAL, NO_COMPU_METHOD: the raw value.
 * - LINEAR `COEFFS_LINEAR a b`: physical = a·raw + b.
 * - RAT_FUNC `COEFFS a b c d e f`: the standard defines it the other way
 *   round, raw = (a·p² + b·p + c) / (d·p² + e·p + f) of the physical value p,
 *   so the physical value is its inverse. Without the squares that inverse is
 *   p = (c − f·raw) / (e·raw − b); it exists when b·f − c·e ≠ 0 (otherwise
 *   every physical value gives the same raw value and none can be read back).
 *   With a square the inverse has two branches: not supported.
 * - TAB_INTP / TAB_NOINTP (COMPU_TAB of raw → physical pairs): linear
 *   interpolation between the pairs, or the exact pair only (as the
 *   COMPU_TAB's own type says, which the ASAM example file shows can differ
 *   from its method's); outside the pairs
 *   (and between them, without interpolation) DEFAULT_VALUE_NUMERIC when the
 *   table gives one, else no value (NaN), as pyA2L's reader answers. The
 *   inverse is written only for an interpolated table whose physical values
 *   rise or fall strictly.
 * - TAB_VERB (COMPU_VTAB of raw → text, or COMPU_VTAB_RANGE of raw ranges):
 *   the labels of an enum; integer ranges are spelt out value by value.
 * - FORM (FORMULA with X1, or X, for the raw value; FORMULA_INV its inverse):
 *   when the formula uses only arithmetic our evaluator has (+ − * / and
 *   parentheses, abs/fabs, sqrt, exp, log, log10, pow, floor, ceil). The
 *   standard's C-like bit operators, `^` (exclusive or, not power), other
 *   functions and system constants (`sysc`) are not supported.
 */
import { validateExpression } from "../../expression";
import { skip } from "../import-common";
import { type Block, blocksNamed, keyword, numberOf, type Token, tokensOf } from "./blocks";

export type Conversion =
  | { kind: "numeric"; toPhysical: string; toRaw?: string; unit?: string; decimals?: number }
  | { kind: "verbal"; values: Array<{ raw: number; label: string }>; unit?: string };

export interface ConversionTables {
  methods: Map<string, Block>;
  tabs: Map<string, Block>;
  units: Map<string, Block>;
}

/** A number as expression text: parenthesised when negative, never in a form the expression reader cannot take. */
export function literal(n: number): string {
  if (!Number.isFinite(n)) return skip(`the value ${n} cannot be written in a scaling`);
  const text = Math.abs(n) < 1e21 && (Math.abs(n) >= 1e-6 || n === 0) ? String(n) : n.toExponential();
  return n < 0 ? `(${text})` : text;
}

/** `%8.4` → 4 decimals. */
export function decimalsOfFormat(format: string | undefined): number | undefined {
  const m = /^%?\s*\d*\.(\d+)/.exec(format?.trim() ?? "");
  return m ? Math.min(12, Number(m[1])) : undefined;
}

function numbers(tokens: Token[] | undefined, count: number, what: string): number[] {
  const values = (tokens ?? []).map(numberOf);
  if (values.length < count || values.some((v) => v === undefined)) skip(`${what} needs ${count} numbers`);
  return values as number[];
}

function ratFunc(method: Block, name: string): { toPhysical: string; toRaw: string } {
  const [a, b, c, d, e, f] = numbers(keyword(method, "COEFFS", 6, 5), 6, `RAT_FUNC ${name}: COEFFS`);
  const coeffs = [a, b, c, d, e, f].join(" ");
  if (a !== 0 || d !== 0)
    skip(`COMPU_METHOD ${name}: RAT_FUNC ${coeffs} has squared terms, whose inverse is not supported`);
  if (b * f - c * e === 0) {
    skip(
      `COMPU_METHOD ${name}: RAT_FUNC ${coeffs} gives the same raw value for every physical value, so no physical value can be read from it`,
    );
  }
  const toPhysical =
    e === 0
      ? `(${literal(f)} * X - ${literal(c)}) / ${literal(b)}`
      : `(${literal(c)} - ${literal(f)} * X) / (${literal(e)} * X - ${literal(b)})`;
  const toRaw =
    e === 0
      ? `(${literal(b)} * X + ${literal(c)}) / ${literal(f)}`
      : `(${literal(b)} * X + ${literal(c)}) / (${literal(e)} * X + ${literal(f)})`;
  return { toPhysical, toRaw };
}

/** Piecewise-linear interpolation over sorted points, `outside` beyond them. */
function interpolation(points: Array<[number, number]>, outside: string): string {
  const [x0, y0] = points[0];
  let expr = outside;
  for (let i = points.length - 1; i >= 1; i--) {
    const [xa, ya] = points[i - 1];
    const [xb, yb] = points[i];
    const segment =
      ya === yb ? literal(ya) : `${literal(ya)} + (X - ${literal(xa)}) * ${literal((yb - ya) / (xb - xa))}`;
    expr = `X <= ${literal(xb)} ? ${segment} : ${expr}`;
  }
  return `X < ${literal(x0)} ? ${outside} : X == ${literal(x0)} ? ${literal(y0)} : ${expr}`;
}

function table(method: Block, name: string, tables: ConversionTables, methodInterpolates: boolean) {
  const ref = keyword(method, "COMPU_TAB_REF", 1, 5)?.[0]?.text;
  if (!ref) skip(`COMPU_METHOD ${name}: no COMPU_TAB_REF`);
  const tab = tables.tabs.get(ref!);
  if (tab?.name !== "COMPU_TAB") skip(`COMPU_METHOD ${name}: its table ${ref} is not a COMPU_TAB of the file`);
  const tokens = tokensOf(tab!);
  // The table says whether it is interpolated; the method's word only counts when the table's is not one of the two.
  const own = tokens[2]?.text;
  const interpolate = own === "TAB_INTP" ? true : own === "TAB_NOINTP" ? false : methodInterpolates;
  const count = numberOf(tokens[3]);
  if (count === undefined || !Number.isInteger(count) || count < 1) skip(`COMPU_TAB ${ref}: no number of pairs`);
  if (count! > 512) skip(`COMPU_TAB ${ref}: ${count} pairs, more than the 512 a scaling holds`);
  const flat = numbers(tokens.slice(4, 4 + 2 * count!), 2 * count!, `COMPU_TAB ${ref}: ${count} pairs`);
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < count!; i++) pairs.push([flat[2 * i], flat[2 * i + 1]]);
  pairs.sort((p, q) => p[0] - q[0]);
  if (pairs.some((p, i) => i > 0 && p[0] === pairs[i - 1][0])) skip(`COMPU_TAB ${ref}: a raw value is listed twice`);
  const fallback = numberOf(keyword(tab!, "DEFAULT_VALUE_NUMERIC", 1, 4 + 2 * count!)?.[0]);
  const outside = fallback === undefined ? "0/0" : literal(fallback);
  if (!interpolate) {
    let expr = outside;
    for (let i = pairs.length - 1; i >= 0; i--)
      expr = `X == ${literal(pairs[i][0])} ? ${literal(pairs[i][1])} : ${expr}`;
    return { toPhysical: expr };
  }
  const toPhysical = interpolation(pairs, outside);
  const ys = pairs.map((p) => p[1]);
  const rising = ys.every((y, i) => i === 0 || y > ys[i - 1]);
  const falling = ys.every((y, i) => i === 0 || y < ys[i - 1]);
  if (!rising && !falling) return { toPhysical };
  const inverse = pairs.map(([x, y]) => [y, x] as [number, number]);
  if (falling) inverse.reverse();
  return { toPhysical, toRaw: interpolation(inverse, "0/0") };
}

function verbal(method: Block, name: string, tables: ConversionTables): Array<{ raw: number; label: string }> {
  const ref = keyword(method, "COMPU_TAB_REF", 1, 5)?.[0]?.text;
  if (!ref) skip(`COMPU_METHOD ${name}: no COMPU_TAB_REF`);
  const tab = tables.tabs.get(ref!);
  if (!tab) skip(`COMPU_METHOD ${name}: its table ${ref} is not in the file`);
  const tokens = tokensOf(tab!);
  const values: Array<{ raw: number; label: string }> = [];
  if (tab!.name === "COMPU_VTAB") {
    const count = numberOf(tokens[3]) ?? 0;
    for (let i = 0; i < count; i++) {
      const raw = numberOf(tokens[4 + 2 * i]);
      const label = tokens[5 + 2 * i];
      if (raw === undefined || !Number.isInteger(raw) || !label?.quoted)
        skip(`COMPU_VTAB ${ref}: entry ${i + 1} is not a whole number and a text`);
      values.push({ raw: raw!, label: label.text || String(raw) });
    }
  } else if (tab!.name === "COMPU_VTAB_RANGE") {
    const count = numberOf(tokens[2]) ?? 0;
    for (let i = 0; i < count; i++) {
      const low = numberOf(tokens[3 + 3 * i]);
      const high = numberOf(tokens[4 + 3 * i]);
      const label = tokens[5 + 3 * i];
      if (low === undefined || high === undefined || !label?.quoted)
        skip(`COMPU_VTAB_RANGE ${ref}: entry ${i + 1} is not two numbers and a text`);
      const first = Math.ceil(low!);
      const last = Math.floor(high!);
      if (last - first + values.length >= 1024)
        skip(`COMPU_VTAB_RANGE ${ref}: its ranges cover more than 1,024 raw values, too many to list`);
      for (let raw = first; raw <= last; raw++) values.push({ raw, label: label.text || String(raw) });
    }
  } else {
    skip(`COMPU_METHOD ${name}: its table ${ref} is a ${tab!.name}, not a verbal table`);
  }
  const seen = new Set<number>();
  for (const v of values) {
    if (seen.has(v.raw)) skip(`verbal table ${ref}: raw value ${v.raw} is listed twice`);
    seen.add(v.raw);
  }
  if (values.length === 0) skip(`verbal table ${ref} has no entries`);
  return values;
}

const FORMULA_FUNCTIONS: Record<string, string> = {
  abs: "abs",
  fabs: "abs",
  sqrt: "sqrt",
  exp: "exp",
  log: "log",
  log10: "log10",
  pow: "pow",
  floor: "floor",
  ceil: "ceil",
};

/** An A2L formula of X1 (or X) in our expression language. */
export function formulaExpression(source: string, what: string): string {
  const stray = /[^\w.\s+\-*/(),]/.exec(source);
  if (stray) skip(`${what} "${source}": the operator ${stray[0]} is not supported`);
  const rewritten = source.replace(/[A-Za-z_][A-Za-z0-9_]*/g, (word) => {
    if (/^x1?$/i.test(word)) return "X";
    const fn = FORMULA_FUNCTIONS[word.toLowerCase()];
    if (fn) return fn;
    return skip(
      `${what} "${source}": ${word} is not supported (only X1 and ${Object.keys(FORMULA_FUNCTIONS).join(", ")})`,
    );
  });
  const check = validateExpression(rewritten, ["X"]);
  if (!check.ok) skip(`${what} "${source}": ${check.error.message}`);
  return rewritten;
}

function unitOf(method: Block, tables: ConversionTables): string | undefined {
  const ref = keyword(method, "REF_UNIT", 1, 5)?.[0]?.text;
  const unit = ref ? tables.units.get(ref) : undefined;
  const text = unit ? tokensOf(unit)[2]?.text : tokensOf(method)[4]?.text;
  return text?.trim() || undefined;
}

/** The conversion a COMPU_METHOD names (or NO_COMPU_METHOD), or a Skip saying why it cannot be one of ours. */
export function conversionOf(name: string, tables: ConversionTables): Conversion {
  if (name === "NO_COMPU_METHOD") return { kind: "numeric", toPhysical: "X" };
  const method = tables.methods.get(name);
  if (!method) return skip(`its COMPU_METHOD ${name} is not in the file`);
  const tokens = tokensOf(method);
  const type = tokens[2]?.text;
  const unit = unitOf(method, tables);
  const decimals = decimalsOfFormat(tokens[3]?.text);
  const numeric = (scaling: { toPhysical: string; toRaw?: string }): Conversion => ({
    kind: "numeric",
    ...scaling,
    ...(unit && { unit }),
    ...(decimals !== undefined && { decimals }),
  });
  switch (type) {
    case "IDENTICAL":
      return numeric({ toPhysical: "X" });
    case "LINEAR": {
      const [a, b] = numbers(keyword(method, "COEFFS_LINEAR", 2, 5), 2, `LINEAR ${name}: COEFFS_LINEAR`);
      if (a === 0) return skip(`COMPU_METHOD ${name}: LINEAR with factor 0 gives one value for every raw value`);
      return numeric({ toPhysical: b === 0 ? `${literal(a)} * X` : `${literal(a)} * X + ${literal(b)}` });
    }
    case "RAT_FUNC":
      return numeric(ratFunc(method, name));
    case "TAB_INTP":
    case "TAB_NOINTP":
      return numeric(table(method, name, tables, type === "TAB_INTP"));
    case "TAB_VERB":
      return { kind: "verbal", values: verbal(method, name, tables), ...(unit && { unit }) };
    case "FORM": {
      const formula = blocksNamed(method, "FORMULA")[0];
      const source = formula ? tokensOf(formula)[0] : undefined;
      if (!source?.quoted) return skip(`COMPU_METHOD ${name}: FORM without a FORMULA`);
      const toPhysical = formulaExpression(source.text, `COMPU_METHOD ${name}: FORMULA`);
      const inverse = keyword(formula, "FORMULA_INV", 1, 1)?.[0];
      let toRaw: string | undefined;
      if (inverse?.quoted) {
        try {
          toRaw = formulaExpression(inverse.text, `COMPU_METHOD ${name}: FORMULA_INV`);
        } catch {
          toRaw = undefined;
        }
      }
      return numeric({ toPhysical, ...(toRaw && { toRaw }) });
    }
    default:
      return skip(`COMPU_METHOD ${name}: conversion type ${type ?? "(none)"} is not supported`);
  }
}
