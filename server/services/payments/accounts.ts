/**
 * Dealers' payout accounts: made at the provider when a dealer starts onboarding, their state
 * (charges and payouts enabled, what is still due) taken only from the provider's verified
 * `account.updated` events, each applied once like the payment events.
 */
import { eq } from "drizzle-orm";
import type { ConnectedAccount } from "../../../contracts/payments";
import type { AppContext } from "../../context";
import type { Db, Tx } from "../../db/handle";
import { connectedAccounts, paymentEvents } from "../../db/schema";
import { badRequest } from "../../errors";

export type AccountRow = typeof connectedAccounts.$inferSelect;

export const accountToApi = (row: AccountRow): ConnectedAccount => ({
  provider: row.provider,
  accountId: row.accountId,
  chargesEnabled: row.chargesEnabled,
  payoutsEnabled: row.payoutsEnabled,
  requirementsDue: row.requirementsDue,
  ready: row.chargesEnabled,
  updatedAt: row.updatedAt.toISOString(),
});

export async function accountOf(db: Db | Tx, userUid: string): Promise<AccountRow | null> {
  const [row] = await db.select().from(connectedAccounts).where(eq(connectedAccounts.userUid, userUid));
  return row ?? null;
}

/** The account a dealer's sales are paid to, when it takes charges; null otherwise. */
export async function readyAccountOf(db: Db | Tx, userUid: string): Promise<AccountRow | null> {
  const row = await accountOf(db, userUid);
  return row?.chargesEnabled ? row : null;
}

/** Applies a verified `account.updated` event once; an account we did not make is refused with nothing stored. */
export async function applyAccountEvent(
  ctx: AppContext,
  event: { id: string; type: string; data: { object: Record<string, unknown> } },
): Promise<"applied" | "duplicate"> {
  const object = event.data.object;
  const accountId = typeof object.id === "string" ? object.id : "";
  const requirements = (object.requirements ?? {}) as { currently_due?: unknown };
  const due = Array.isArray(requirements.currently_due)
    ? requirements.currently_due.filter((item): item is string => typeof item === "string")
    : [];
  return ctx.db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(paymentEvents)
      .values({ id: event.id, type: event.type, outcome: "applied" })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (!fresh) return "duplicate";
    const [changed] = await tx
      .update(connectedAccounts)
      .set({
        chargesEnabled: object.charges_enabled === true,
        payoutsEnabled: object.payouts_enabled === true,
        requirementsDue: due,
        updatedAt: new Date(),
      })
      .where(eq(connectedAccounts.accountId, accountId))
      .returning();
    if (!changed)
      throw badRequest("Unknown account", `the event names no payout account of ours (${accountId || "none"})`);
    return "applied";
  });
}
