/**
 * Display units of log channels: pressure (psi, bar, kPa), temperature (°C, °F) and mixture
 * (AFR, lambda). Loggers spell units many ways (`*C`, `degF`, `kpa`, `λ`); each is recognised,
 * and a conversion is linear (`value * scale + offset`) so it applies as cheaply to a readout
 * as to every drawn point.
 */

export type UnitFamily = "pressure" | "temperature" | "mixture";

export const DISPLAY_UNITS = {
  pressure: ["psi", "bar", "kPa"],
  temperature: ["°C", "°F"],
  mixture: ["AFR", "λ"],
} as const satisfies Record<UnitFamily, readonly string[]>;

export type DisplayUnits = { [F in UnitFamily]: (typeof DISPLAY_UNITS)[F][number] };

/** Stoichiometric AFR of petrol, for AFR ↔ lambda. */
export const STOICH_AFR = 14.7;

// scale/offset convert this unit to the family's base unit.
const KNOWN: Record<string, { family: UnitFamily; scale: number; offset: number }> = {
  psi: { family: "pressure", scale: 6.894757, offset: 0 },
  bar: { family: "pressure", scale: 100, offset: 0 },
  mbar: { family: "pressure", scale: 0.1, offset: 0 },
  hpa: { family: "pressure", scale: 0.1, offset: 0 },
  kpa: { family: "pressure", scale: 1, offset: 0 },
  "°c": { family: "temperature", scale: 1, offset: 0 },
  c: { family: "temperature", scale: 1, offset: 0 },
  "*c": { family: "temperature", scale: 1, offset: 0 },
  degc: { family: "temperature", scale: 1, offset: 0 },
  "°f": { family: "temperature", scale: 5 / 9, offset: -32 * (5 / 9) },
  f: { family: "temperature", scale: 5 / 9, offset: -32 * (5 / 9) },
  "*f": { family: "temperature", scale: 5 / 9, offset: -32 * (5 / 9) },
  degf: { family: "temperature", scale: 5 / 9, offset: -32 * (5 / 9) },
  λ: { family: "mixture", scale: 1, offset: 0 },
  lambda: { family: "mixture", scale: 1, offset: 0 },
  lam: { family: "mixture", scale: 1, offset: 0 },
  afr: { family: "mixture", scale: 1 / STOICH_AFR, offset: 0 },
  "a/f": { family: "mixture", scale: 1 / STOICH_AFR, offset: 0 },
};

const known = (unit: string) => KNOWN[unit.trim().toLowerCase()] ?? null;

export function unitFamily(unit: string): UnitFamily | null {
  return known(unit)?.family ?? null;
}

export interface Conversion {
  unit: string;
  scale: number;
  offset: number;
}

const IDENTITY = (unit: string): Conversion => ({ unit, scale: 1, offset: 0 });

/** How to show a channel of `unit` in the chosen display units; unknown units stay as they are. */
export function conversionFor(unit: string, display: DisplayUnits): Conversion {
  const from = known(unit);
  if (!from) return IDENTITY(unit);
  const target = display[from.family];
  const to = known(target)!;
  // value → base → target: base = v·from.scale + from.offset, target = (base − to.offset) / to.scale.
  return { unit: target, scale: from.scale / to.scale, offset: (from.offset - to.offset) / to.scale };
}

export const convert = (value: number, conversion: Conversion): number => value * conversion.scale + conversion.offset;

export const DEFAULT_DISPLAY_UNITS: DisplayUnits = { pressure: "psi", temperature: "°C", mixture: "AFR" };

/** A reading in display units, as the readout and the chart's legend show it: more decimals for smaller values. */
export function readingText(value: number): string {
  const digits = Math.abs(value) >= 100 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return value.toFixed(digits);
}
