/**
 * Sample filters a tuner reaches for, written from the log's channel roles into the filter's own
 * expression language, so they can be read and edited like a typed one: wide-open throttle, in
 * boost, above an engine speed, a warm engine. A filter whose channel or unit the log lacks is left
 * out rather than guessed.
 */
import type { FormatId } from "../../../../domain/logs";
import { channelRole, pickRoles } from "../../../../domain/logs/roles";
import { type ChartChannel, variableOf } from "./channels";

export interface RoleFilter {
  label: string;
  condition: string;
}

/** Atmospheric pressure in the units absolute pressure is logged in: above it, a turbo is making boost. */
const ATMOSPHERE: Record<string, number> = { kpa: 101.3, bar: 1.013, mbar: 1013, hpa: 1013, psi: 14.7, psia: 14.7 };
/** A warm engine's coolant, by the unit it is logged in. */
const WARM_COOLANT: Record<string, number> = { "°c": 80, c: 80, degc: 80, "°f": 176, f: 176, degf: 176 };

const unitOf = (channel: ChartChannel) => channel.unit.trim().toLowerCase();

/** The role filters this log's channels allow, best channel of each role. */
export function roleFilters(channels: readonly ChartChannel[], format?: FormatId): RoleFilter[] {
  const picked = pickRoles(channels, format);
  const byId = new Map(channels.map((channel) => [channel.id, channel]));
  const best = (role: Parameters<typeof picked.get>[0]) => {
    const id = picked.get(role)?.[0];
    return id ? byId.get(id) : undefined;
  };
  const filters: RoleFilter[] = [];
  const demand = best("pedal") ?? best("throttle");
  if (demand) filters.push({ label: "Wide open throttle", condition: `${variableOf(demand.id)} >= 90` });
  const boost = best("boost");
  if (boost) {
    const role = channelRole(boost, format);
    const unit = unitOf(boost);
    // A pressure the role does not say is absolute or relative is left out: 1 bar is boost on a gauge, vacuum on a MAP sensor.
    const atmosphere = role?.pressure === "relative" ? 0 : role?.pressure === "absolute" ? ATMOSPHERE[unit] : undefined;
    if (atmosphere !== undefined)
      filters.push({ label: "In boost", condition: `${variableOf(boost.id)} > ${atmosphere}` });
  }
  const rpm = best("engineSpeed");
  if (rpm) filters.push({ label: "Above 3,000 rpm", condition: `${variableOf(rpm.id)} > 3000` });
  const coolant = best("coolantTemp");
  const warm = coolant ? WARM_COOLANT[unitOf(coolant)] : undefined;
  if (coolant && warm !== undefined)
    filters.push({ label: "Warm engine", condition: `${variableOf(coolant.id)} >= ${warm}` });
  return filters;
}

/** A role filter added to what the box holds: both must hold. */
export const joinConditions = (draft: string, condition: string): string =>
  draft.trim() ? `(${draft.trim()}) && ${condition}` : condition;
