import { eq, sql } from "drizzle-orm";
import type { Auth, UserRecord } from "firebase-admin/auth";
import type { Account, AccountPreferences } from "../../contracts/account";
import { roleFromClaims } from "../../contracts/account";
import type { Db } from "../db/connection";
import { dealerProfiles, users } from "../db/schema";
import { conflict, invalid, notFound } from "./errors";

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

/** The identity user, or null when the identity service has none. */
export async function findUserRecord(auth: Pick<Auth, "getUser">, uid: string): Promise<UserRecord | null> {
  try {
    return await auth.getUser(uid);
  } catch (error) {
    if ((error as { code?: string }).code === "auth/user-not-found") return null;
    throw error;
  }
}

/** The identity user; an unknown uid is not found. */
export async function userRecord(auth: Pick<Auth, "getUser">, uid: string): Promise<UserRecord> {
  const record = await findUserRecord(auth, uid);
  if (!record) throw notFound(`User ${uid}`);
  return record;
}

/** Changes the identity user's own fields; a phone number in use is a 409, an invalid field a 400. */
export async function updateIdentityUser(
  auth: Pick<Auth, "updateUser">,
  uid: string,
  fields: Parameters<Auth["updateUser"]>[1],
): Promise<UserRecord> {
  try {
    return await auth.updateUser(uid, fields);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "auth/phone-number-already-exists") {
      throw conflict("That phone number belongs to another account", [
        { path: "phoneNumber", message: "Used by another account" },
      ]);
    }
    if (
      code === "auth/invalid-phone-number" ||
      code === "auth/invalid-photo-url" ||
      code === "auth/invalid-display-name"
    ) {
      throw invalid("Invalid body", (error as Error).message);
    }
    throw error;
  }
}

/** Mirrors the identity user's fields into our row and merges the preferences given into the stored ones. */
export async function saveAccountPatch(
  db: Db,
  record: UserRecord,
  preferences: Partial<AccountPreferences> | undefined,
): Promise<void> {
  await db
    .update(users)
    .set({
      displayName: record.displayName ?? null,
      photoUrl: record.photoURL ?? null,
      phoneNumber: record.phoneNumber ?? null,
      ...(preferences && {
        preferences: sql`${users.preferences} || ${JSON.stringify(preferences)}::jsonb`,
      }),
      updatedAt: new Date(),
    })
    .where(eq(users.uid, record.uid));
}
