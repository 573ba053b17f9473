/**
 * The timeline's records grouped as a reader takes them in: consecutive records that say the
 * same thing (the same `sameAs`) become one entry with a count, their first and last time and
 * their members. Pure: the records come from services/user-vehicles/timeline.ts.
 */
import type { TimelineEntry, TimelineKind } from "../../../contracts/user-vehicles";

/** One row of a timeline source, newest first in the order (`key`, `id`). */
export interface TimelineRecord {
  kind: TimelineKind;
  /** The time as UTC text with microseconds: fixed width, so text order is time order. */
  key: string;
  /** The row's own id: the tie-break between records of one time, and the cursor's. */
  id: string;
  at: string;
  refId: string | null;
  title: string;
  detail: string;
  result: string | null;
  /** Records of one kind with the same value, one after another, merge; null never merges. */
  sameAs: string | null;
}

/** An entry and the oldest record it stands for, where the next page starts. */
export interface TimelineGroup {
  entry: TimelineEntry;
  oldest: TimelineRecord;
}

/** The most records one entry stands for: a longer run shows as several entries. */
export const GROUP_MAX_MEMBERS = 100;

/** Records newest first → entries newest first. */
export function groupTimeline(records: readonly TimelineRecord[], maxMembers = GROUP_MAX_MEMBERS): TimelineGroup[] {
  const runs: TimelineRecord[][] = [];
  for (const record of records) {
    const run = runs.at(-1);
    const head = run?.[0];
    if (
      run &&
      head &&
      record.sameAs !== null &&
      head.kind === record.kind &&
      head.sameAs === record.sameAs &&
      run.length < maxMembers
    )
      run.push(record);
    else runs.push([record]);
  }
  return runs.map((run) => {
    const newest = run[0]!;
    const oldest = run.at(-1)!;
    return {
      oldest,
      entry: {
        kind: newest.kind,
        at: newest.at,
        firstAt: oldest.at,
        count: run.length,
        refId: newest.refId,
        title: newest.title,
        detail: newest.detail,
        result: newest.result,
        members: run.length > 1 ? run.map(({ at, refId, detail }) => ({ at, refId, detail })) : [],
      },
    };
  });
}

/** Whether a connect brought another software id or a fault code the one before it lacked; the car's first did not. */
export function connectChanged(
  connect: { softwareId: string | null; faultCodes: string[] },
  before: { softwareId: string | null; faultCodes: string[] } | undefined,
): boolean {
  if (!before) return false;
  const known = new Set(before.faultCodes);
  return connect.softwareId !== before.softwareId || connect.faultCodes.some((code) => !known.has(code));
}
