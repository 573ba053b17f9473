/**
 * The refusal of a delete while other records still refer to the one deleted: it names the first
 * few so that the caller can find and remove them, and carries them all as its data.
 */

import { conflict } from "./errors";
import type { Referrer } from "./firmware-support/references";

export function stillUsed(label: string, referrers: Referrer[]) {
  const names = referrers.slice(0, 5).map((r) => `${r.resource} "${r.label}"`);
  const more = referrers.length > 5 ? ` and ${referrers.length - 5} more` : "";
  return conflict(`${label} is still used by ${names.join(", ")}${more}; remove those references first`, referrers);
}
