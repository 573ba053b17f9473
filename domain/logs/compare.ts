/**
 * Comparing logs: which channel of another log measures what a channel of this one does. Two
 * loggers name one quantity differently (`Engine Speed (rpm)`, `nmot_w`, `RPM`), so channels are
 * matched by role first (domain/logs/roles.ts: the same role, cylinder and bank; a pressure only
 * with one of its kind, since absolute and relative differ by the day's air pressure, which a log
 * seldom has; a mixture as lambda before one as AFR for a lambda, the display converts either),
 * then by the same name.
 */
import { channelRole, roleWords } from "./roles";
import type { FormatId, LogChannel } from "./types";

type Channel = Pick<LogChannel, "id" | "name" | "unit"> & Partial<Pick<LogChannel, "sourceHeader" | "min" | "max">>;

/** One log's channels and the logger that wrote them. */
export interface ComparedSide {
  channels: readonly Channel[];
  format?: FormatId;
}

/**
 * For each channel of `base` that `other` also has, the other's channel id. Each of the other's
 * channels answers for one base channel at most, the first that asks.
 */
export function matchChannels(base: ComparedSide, other: ComparedSide): Map<string, string> {
  const roles = other.channels.map((channel) => ({ channel, role: channelRole(channel, other.format) }));
  const taken = new Set<string>();
  const matches = new Map<string, string>();
  const take = (baseId: string, otherId: string | undefined) => {
    if (otherId === undefined) return false;
    taken.add(otherId);
    matches.set(baseId, otherId);
    return true;
  };
  for (const channel of base.channels) {
    const role = channelRole(channel, base.format);
    const free = roles.filter((candidate) => !taken.has(candidate.channel.id));
    if (role) {
      const same = free.filter(
        ({ role: r }) =>
          r?.role === role.role &&
          r.cylinder === role.cylinder &&
          (r.bank ?? 1) === (role.bank ?? 1) &&
          r.pressure === role.pressure,
      );
      const best = same.find(({ role: r }) => r?.mixture === role.mixture) ?? same[0];
      if (take(channel.id, best?.channel.id)) continue;
    }
    const words = roleWords(channel.name);
    take(channel.id, free.find((candidate) => roleWords(candidate.channel.name) === words)?.channel.id);
  }
  return matches;
}

/** Families whose quantities loggers write in one unit only (rpm, %, degrees, a count). */
const ONE_UNIT_FAMILIES = new Set(["rotation", "percent", "angle", "count"]);

/**
 * The unit to read a matched channel of the other log in. A logger that writes no units (ECUMaster's
 * CSV) leaves a channel in a one-unit family in the unit of the channel it matched, and a unit that
 * differs only in case is the same unit: either way both lines share one axis.
 */
export function comparedUnit(base: Channel, baseFormat: FormatId | undefined, other: Channel): string {
  const theirs = other.unit.trim();
  if (theirs.toLowerCase() === base.unit.trim().toLowerCase()) return base.unit;
  const family = channelRole(base, baseFormat)?.family;
  return theirs === "" && family && ONE_UNIT_FAMILIES.has(family) ? base.unit : other.unit;
}
