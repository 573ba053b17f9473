/**
 * Logs laid on a tune map's own axes, and the corrections they propose: the map's axes as
 * breakpoints, the log channels that index it (found by what they measure), the channels of
 * several logs joined, and a proposal told in plain words for the customer. Framework-free, over
 * the domain's histogram and corrections (domain/logs/map-corrections.ts).
 */
import type { AxisValues, ItemValues } from "../../contracts/tune-definition";
import { describeCorrection } from "../../domain/logs/describe-correction";
import {
  boostCorrection,
  type CorrectionOptions,
  fuelCorrection,
  type MapCorrection,
  type MapOnAxes,
  timingCorrection,
} from "../../domain/logs/map-corrections";
import { type MapHistogram, mapHistogram } from "../../domain/logs/map-histogram";
import { pickRoles, type RoleId } from "../../domain/logs/roles";

/** An axis as breakpoints: its values, or its labels when every one reads as a number. */
export function axisBreakpoints(axis: AxisValues | undefined): number[] | null {
  if (!axis) return null;
  if ("values" in axis) return axis.values;
  const numbers = axis.labels.map((label) => Number(label.replace(/,/g, "")));
  return numbers.every(Number.isFinite) && axis.labels.every((label) => label.trim() !== "") ? numbers : null;
}

/** The map on its axes, or null when an axis is not numbers (logs cannot be binned on it). */
export function mapOnAxes(values: ItemValues): MapOnAxes | null {
  const xBreakpoints = axisBreakpoints(values.x);
  if (!xBreakpoints || xBreakpoints.length !== values.cols) return null;
  if (values.rows <= 1) return { xBreakpoints, values: values.values };
  const yBreakpoints = axisBreakpoints(values.y);
  if (!yBreakpoints || yBreakpoints.length !== values.rows) return null;
  return { xBreakpoints, yBreakpoints, values: values.values };
}

export interface ChannelInfo {
  id: string;
  name: string;
  unit: string;
}

/** What a map axis in this unit is usually indexed by, best first. */
function rolesForUnit(unit: string | undefined): RoleId[] {
  const u = (unit ?? "").trim().toLowerCase();
  if (/rpm|1\/min/.test(u)) return ["engineSpeed"];
  if (/psi|bar|kpa|hpa|mbar/.test(u)) return ["boost"];
  if (/mg|g\/s|kg\/h/.test(u)) return ["airMass", "load"];
  if (u === "%") return ["load", "throttle", "pedal"];
  if (/°c|degc|temp/.test(u)) return ["intakeAirTemp", "coolantTemp"];
  return [];
}

/** Channel names by role: logs are joined by name, so the name is what a choice holds. */
const rolesByName = (channels: readonly ChannelInfo[]) => pickRoles(channels.map((c) => ({ ...c, id: c.name })));

/** The first channel of the first role that the log has. */
function firstOf(roles: Map<RoleId, string[]>, wanted: readonly RoleId[]): string | null {
  for (const role of wanted) {
    const ids = roles.get(role);
    if (ids?.length) return ids[0];
  }
  return null;
}

/** The channels that most likely index the map's columns (x) and rows (y), by their axes' units. */
export function axisChannels(
  channels: readonly ChannelInfo[],
  values: ItemValues,
): { x: string | null; y: string | null } {
  const roles = rolesByName(channels);
  // An axis without a unit (labels only) is most often engine speed, else load.
  const guess = (unit: string | undefined, taken: string | null) => {
    const wanted = rolesForUnit(unit);
    if (wanted.length > 0) return firstOf(roles, wanted);
    const free = new Map([...roles].map(([role, names]) => [role, names.filter((name) => name !== taken)]));
    return firstOf(free, ["engineSpeed", "load", "airMass"]);
  };
  const x = guess(values.x?.unit, null);
  return { x, y: values.rows > 1 ? guess(values.y?.unit, x) : null };
}

export type CorrectionKind = "fuel" | "boost" | "timing";

/** The log channels each kind of correction reads, by what they measure. */
export const CORRECTION_INPUTS: Record<CorrectionKind, { name: string; roles: RoleId[] }[]> = {
  fuel: [
    { name: "measured", roles: ["mixture"] },
    { name: "target", roles: ["mixtureTarget"] },
  ],
  boost: [
    { name: "actual", roles: ["boost"] },
    { name: "target", roles: ["boostTarget"] },
  ],
  timing: [{ name: "correction", roles: ["knockCorrection"] }],
};

/** The kind of correction a map most likely takes, from its title and unit. */
export function correctionKindOf(title: string, unit: string | undefined): CorrectionKind {
  const words = `${title} ${unit ?? ""}`.toLowerCase();
  if (/boost|wastegate|pressure|psi|bar|kpa/.test(words)) return "boost";
  if (/timing|ignition|spark|°/.test(words)) return "timing";
  return "fuel";
}

/** Channels of one log by id, each with its samples. */
export interface LogColumns {
  channels: readonly ChannelInfo[];
  columns: ReadonlyMap<string, Float32Array>;
}

