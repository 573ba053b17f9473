/**
 * The turnaround a quote promises: its days become the ticket's due date (counted from the quote,
 * then again from payment, since the dealer starts when paid), and a sweep tells the dealer once
 * when a ticket whose work is owed is due within a day and once when it is late. A dealer is one
 * account: its assignee is a name on the ticket, not a user, so the dealer's account is told and
 * the notice names who works it.
 */
import { and, gt, inArray, isNull, lte, type SQL } from "drizzle-orm";
import { WORK_OWED_STATES } from "../../../contracts/tuning-requests";
import type { AppContext } from "../../context";
import { tuningRequests } from "../../db/schema";
import { DAY_MS, type RequestRow, referenceOf } from "./sides";

/** How long before the due date the dealer is reminded. */
export const DUE_SOON_MS = DAY_MS;

/** The due date of a quote of `days` counted from `from`, with the notices of any earlier one forgotten. */
export const dueFrom = (from: Date, days: number) => ({
  dueAt: new Date(from.getTime() + days * DAY_MS),
  dueSoonNotifiedAt: null,
  lateNotifiedAt: null,
});

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const dueWords = (row: RequestRow) => `${when.format(row.dueAt!)} UTC`;
const workedBy = (row: RequestRow) => (row.assignee ? `; worked by ${row.assignee}` : "");

interface Threshold {
  /** The marker column the notice sets. */
  marker: "dueSoonNotifiedAt" | "lateNotifiedAt";
  /** Which owed tickets have reached it at `now`. */
  reached: (now: Date) => SQL;
  notice: (row: RequestRow) => { kind: "tuning-request.due-soon" | "tuning-request.late"; title: string; body: string };
}

const DUE_SOON: Threshold = {
  marker: "dueSoonNotifiedAt",
  // Not yet late: a ticket found past its due date gets the late notice alone.
  reached: (now) =>
    and(lte(tuningRequests.dueAt, new Date(now.getTime() + DUE_SOON_MS)), gt(tuningRequests.dueAt, now))!,
  notice: (row) => ({
    kind: "tuning-request.due-soon",
    title: `${referenceOf(row)}: due within a day`,
    body: `${row.vehicleName}: promised for ${dueWords(row)}${workedBy(row)}`,
  }),
};

const LATE: Threshold = {
  marker: "lateNotifiedAt",
  reached: (now) => lte(tuningRequests.dueAt, now)!,
  notice: (row) => ({
    kind: "tuning-request.late",
    title: `${referenceOf(row)}: late`,
    body: `${row.vehicleName}: due ${dueWords(row)} and not delivered yet${workedBy(row)}`,
  }),
};

/**
 * Marks the owed tickets that reached the threshold and tells their dealers, in one transaction.
 * The update sets the marker only where it is still null, and PostgreSQL checks that again on a
 * row another sweep updated meanwhile, so each ticket is told once per threshold however many
 * instances sweep at once.
 */
async function notice(ctx: AppContext, threshold: Threshold, now: Date): Promise<string[]> {
  return ctx.notifications.transaction(async (tx, notify) => {
    const marked = await tx
      .update(tuningRequests)
      .set({ [threshold.marker]: now })
      .where(
        and(
          isNull(tuningRequests[threshold.marker]),
          inArray(tuningRequests.state, [...WORK_OWED_STATES]),
          threshold.reached(now),
        ),
      )
      .returning();
    for (const row of marked)
      await notify({ recipientUid: row.dealerUid, link: `/tuning-requests/show/${row.id}`, ...threshold.notice(row) });
    return marked.map((row) => row.id);
  });
}

/**
 * Tells dealers of their owed tickets due within a day and of those gone late, once each. `now`
 * is the clock (tests move it). Returns the ids told of each.
 */
export async function noticeDueRequests(
  ctx: AppContext,
  now = new Date(),
): Promise<{ dueSoon: string[]; late: string[] }> {
  const dueSoon = await notice(ctx, DUE_SOON, now);
  const late = await notice(ctx, LATE, now);
  return { dueSoon, late };
}
