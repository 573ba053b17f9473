/**
 * Accounts as support handles them: the searchable list of our mirror, one account, opening an
 * account with a role (the person is invited to set a password), changing role, disabled and name,
 * signing out everywhere and deleting (the row is anonymised where money or the audit refer to it).
 * Every admin change writes an audit row in its transaction and tells the user's open app on their
 * account stream once it commits.
 */
import { and, count, eq, isNotNull, isNull, ne } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { UserRecord } from "firebase-admin/auth";
import type { z } from "zod";
import { type Account, type AccountStreamEvent, claimsForRole } from "../../contracts/account";
import type { UserCreated, UserSummary, userCreateSchema, userPatchSchema } from "../../contracts/users";
import type { AppContext } from "../context";
import type { Db, Tx } from "../db/handle";
import { dealerProfiles, profilePictures, users } from "../db/schema";
import { accountOf, findUserRecord } from "./accounts";
import { type AuditActor, writeAudit } from "./audit";
import { statusChange } from "./dealers/status";
import { conflict, invalid, notFound, StorageUnavailable } from "./errors";
import type { Lister } from "./list-pages";
import { sendInvitation } from "./mail";
import type { Notify } from "./notifications";
import { anonymiseUser, applyRole, mirrorRecord, userSummaryOf } from "./users";

type UserRow = typeof users.$inferSelect;
type UserListRow = { user: UserRow; dealer: Parameters<typeof userSummaryOf>[1] };
export type UserCreate = z.output<typeof userCreateSchema>;
export type UserPatch = z.output<typeof userPatchSchema>;

const dealerColumns = {
  id: dealerProfiles.id,
  businessName: dealerProfiles.businessName,
  status: dealerProfiles.status,
};

interface PgError {
  code?: string;
  cause?: PgError;
}
const isForeignKeyViolation = (error: unknown) => ((error as PgError).cause ?? (error as PgError)).code === "23503";
const codeOf = (error: unknown) => (error as { code?: string } | null)?.code;

/** Tells the user's open app on their account stream. */
const tellAccount = (ctx: AppContext, uid: string, event: AccountStreamEvent) => ctx.accountEvents.publish(uid, event);

/** One user as the list shows them, with their dealer profile's name and status; 404 when we have no row. */
export async function userSummary(db: Db, uid: string): Promise<UserSummary> {
  const [row] = await db
    .select({ user: users, dealer: dealerColumns })
    .from(users)
    .leftJoin(dealerProfiles, eq(dealerProfiles.userUid, users.uid))
    .where(eq(users.uid, uid));
  if (!row) throw notFound(`User ${uid}`);
  return userSummaryOf(row.user, row.dealer);
}

/** The users of our mirror over the list's filter, order and page. */
export async function userPage<Page extends { data: UserListRow[] }>(
  db: Db,
  list: Lister<UserListRow, Page>,
): Promise<Omit<Page, "data"> & { data: UserSummary[] }> {
  const page = await list(({ where, orderBy, limit, offset }) =>
    db
      .select({ user: users, dealer: dealerColumns })
      .from(users)
      .leftJoin(dealerProfiles, eq(dealerProfiles.userUid, users.uid))
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset),
  );
  return { ...page, data: page.data.map((row) => userSummaryOf(row.user, row.dealer)) };
}

/** The account as `auth/account` answers it; a deleted account answers what our row keeps; 404 otherwise. */
export async function userAccount(ctx: AppContext, uid: string): Promise<Account & { deletedAt?: string | null }> {
  const record = await findUserRecord(ctx.identity.auth, uid);
  if (record) return accountOf(ctx.db, record);
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.uid, uid), isNotNull(users.deletedAt)));
  if (!row) throw notFound(`User ${uid}`);
  return {
    uid: row.uid,
    displayName: null,
    photoURL: null,
    email: null,
    emailVerified: false,
    phoneNumber: null,
    tenantId: null,
    providerData: [],
    creationTime: row.createdAt.toISOString(),
    lastSignInTime: row.lastSignInAt?.toISOString() ?? null,
    isAnonymous: false,
    disabled: true,
    role: row.role,
    profile: { preferences: {}, dealer: null },
    deletedAt: row.deletedAt?.toISOString() ?? null,
  };
}

