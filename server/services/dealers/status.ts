/**
 * A dealer's status: an admin approves, rejects, suspends or reinstates with the reason the dealer
 * is told, or removes the profile (suspending it instead while orders are in flight). The dealer
 * claim follows the status and the user's sessions are revoked, so it counts at the next request.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Role, roleFromClaims } from "../../../contracts/account";
import {
  DEALER_TRANSITIONS,
  type DealerProfile,
  type DealerStatus,
  type DealerStatusChange,
} from "../../../contracts/dealers";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/handle";
import { dealerProfiles, orders } from "../../db/schema";
import { findUserRecord } from "../accounts";
import { type AuditActor, writeAudit } from "../audit";
import { conflict } from "../errors";
import type { NotificationInput, Notify } from "../notifications";
import { applyRole } from "../users";
import { lockedProfileRow, type ProfileRow, profileOf } from "./profiles";

function statusNotification(row: ProfileRow, from: DealerStatus, reason: string): NotificationInput {
  const base = { recipientUid: row.userUid, body: `${reason}` };
  switch (row.status) {
    case "approved":
      return from === "suspended"
        ? {
            ...base,
            kind: "dealer.approved",
            title: `${row.businessName} is active again`,
            body: `Your dealer account was reinstated: ${reason}`,
            link: "/my-tunes",
          }
        : {
            ...base,
            kind: "dealer.approved",
            title: `${row.businessName} is approved as a dealer`,
            body: `You can now publish tunes and work tuning requests. ${reason}`,
            link: "/my-tunes",
          };
    case "rejected":
      return {
        ...base,
        kind: "dealer.rejected",
        title: `Your dealer application for ${row.businessName} was not approved`,
        body: `Reason: ${reason}`,
        link: "/dealer-account-request",
      };
    case "suspended":
      return {
        ...base,
        kind: "dealer.suspended",
        title: `${row.businessName} is suspended`,
        body: `Your tunes are hidden from the directory until an administrator reinstates you. Reason: ${reason}`,
        link: null,
      };
    default:
      throw new Error(`no notification for the status ${row.status}`);
  }
}

/**
 * The dealer claim follows the status (admins keep theirs); old tokens are revoked so it counts at
 * once, and the dealer's open app is told (it signs in again with the new claims).
 */
async function applyClaims(ctx: AppContext, row: ProfileRow): Promise<void> {
  const record = await findUserRecord(ctx.identity.auth, row.userUid);
  if (!record) return;
  const current = roleFromClaims(record.customClaims);
  const role: Role = current === "admin" ? "admin" : row.status === "approved" ? "dealer" : "customer";
  const message = `${row.businessName} is now ${row.status}${row.statusReason ? `: ${row.statusReason}` : ""}`;
  const { told } = await applyRole(
    { auth: ctx.identity.auth, db: ctx.db, users: ctx.users, accountEvents: ctx.accountEvents },
    { uid: row.userUid, role, reason: "dealer-status-changed", message },
  );
  await told();
}

/** The columns of a profile that move to `status`, with the reason and who moved it. */
export const statusChange = (status: DealerStatus, reason: string, byUid: string | null) => ({
  status,
  statusReason: reason,
  statusChangedBy: byUid,
  statusChangedAt: new Date(),
  updatedAt: new Date(),
});

/** Moves the locked profile to `status` with the reason, tells the dealer (unless it already had it) and audits. */
async function setStatus(
  tx: Tx,
  notify: Notify,
  actor: AuditActor,
  current: ProfileRow,
  change: { status: DealerStatus; reason: string },
): Promise<ProfileRow> {
  const { status, reason } = change;
  const [changed] = await tx
    .update(dealerProfiles)
    .set(statusChange(status, reason, actor.uid))
    .where(eq(dealerProfiles.id, current.id))
    .returning();
  if (current.status !== status) await notify(statusNotification(changed, current.status, reason));
  await writeAudit(tx, actor, {
    action: "dealer.status-changed",
    targetType: "dealer",
    targetId: current.id,
    subjectUid: current.userUid,
    before: { status: current.status },
    after: { status, reason },
  });
  return changed;
}

/** Admin: approve, reject, suspend or reinstate, with the reason the dealer is told. The same status again only re-applies the claim. */
export async function changeDealerStatus(
  ctx: AppContext,
  actor: AuditActor,
  id: string,
  change: DealerStatusChange,
): Promise<DealerProfile> {
  const { status } = change;
  const row = await ctx.notifications.transaction(async (tx, notify) => {
    const current = await lockedProfileRow(tx, id);
    if (current.status === status) return current;
    if (!DEALER_TRANSITIONS[current.status].includes(status)) {
      const allowed = DEALER_TRANSITIONS[current.status];
      const message = `a ${current.status} dealer cannot become ${status}${allowed.length ? `; it can become ${allowed.join(" or ")}` : ""}`;
      throw conflict(message, [{ path: "status", message }]);
    }
    return setStatus(tx, notify, actor, current, change);
  });
  await applyClaims(ctx, row);
  return profileOf(ctx.db, row);
}

/** What removing a dealer did: removed, or suspended (with why) while their orders are in flight. */
export type DealerRemoval = { removed: true } | { removed: false; reason: string; dealer: DealerProfile };

/**
 * Admin: removes a profile; the user loses the dealer claim, their tunes stay theirs. A dealer
 * with orders in flight (open checkouts, or paid sales that may still be refunded) is suspended
 * instead, so those customers keep their recourse.
 */
export async function removeDealer(ctx: AppContext, actor: AuditActor, id: string): Promise<DealerRemoval> {
  const outcome = await ctx.notifications.transaction(async (tx, notify) => {
    const row = await lockedProfileRow(tx, id);
    const [inFlight] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.dealerUid, row.userUid), inArray(orders.status, ["created", "failed", "paid"])));
    if (inFlight.n === 0) {
      await tx.delete(dealerProfiles).where(eq(dealerProfiles.id, row.id));
      await writeAudit(tx, actor, {
        action: "dealer.removed",
        targetType: "dealer",
        targetId: row.id,
        subjectUid: row.userUid,
        before: { businessName: row.businessName, status: row.status },
      });
      return { removed: true as const, row };
    }
    const reason = `removal requested with ${inFlight.n} order(s) in flight: suspended so their customers keep their recourse`;
    const suspended = await setStatus(tx, notify, actor, row, { status: "suspended", reason });
    return { removed: false as const, row: suspended };
  });
  await applyClaims(ctx, outcome.removed ? { ...outcome.row, status: "rejected" } : outcome.row);
  if (outcome.removed) return { removed: true };
  return { removed: false, reason: outcome.row.statusReason ?? "", dealer: await profileOf(ctx.db, outcome.row) };
}
