/**
 * Our users table mirrors every identity account: the identity service owns credentials, we keep
 * role, status and profile, and a copy of what admins search by (email, name, sign-up and last
 * sign-in), since the identity service lists 1,000 accounts a page with no search. The copy is kept
 * in step on each signed-in request, on every admin change, and by `reconcileUsers` (a job).
 */
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { Auth, UserRecord } from "firebase-admin/auth";
import { type AccountStreamEvent, claimsForRole, type Role, roleFromClaims } from "../../contracts/account";
import type { UserSummary } from "../../contracts/users";
import type { Db, Tx } from "../db/handle";
import { type dealerProfiles, profilePictures, users } from "../db/schema";
import type { VerifiedCaller } from "./identity";
import type { Topics } from "./topics";

export interface UserMirror {
  /** Keeps our users row in step with the identity token: role, email, name and sign-in change there first. */
  mirror(caller: VerifiedCaller): Promise<void>;
  /** Forget what was mirrored, so the next request writes again (after we change a role ourselves). */
  forget(uid: string): void;
}

const seconds = (value: unknown) => (typeof value === "number" ? new Date(value * 1000) : null);

/** One upsert per change of a user's email, role, name, verification or sign-in, not one per request. */
export function createUserMirror(db: Db): UserMirror {
  const mirrored = new Map<string, string>();
  return {
    async mirror(caller) {
      const name = typeof caller.claims.name === "string" ? caller.claims.name : null;
      const signedInAt = seconds(caller.claims.auth_time);
      const fingerprint = `${caller.email}|${caller.role}|${name}|${caller.emailVerified}|${signedInAt?.getTime()}`;
      if (mirrored.get(caller.uid) === fingerprint) return;
      const fromToken = {
        email: caller.email,
        role: caller.role,
        emailVerified: caller.emailVerified,
        lastSeenAt: new Date(),
      };
      await db
        .insert(users)
        .values({ uid: caller.uid, ...fromToken, displayName: name, lastSignInAt: signedInAt })
        .onConflictDoUpdate({
          target: users.uid,
          set: {
            ...fromToken,
            // A name set through our API wins over an older token's; the token's fills a blank one.
            displayName: sql`coalesce(${users.displayName}, excluded.display_name)`,
            lastSignInAt: sql`greatest(${users.lastSignInAt}, excluded.last_sign_in_at)`,
            updatedAt: sql`now()`,
          },
        });
      mirrored.set(caller.uid, fingerprint);
    },
    forget: (uid) => mirrored.delete(uid),
  };
}

const dateOf = (text: string | undefined) => (text ? new Date(text) : null);

/** The identity account's fields as our row keeps them. */
function mirroredFields(record: UserRecord) {
  return {
    email: record.email?.toLowerCase() ?? null,
    displayName: record.displayName ?? null,
    photoUrl: record.photoURL ?? null,
    phoneNumber: record.phoneNumber ?? null,
    role: roleFromClaims(record.customClaims),
    disabled: record.disabled,
    emailVerified: record.emailVerified,
    lastSignInAt: dateOf(record.metadata.lastSignInTime),
  };
}

/** Writes the identity account into our row (made if missing), as an admin change or the reconciliation sees it. */
export async function mirrorRecord(db: Db | Tx, record: UserRecord): Promise<void> {
  const fields = mirroredFields(record);
  await db
    .insert(users)
    .values({ uid: record.uid, ...fields, createdAt: dateOf(record.metadata.creationTime) ?? new Date() })
    .onConflictDoUpdate({ target: users.uid, set: { ...fields, deletedAt: null, updatedAt: sql`now()` } });
}

/**
 * Clears who a user was and keeps the row: money (orders, the ledger) and the audit refer to it.
 * Their own data hangs off the row with ON DELETE CASCADE elsewhere; here only the person goes.
 */
export async function anonymiseUser(tx: Db | Tx, uid: string): Promise<void> {
  await tx
    .update(users)
    .set({
      email: null,
      displayName: null,
      photoUrl: null,
      phoneNumber: null,
      disabled: true,
      preferences: {},
      deletedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(users.uid, uid));
  await tx.delete(profilePictures).where(eq(profilePictures.userUid, uid));
}

/**
 * Every identity account into our table, 1,000 per page, and rows whose account is gone (deleted
 * outside the portal) anonymised. Rows made after the walk began are left alone: their account may
 * be newer than the page that would have listed it.
 */
export async function reconcileUsers(
  db: Db,
  auth: Pick<Auth, "listUsers">,
  progress?: { setTotal(n: number): void; step(): void },
): Promise<{ mirrored: number; anonymised: number }> {
  const startedAt = new Date();
  const seen: string[] = [];
  let pageToken: string | undefined;
  do {
    const page = await auth.listUsers(1000, pageToken);
    for (const record of page.users) {
      await mirrorRecord(db, record);
      seen.push(record.uid);
      progress?.step();
    }
    pageToken = page.pageToken;
  } while (pageToken);
  const gone = await db
    .select({ uid: users.uid })
    .from(users)
    .where(
      and(
        isNull(users.deletedAt),
        lt(users.createdAt, startedAt),
        sql`${users.uid} <> all(${sql.param(seen)}::text[])`,
      ),
    );
  for (const { uid } of gone) await anonymiseUser(db, uid);
  return { mirrored: seen.length, anonymised: gone.length };
}

type Row = typeof users.$inferSelect;
type DealerRow = { id: string; businessName: string; status: (typeof dealerProfiles.$inferSelect)["status"] } | null;

export function userSummaryOf(row: Row, dealer: DealerRow): UserSummary {
  return {
    uid: row.uid,
    email: row.email,
    displayName: row.displayName,
    photoURL: row.photoUrl,
    role: row.role,
    disabled: row.disabled,
    emailVerified: row.emailVerified,
    createdAt: row.createdAt.toISOString(),
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    deletedAt: row.deletedAt?.toISOString() ?? null,
    dealer,
  };
}

export interface RoleChange {
  uid: string;
  role: Role;
  reason: AccountStreamEvent["reason"];
  message: string;
}

/**
 * Gives the identity account the role's claims and revokes its refresh tokens, so an old token
 * fails the revocation check on its next call; the user's open app is told with a custom token
 * to sign in again with (it then holds the new claims). Answers the role the account had.
 */
export async function applyRole(
  deps: { auth: Auth; db: Db | Tx; users: UserMirror; accountEvents: Topics<AccountStreamEvent> },
  change: RoleChange,
): Promise<{ previous: Role; told: () => Promise<void> }> {
  const record = await deps.auth.getUser(change.uid);
  const previous = roleFromClaims(record.customClaims);
  if (previous !== change.role) {
    await deps.auth.setCustomUserClaims(change.uid, claimsForRole(change.role, record.customClaims ?? {}));
    await deps.auth.revokeRefreshTokens(change.uid);
  }
  await deps.db.update(users).set({ role: change.role, updatedAt: new Date() }).where(eq(users.uid, change.uid));
  deps.users.forget(change.uid);
  // Told after the caller's transaction commits (the app reads the new role at once).
  const told = async () => {
    if (previous === change.role) return;
    let customToken: string | undefined;
    try {
      customToken = await deps.auth.createCustomToken(change.uid);
    } catch {
      // Without a signing credential the app signs out instead, and the user signs in again.
    }
    deps.accountEvents.publish(change.uid, {
      reason: change.reason,
      message: change.message,
      role: change.role,
      ...(customToken && { customToken }),
    });
  };
  return { previous, told };
}
