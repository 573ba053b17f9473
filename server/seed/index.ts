import type { FastifyInstance } from "fastify";
import type { Auth, UserRecord } from "firebase-admin/auth";
import type { Role } from "../../contracts/account";
import { connectedAccounts, dealerProfiles, users } from "../db/schema";
import { seedCatalogue } from "./catalogue";
import { DEMO_PASSWORD, demoAccounts } from "./demo-accounts";
import { seedFlashing } from "./flashing";
import { seedTunes } from "./tunes";
import { seedTuningRequests } from "./tuning-requests";

export { DEMO_PASSWORD, demoAccounts } from "./demo-accounts";

const claimsFor = (role: Role) => (role === "customer" ? {} : { [role]: true });

/** The identity account of a demo user, made when missing; safe when several servers seed one identity project at once. */
export async function ensureIdentityUser(
  auth: Auth,
  account: Pick<(typeof demoAccounts)[number], "email" | "displayName">,
): Promise<UserRecord> {
  try {
    return await auth.getUserByEmail(account.email);
  } catch (error) {
    if ((error as { code?: string }).code !== "auth/user-not-found") throw error;
  }
  try {
    return await auth.createUser({
      email: account.email,
      password: DEMO_PASSWORD,
      displayName: account.displayName,
      emailVerified: true,
    });
  } catch (error) {
    // Another server seeding the same identity project at the same moment made it first: use theirs.
    if ((error as { code?: string }).code !== "auth/email-already-exists") throw error;
    return auth.getUserByEmail(account.email);
  }
}

/**
 * Creates the demo accounts and their rows; safe to run at every start. Takes the app, not only
 * its context: the demo car's flash history is played through the API (seed/flashing.ts).
 */
export async function seedDemo(app: FastifyInstance) {
  const { ctx } = app;
  const { auth } = ctx.identity;
  const seeded = [];
  for (const account of demoAccounts) {
    const record = await ensureIdentityUser(auth, account);
    await auth.setCustomUserClaims(record.uid, claimsFor(account.role));
    await ctx.db
      .insert(users)
      .values({
        uid: record.uid,
        email: account.email,
        displayName: record.displayName ?? account.displayName,
        role: account.role,
      })
      .onConflictDoUpdate({ target: users.uid, set: { role: account.role, email: account.email } });
    if (account.role === "dealer") {
      await ctx.db
        .insert(dealerProfiles)
        .values({
          userUid: record.uid,
          businessName: "Demo Performance Ltd",
          status: "approved",
          country: "GB",
          address: "1 Dyno Lane, Coventry CV1 2AB, United Kingdom",
          registrationNumber: "01234567",
          vatNumber: "GB123456789",
          website: "https://demo-performance.example.com",
          phone: "+442476000000",
          about:
            "Family-run tuning workshop in Coventry with our own rolling road. We map petrol and diesel engines for road and track, " +
            "and every custom tune is checked on the dyno before we deliver it.\n\n" +
            "Ask us for a custom tune: send your stock read and a data log, and tell us what you drive and what you want from it.",
        })
        .onConflictDoNothing({ target: dealerProfiles.userUid });
      // The demo dealer has finished the sandbox's payout onboarding, so the demo tunes can be sold.
      await ctx.db
        .insert(connectedAccounts)
        .values({
          userUid: record.uid,
          provider: "sandbox",
          accountId: "acct_sandbox_demo_dealer",
          chargesEnabled: true,
          payoutsEnabled: true,
        })
        .onConflictDoNothing();
    }
    seeded.push({ uid: record.uid, email: account.email, role: account.role });
  }
  await seedTunes(ctx, seeded);
  await seedCatalogue(ctx, seeded);
  await seedFlashing(app, seeded);
  await seedTuningRequests(app, seeded);
  return seeded;
}
