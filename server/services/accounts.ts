import { eq } from "drizzle-orm";
import type { UserRecord } from "firebase-admin/auth";
import type { Account, AccountPreferences } from "../../contracts/account";
import { roleFromClaims } from "../../contracts/account";
import type { Db } from "../db/connection";
import { dealerProfiles, users } from "../db/schema";

/** Joins the identity user (credentials, verification) with our row (role mirror, preferences, dealer profile). */
export async function accountOf(db: Db, record: UserRecord): Promise<Account> {
  const [row] = await db.select().from(users).where(eq(users.uid, record.uid)).limit(1);
  const [dealer] = await db
    .select({ id: dealerProfiles.id, businessName: dealerProfiles.businessName, status: dealerProfiles.status })
    .from(dealerProfiles)
    .where(eq(dealerProfiles.userUid, record.uid))
    .limit(1);
  return {
    uid: record.uid,
    displayName: record.displayName ?? null,
    photoURL: record.photoURL ?? null,
    email: record.email ?? null,
    emailVerified: record.emailVerified,
    phoneNumber: record.phoneNumber ?? null,
    tenantId: record.tenantId ?? null,
    providerData: record.providerData.map((provider) => ({
      providerId: provider.providerId,
      uid: provider.uid,
      email: provider.email ?? null,
      displayName: provider.displayName ?? null,
    })),
    creationTime: record.metadata.creationTime ? new Date(record.metadata.creationTime).toISOString() : null,
    lastSignInTime: record.metadata.lastSignInTime ? new Date(record.metadata.lastSignInTime).toISOString() : null,
    isAnonymous: record.providerData.length === 0 && !record.email,
    disabled: record.disabled,
    role: roleFromClaims(record.customClaims),
    profile: {
      preferences: (row?.preferences ?? {}) as AccountPreferences,
      dealer: dealer ?? null,
    },
  };
}
