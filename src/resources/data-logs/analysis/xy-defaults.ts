/** The X–Y plot a log opens with, from its channels' roles: engine speed on X, boost (else mixture, timing) on Y. */
import type { FormatId } from "../../../../domain/logs";
import { pickRoles, type RoleId } from "../../../../domain/logs/roles";
import type { ChartChannel } from "./channels";
import type { XyChoice } from "./xy-view";

const Y_ROLES: RoleId[] = ["boost", "mixture", "timing", "throttle", "load"];

/** Null for a log of fewer than two channels, which has nothing to plot against anything. */
export function xyDefaults(channels: readonly ChartChannel[], format?: FormatId): XyChoice | null {
  if (channels.length < 2) return null;
  const picked = pickRoles(channels, format);
  const xId = picked.get("engineSpeed")?.[0] ?? channels[0].id;
  const yId =
    Y_ROLES.map((role) => picked.get(role)?.[0]).find((id) => id !== undefined && id !== xId) ??
    channels.find((channel) => channel.id !== xId)!.id;
  return { xId, yId };
}