/** The channels picked for a correction: a channel name per input, found by what the channels measure. */
export function inputChannels(kind: CorrectionKind, channels: readonly ChannelInfo[]): Record<string, string | null> {
  const roles = rolesByName(channels);
  return Object.fromEntries(CORRECTION_INPUTS[kind].map((input) => [input.name, firstOf(roles, input.roles)]));
}

/**
 * Channels of several logs one after the other, by channel name (each logger names its channels
 * the same in every log it writes); a log without one of them is left out.
 */
export function joinLogs(logs: readonly LogColumns[], names: readonly string[]): Record<string, Float32Array> {
  const idsOf = (log: LogColumns) => names.map((name) => log.channels.find((c) => c.name === name)?.id);
  const usable = logs.filter((log) => idsOf(log).every((id) => id !== undefined && log.columns.has(id)));
  const length = usable.reduce((sum, log) => sum + log.columns.get(idsOf(log)[0]!)!.length, 0);
  const joined = Object.fromEntries(names.map((name) => [name, new Float32Array(length)]));
  let at = 0;
  for (const log of usable) {
    const ids = idsOf(log);
    for (const [k, name] of names.entries()) joined[name].set(log.columns.get(ids[k]!)!, at);
    at += log.columns.get(ids[0]!)!.length;
  }
  return joined;
}

export interface OnMapChoice {
  /** Channel names, as joinLogs takes them. */
  x: string;
  y?: string;
  /** The channel whose mean each cell shows. */
  z: string;
  minSamples: number;
}

/** Per cell of the map, the hit count and the chosen channel's mean over the logs. */
export function logsOnMap(logs: readonly LogColumns[], map: MapOnAxes, choice: OnMapChoice): MapHistogram {
  const names = [choice.x, ...(choice.y && map.yBreakpoints ? [choice.y] : []), choice.z];
  const joined = joinLogs(logs, names);
  return mapHistogram(
    { x: joined[choice.x], y: map.yBreakpoints && choice.y ? joined[choice.y] : undefined, z: joined[choice.z] },
    { xBreakpoints: map.xBreakpoints, yBreakpoints: map.yBreakpoints, minSamples: choice.minSamples },
  );
}

export interface CorrectionChoice {
  kind: CorrectionKind;
  x: string;
  y?: string;
  /** Channel names per input of the kind (CORRECTION_INPUTS). */
  inputs: Record<string, string>;
  /** Fuel only: the fuel's stoichiometric AFR when the measured channel is an AFR. */
  stoichiometric?: number;
}

/** The correction the logs propose for the map. */
export function proposeCorrection(
  logs: readonly LogColumns[],
  map: MapOnAxes,
  choice: CorrectionChoice,
  options: CorrectionOptions,
): MapCorrection {
  const inputs = CORRECTION_INPUTS[choice.kind].map((input) => choice.inputs[input.name]);
  const withY = Boolean(map.yBreakpoints && choice.y);
  const joined = joinLogs(logs, [choice.x, ...(withY ? [choice.y!] : []), ...inputs]);
  const rows = { x: joined[choice.x], y: withY ? joined[choice.y!] : undefined };
  const [first, second] = inputs.map((name) => joined[name]);
  if (choice.kind === "fuel")
    return fuelCorrection(
      { ...rows, measured: first, target: second, stoichiometric: choice.stoichiometric },
      map,
      options,
    );
  if (choice.kind === "boost") return boostCorrection({ ...rows, actual: first, target: second }, map, options);
  return timingCorrection({ ...rows, correction: first, statistic: "mean", threshold: 0 }, map, options);
}

/** The proposal with only the accepted cells (by value index), each at the value the dealer set. */
export function acceptedCorrection(correction: MapCorrection, accepted: ReadonlyMap<number, number>): MapCorrection {
  const after = [...correction.before];
  const cells = correction.cells.map((cell, k) => {
    const value = accepted.get(k);
    if (!cell || value === undefined || value === cell.before) return null;
    after[k] = value;
    return { ...cell, after: value, change: value - cell.before };
  });
  return { ...correction, after, cells };
}

/** The changed cells as the corrections route takes them. */
export function changedCells(correction: MapCorrection, cols: number) {
  return correction.cells.flatMap((cell, k) =>
    cell ? [{ row: Math.floor(k / cols), col: k % cols, value: cell.after }] : [],
  );
}

const LABELS: Record<CorrectionKind, string> = { fuel: "fuel", boost: "boost", timing: "timing" };

/** One plain sentence per region of change, saying how many logs showed it. */
export function correctionReasons(
  kind: CorrectionKind,
  correction: MapCorrection,
  map: MapOnAxes,
  values: ItemValues,
  logCount: number,
  /** The units of the channels on the axes, for axes the definition gives none. */
  channelUnits: { x?: string; y?: string } = {},
): string[] {
  const wording = {
    label: LABELS[kind],
    unit: kind === "fuel" ? "%" : (values.unit ?? ""),
    xUnit: values.x?.unit || channelUnits.x || "",
    yUnit: values.y?.unit || channelUnits.y,
  };
  const where = logCount === 1 ? "in the log you sent" : `in the ${logCount} logs you sent`;
  return describeCorrection(correction, map, wording).map((phrase) => `${phrase} there ${where}`);
}
