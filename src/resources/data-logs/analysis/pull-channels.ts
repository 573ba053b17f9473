/**
 * Which of a log's channels the pull detection reads, picked by their roles (domain/logs/roles.ts):
 * engine speed, pedal or throttle, gear, boost, mixture and every knock or timing correction.
 */
import type { FormatId } from "../../../../domain/logs";
import { channelRole, pickRoles, roleWords } from "../../../../domain/logs/roles";
import type { ChartChannel } from "./channels";

export interface PullChannels {
  rpm: string;
  pedal?: string;
  throttle?: string;
  gear?: string;
  boost?: string;
  mixture?: { id: string; kind: "afr" | "lambda" };
  /**
   * Per-cylinder channels first, so a tie with an engine-wide channel names the cylinder. `retard`
   * marks a channel logging timing taken away as positive degrees (ME7's `IgnitionRetardCyl1`),
   * negated for the detection, whose corrections are negative when timing is taken away.
   */
  corrections: Array<{ id: string; cylinder?: number; retard: boolean }>;
}

/** The pull detection's channels; null when the log has no engine speed, without which there is no pull. */
export function pullChannels(channels: readonly ChartChannel[], format?: FormatId): PullChannels | null {
  const picked = pickRoles(channels, format);
  const first = (role: Parameters<typeof picked.get>[0]) => picked.get(role)?.[0];
  const rpm = first("engineSpeed");
  if (!rpm) return null;
  const byId = new Map(channels.map((channel) => [channel.id, channel]));
  const roleOf = (id: string) => channelRole(byId.get(id)!, format);
  const mixture = first("mixture");
  return {
    rpm,
    pedal: first("pedal"),
    throttle: first("throttle"),
    gear: first("gear"),
    boost: first("boost"),
    mixture: mixture ? { id: mixture, kind: roleOf(mixture)?.mixture ?? "lambda" } : undefined,
    corrections: (picked.get("knockCorrection") ?? [])
      .map((id) => ({
        id,
        cylinder: roleOf(id)?.cylinder,
        retard: /\bretard\b/.test(roleWords(byId.get(id)!.name)),
      }))
      .sort((a, b) => Number(a.cylinder === undefined) - Number(b.cylinder === undefined)),
  };
}