/** The identity account for a new user; an email in use is a 409, an invalid one a 400. */
async function createIdentity(ctx: AppContext, input: UserCreate): Promise<UserRecord> {
  try {
    return await ctx.identity.auth.createUser({
      email: input.email,
      displayName: input.displayName,
      emailVerified: false,
      disabled: false,
    });
  } catch (error) {
    if (codeOf(error) === "auth/email-already-exists")
      throw conflict("An account with this email already exists", [
        { path: "email", message: "already has an account" },
      ]);
    if (codeOf(error) === "auth/invalid-email")
      throw invalid("Invalid body", "email is not valid", [{ path: "email", message: "not a valid email address" }]);
    throw error;
  }
}

/** Our rows of the new account (its mirror, a dealer's approved profile) and the audit, in one transaction. */
async function recordCreatedUser(ctx: AppContext, actor: AuditActor, record: UserRecord, input: UserCreate) {
  await ctx.db.transaction(async (tx) => {
    await mirrorRecord(tx, record);
    if (input.role === "dealer" && input.businessName) {
      await tx.insert(dealerProfiles).values({
        userUid: record.uid,
        businessName: input.businessName,
        status: "approved",
        statusReason: "account opened by an administrator",
        statusChangedBy: actor.uid,
        statusChangedAt: new Date(),
      });
    }
    await writeAudit(tx, actor, {
      action: "user.created",
      targetType: "user",
      targetId: record.uid,
      subjectUid: record.uid,
      after: {
        email: input.email,
        displayName: input.displayName ?? null,
        role: input.role,
        businessName: input.businessName ?? null,
      },
    });
  });
}

/** An admin opens an account with a role; the person is invited to set their password. */
export async function createUser(
  ctx: AppContext,
  actor: AuditActor,
  input: UserCreate,
  log: FastifyBaseLogger,
): Promise<UserCreated> {
  const { auth } = ctx.identity;
  let record = await createIdentity(ctx, input);
  try {
    if (input.role !== "customer") {
      await auth.setCustomUserClaims(record.uid, claimsForRole(input.role));
      record = await auth.getUser(record.uid);
    }
    await recordCreatedUser(ctx, actor, record, input);
  } catch (error) {
    // Our rows did not commit: the identity account goes too, so the admin can simply try again.
    await auth.deleteUser(record.uid).catch(() => undefined);
    throw error;
  }
  // The invited person sets their password from the invitation's link (they have none yet).
  const uid = record.uid;
  const invitationSent = await sendInvitation(ctx, {
    uid,
    email: input.email,
    displayName: input.displayName ?? null,
    role: input.role,
  }).then(
    () => true,
    (error: unknown) => {
      log.warn({ err: error, uid }, "invitation not sent");
      return false;
    },
  );
  return { user: await userSummary(ctx.db, uid), invitationSent };
}

/** 409 unless another admin (not deleted) remains besides `uid`; `path` is the field the refusal names. */
async function refuseLastAdmin(db: Db | Tx, uid: string, path: string): Promise<void> {
  const [others] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, "admin"), ne(users.uid, uid), isNull(users.deletedAt)));
  if (others.n === 0)
    throw conflict("This is the last admin; make another admin first", [{ path, message: "last admin" }]);
}

/** What an admin may not change: their own admin role and their own access, a deleted account, a dealer without a profile. */
async function checkedChange(ctx: AppContext, actor: AuditActor, id: string, patch: UserPatch) {
  const { role, disabled } = patch;
  if (id === actor.uid && role !== undefined && role !== "admin")
    throw conflict("You cannot take your own admin role; ask another admin", [
      { path: "role", message: "not on your own account" },
    ]);
  if (id === actor.uid && disabled)
    throw conflict("You cannot disable your own account", [{ path: "disabled", message: "not on your own account" }]);
  const record = await findUserRecord(ctx.identity.auth, id);
  if (!record) throw notFound(`User ${id}`);
  const before = await userSummary(ctx.db, id);
  if (before.deletedAt) throw conflict("This account was deleted", [{ path: "id", message: "deleted" }]);
  if (role === "dealer" && !before.dealer && !patch.businessName) {
    throw conflict(
      "A dealer needs a dealer profile: give a business name to open one, or let them apply from their account",
      [{ path: "businessName", message: "no dealer profile: give a business name" }],
    );
  }
  return before;
}

