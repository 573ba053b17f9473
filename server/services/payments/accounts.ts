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
import { invalid, NotFoundRefusal, OrderConflict, ProviderUnavailable } from "../errors";
import type { VerifiedCaller } from "../identity";
import { PaymentProviderError } from "./provider";

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
      throw invalid("Unknown account", `the event names no payout account of ours (${accountId || "none"})`);
    return "applied";
  });
}

/**
 * A dealer starts (or resumes) onboarding: the account is made once at the provider (key
 * `account-<uid>`) and stored under its unique user; the answer says where to complete it.
 */
export async function startOnboarding(
  ctx: AppContext,
  caller: VerifiedCaller,
  returnUrl: string,
): Promise<{ account: ConnectedAccount; onboardingUrl: string }> {
  const provider = ctx.payments;
  let row = await accountOf(ctx.db, caller.uid);
  if (!row) {
    const accountId = await provider
      .createAccount({ uid: caller.uid, email: caller.email }, `account-${caller.uid}`)
      .catch((error: unknown) => {
        if (error instanceof PaymentProviderError)
          throw new ProviderUnavailable("the payment provider did not answer; try again in a moment");
        throw error;
      });
    await ctx.db
      .insert(connectedAccounts)
      .values({ userUid: caller.uid, provider: provider.kind, accountId })
      .onConflictDoNothing();
    row = (await accountOf(ctx.db, caller.uid)) as AccountRow;
  }
  const onboardingUrl = await provider.onboardingUrl(row.accountId, returnUrl);
  return { account: accountToApi(row), onboardingUrl };
}

/** The sandbox's onboarding completes: its `account.updated` event says the account takes charges. */
export async function completeSandboxOnboarding(ctx: AppContext, userUid: string): Promise<AccountRow | null> {
  const provider = ctx.payments;
  if (provider.kind !== "sandbox")
    throw new NotFoundRefusal("The sandbox onboarding (a real payment provider is configured)");
  const row = await accountOf(ctx.db, userUid);
  if (!row) throw new OrderConflict("start the payout account's setup first", "account");
  await provider.emit("account.updated", {
    id: row.accountId,
    object: "account",
    charges_enabled: true,
    payouts_enabled: true,
    requirements: { currently_due: [] },
  });
  return accountOf(ctx.db, userUid);
}
