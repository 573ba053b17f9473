import type { FastifyInstance } from "fastify";
import { connectedAccounts } from "../../../server/db/schema";

/** Gives a dealer a sandbox payout account that takes charges, as finished onboarding would. */
export async function readyPayouts(app: FastifyInstance, dealerUid: string): Promise<void> {
  await app.ctx.db
    .insert(connectedAccounts)
    .values({
      userUid: dealerUid,
      provider: "sandbox",
      accountId: `acct_test_${dealerUid}`,
      chargesEnabled: true,
      payoutsEnabled: true,
    })
    .onConflictDoNothing();
}