type AfterCommit = Array<() => Promise<void> | void>;

/** A new role: claims, the dealer profile following it (suspended when made customer, approved back), the notification. */
async function changeRole(
  ctx: AppContext,
  tx: Tx,
  notify: Notify,
  change: {
    actor: AuditActor;
    id: string;
    role: UserSummary["role"];
    reason: string;
    before: UserSummary;
    businessName?: string;
  },
): Promise<() => Promise<void>> {
  const { actor, id, role, reason, before, businessName } = change;
  if (before.role === "admin") await refuseLastAdmin(tx, id, "role");
  const { told } = await applyRole(
    { auth: ctx.identity.auth, db: tx, users: ctx.users, accountEvents: ctx.accountEvents },
    { uid: id, role, reason: "role-changed", message: `Your role is now ${role}: ${reason}` },
  );
  if (!before.dealer && role === "dealer" && businessName) {
    // The admin opens the profile in the same step: approved, as when an account is opened as a dealer.
    await tx
      .insert(dealerProfiles)
      .values({ userUid: id, businessName, ...statusChange("approved", reason, actor.uid) });
  }
  if (before.dealer && (role === "dealer" || before.role === "dealer")) {
    const status = role === "dealer" ? "approved" : "suspended";
    if (before.dealer.status !== status) {
      await tx
        .update(dealerProfiles)
        .set(statusChange(status, reason, actor.uid))
        .where(eq(dealerProfiles.id, before.dealer.id));
    }
  }
  await notify({
    recipientUid: id,
    kind: "account.role-changed",
    title: `Your role is now ${role}`,
    body: reason,
    link: "/profile",
  });
  return told;
}

/** Name and disabled, at the identity service and in our row; a disabled account loses every session. */
async function changeAccess(ctx: AppContext, tx: Tx, id: string, patch: UserPatch, before: UserSummary) {
  const { auth } = ctx.identity;
  const { disabled, displayName, reason } = patch;
  const afterCommit: AfterCommit = [];
  if (displayName !== undefined && displayName !== before.displayName) {
    await auth.updateUser(id, { displayName });
    await tx.update(users).set({ displayName, updatedAt: new Date() }).where(eq(users.uid, id));
  }
  if (disabled !== undefined && disabled !== before.disabled) {
    // Disabled at the identity service (no new sign-in, no refresh) and every session revoked.
    await auth.updateUser(id, { disabled });
    if (disabled) await auth.revokeRefreshTokens(id);
    await tx.update(users).set({ disabled, updatedAt: new Date() }).where(eq(users.uid, id));
    ctx.users.forget(id);
    if (disabled)
      afterCommit.push(() =>
        tellAccount(ctx, id, { reason: "disabled", message: `Your account was disabled: ${reason}` }),
      );
  }
  return afterCommit;
}

/** Admin: role, disabled and display name, with the reason the audit keeps and the user reads; answers the user after. */
export async function changeUser(ctx: AppContext, actor: AuditActor, id: string, patch: UserPatch) {
  const { role, disabled, displayName, reason } = patch;
  const before = await checkedChange(ctx, actor, id, patch);
  const afterCommit: AfterCommit = [];
  await ctx.notifications.transaction(async (tx, notify) => {
    // One admin change at a time per account: a second waits here and sees the first's result.
    await tx.select({ uid: users.uid }).from(users).where(eq(users.uid, id)).for("update");
    if (role !== undefined && role !== before.role)
      afterCommit.push(
        await changeRole(ctx, tx, notify, { actor, id, role, reason, before, businessName: patch.businessName }),
      );
    afterCommit.push(...(await changeAccess(ctx, tx, id, patch, before)));
    const after = {
      ...(role !== undefined && { role }),
      ...(disabled !== undefined && { disabled }),
      ...(displayName !== undefined && { displayName }),
      ...(role === "dealer" && !before.dealer && { businessName: patch.businessName }),
    };
    const changedBefore = Object.fromEntries(
      Object.keys(after).map((field) => [field, before[field as keyof typeof before]]),
    );
    await writeAudit(tx, actor, {
      action: "user.updated",
      targetType: "user",
      targetId: id,
      subjectUid: id,
      before: changedBefore,
      after: { ...after, reason },
    });
  });
  for (const told of afterCommit) await told();
  return userSummary(ctx.db, id);
}

/** Signs the user out everywhere; audited when someone else (an admin) does it. */
export async function revokeSessions(ctx: AppContext, actor: AuditActor, id: string): Promise<void> {
  if (!(await findUserRecord(ctx.identity.auth, id))) throw notFound(`User ${id}`);
  // Every refresh token dies; ID tokens already issued fail revocation checks from now on.
  await ctx.identity.auth.revokeRefreshTokens(id);
  const self = actor.uid === id;
  if (!self)
    await writeAudit(ctx.db, actor, {
      action: "user.signed-out-everywhere",
      targetType: "user",
      targetId: id,
      subjectUid: id,
    });
  tellAccount(ctx, id, {
    reason: "signed-out",
    message: self ? "You signed out on every device" : "An administrator signed you out on every device",
  });
}

/** The row goes (its own data with it); where money or the audit refer to it, it is anonymised instead. */
async function removeRows(ctx: AppContext, actor: AuditActor, id: string, before: UserRow | undefined) {
  await ctx.db.transaction(async (tx) => {
    try {
      await tx.transaction(async (savepoint) => {
        await savepoint.delete(users).where(eq(users.uid, id));
      });
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      await anonymiseUser(tx, id);
    }
    await writeAudit(tx, actor, {
      action: "user.deleted",
      targetType: "user",
      targetId: id,
      subjectUid: id,
      before: before ? { role: before.role } : null,
      after: { by: actor.uid === id ? "themself" : "admin" },
    });
    // Inside the transaction: if the identity service refuses, our rows stay as they were.
    try {
      await ctx.identity.auth.deleteUser(id);
    } catch (error) {
      if (codeOf(error) !== "auth/user-not-found") throw error;
    }
  });
}

/**
 * Deletes an account (the caller may: the user themself or an admin). The user's own data goes
 * with the row (ON DELETE CASCADE); where money or the audit refer to the user, the row stays with
 * who they were cleared. The last admin stays.
 */
export async function deleteUser(ctx: AppContext, actor: AuditActor, id: string): Promise<void> {
  const { db } = ctx;
  const [row] = await db.select().from(users).where(eq(users.uid, id));
  const record = await findUserRecord(ctx.identity.auth, id);
  if ((!row || row.deletedAt) && !record) throw notFound(`User ${id}`);
  if (row?.role === "admin") await refuseLastAdmin(db, id, "id");
  const [picture] = await db
    .select({ sha256: profilePictures.sha256 })
    .from(profilePictures)
    .where(eq(profilePictures.userUid, id));
  await removeRows(ctx, actor, id, row);
  ctx.users.forget(id);
  tellAccount(ctx, id, {
    reason: "deleted",
    message: actor.uid === id ? "Your account was deleted" : "Your account was deleted by an administrator",
  });
  if (picture) {
    const [stillUsed] = await db
      .select({ uid: profilePictures.userUid })
      .from(profilePictures)
      .where(eq(profilePictures.sha256, picture.sha256))
      .limit(1);
    // The account is gone already; a picture the storage cannot remove now is left to the blob collector.
    if (!stillUsed)
      await ctx.blobs.removeNow(picture.sha256).catch((error) => {
        if (!(error instanceof StorageUnavailable)) throw error;
      });
  }
}
