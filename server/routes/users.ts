/**
 * Users, for admins (support): the searchable list of our mirror, one account, creating an account
 * with a role (the person is invited to set a password), changing role, disabled and name, deleting
 * (the row is anonymised where money or the audit refer to it). Every admin change writes an audit
 * row in its transaction and tells the user's open app on their account stream.
 */
import { rm } from "node:fs/promises";
import { and, count, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { UserRecord } from "firebase-admin/auth";
import { z } from "zod";
import { ACCOUNT_STREAM_EVENT, type AccountStreamEvent, accountSchema, claimsForRole } from "../../contracts/account";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  userCreatedSchema,
  userCreateSchema,
  userList,
  userPageSchema,
  userPatchSchema,
  userSummarySchema,
} from "../../contracts/users";
import type { AppContext } from "../context";
import { dealerProfiles, profilePictures, users } from "../db/schema";
import { badRequest, conflict, forbidden, HttpError, notFound } from "../errors";
import { assertSelfOrAdmin, callerOf } from "../http/auth";
import { EventStreams } from "../http/event-stream";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import type { ZodTypeProvider } from "../http/zod";
import { accountOf } from "../services/accounts";
import { actorFrom, writeAudit } from "../services/audit";
import { sendInvitation } from "../services/mail";
import { anonymiseUser, applyRole, mirrorRecord, userSummaryOf } from "../services/users";

const USERS = `/${apiPaths.users.list}`;
const idParams = z.strictObject({ id: z.string().min(1).max(128) });
/** Deleting one's own account needs a sign-in this recent, as the identity service asks for its own sensitive operations. */
export const RECENT_SIGN_IN_MS = 5 * 60 * 1000;

const listSpec: ListSpec = {
  table: users,
  id: users.uid,
  allowed: userList,
  fields: {
    role: { column: users.role, kind: "text" },
    disabled: { column: users.disabled, kind: "boolean" },
    emailVerified: { column: users.emailVerified, kind: "boolean" },
    createdAt: { column: users.createdAt, kind: "timestamp" },
    lastSignInAt: { column: users.lastSignInAt, kind: "timestamp" },
    email: { column: users.email, kind: "text" },
    displayName: { column: users.displayName, kind: "text" },
    deleted: { column: sql`(${users.deletedAt} is not null)`, kind: "boolean" },
  },
  search: sql`(coalesce(${users.email}, '') || ' ' || coalesce(${users.displayName}, ''))`,
  defaultSort: [{ field: "createdAt", order: "desc" }],
};

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

export async function userRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;
  const { auth } = ctx.identity;
  const admin = { role: "admin" as const };
  const streams = new EventStreams(plugin);
  const roleDeps = { auth, db, users: ctx.users, accountEvents: ctx.accountEvents };

  async function identityRecord(uid: string): Promise<UserRecord | null> {
    try {
      return await auth.getUser(uid);
    } catch (error) {
      if (codeOf(error) === "auth/user-not-found") return null;
      throw error;
    }
  }

  async function summary(uid: string) {
    const [row] = await db
      .select({ user: users, dealer: dealerColumns })
      .from(users)
      .leftJoin(dealerProfiles, eq(dealerProfiles.userUid, users.uid))
      .where(eq(users.uid, uid));
    if (!row) throw notFound(`User ${uid}`);
    return userSummaryOf(row.user, row.dealer);
  }

  const tell = (uid: string, event: AccountStreamEvent) => ctx.accountEvents.publish(uid, event);

  app.get(
    USERS,
    { config: { ...admin, list: listSpec }, schema: { response: { 200: userPageSchema } } },
    async (request) => {
      const page = await runList(db, listSpec, listQueryOf(request, listSpec), ({ where, orderBy, limit, offset }) =>
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
    },
  );

  /** One user's account, as `auth/account` answers the caller's own: the user themself and admins. A deleted account answers what our row keeps. */
  app.get(
    `/${apiRoutes.users.record(":id")}`,
    { schema: { params: idParams, response: { 200: accountSchema } } },
    async (request) => {
      assertSelfOrAdmin(callerOf(request), request.params.id);
      const record = await identityRecord(request.params.id);
      if (record) return accountOf(ctx.db, record);
      const [row] = await db
        .select()
        .from(users)
        .where(and(eq(users.uid, request.params.id), isNotNull(users.deletedAt)));
      if (!row) throw notFound(`User ${request.params.id}`);
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
    },
  );

  /** An admin opens an account with a role; the person gets an invitation to set their password. */
  app.post(
    USERS,
    { config: admin, schema: { body: userCreateSchema, response: { 201: userCreatedSchema } } },
    async (request, reply) => {
      const input = request.body;
      let record: UserRecord;
      try {
        record = await auth.createUser({
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
          throw badRequest("Invalid body", "email is not valid", [
            { path: "email", message: "not a valid email address" },
          ]);
        throw error;
      }
      try {
        if (input.role !== "customer") {
          await auth.setCustomUserClaims(record.uid, claimsForRole(input.role));
          record = await auth.getUser(record.uid);
        }
        await db.transaction(async (tx) => {
          await mirrorRecord(tx, record);
          if (input.role === "dealer" && input.businessName) {
            await tx.insert(dealerProfiles).values({
              userUid: record.uid,
              businessName: input.businessName,
              status: "approved",
              statusReason: "account opened by an administrator",
              statusChangedBy: callerOf(request).uid,
              statusChangedAt: new Date(),
            });
          }
          await writeAudit(tx, actorFrom(request), {
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
      } catch (error) {
        // Our rows did not commit: the identity account goes too, so the admin can simply try again.
        await auth.deleteUser(record.uid).catch(() => undefined);
        throw error;
      }
      // The invited person sets their password from the invitation's link (they have none yet).
      const invitationSent = await sendInvitation(ctx, {
        uid: record.uid,
        email: input.email,
        displayName: input.displayName ?? null,
        role: input.role,
      }).then(
        () => true,
        (error: unknown) => {
          request.log.warn({ err: error, uid: record.uid }, "invitation not sent");
          return false;
        },
      );
      return reply.status(201).send({ user: await summary(record.uid), invitationSent });
    },
  );

  /** Admin: role, disabled, display name, each with the reason the audit keeps and the user reads. */
  app.patch(
    `/${apiRoutes.users.record(":id")}`,
    { config: admin, schema: { params: idParams, body: userPatchSchema, response: { 200: userSummarySchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { id } = request.params;
      const { role, disabled, displayName, reason } = request.body;
      if (id === caller.uid && role !== undefined && role !== "admin")
        throw conflict("You cannot take your own admin role; ask another admin", [
          { path: "role", message: "not on your own account" },
        ]);
      if (id === caller.uid && disabled)
        throw conflict("You cannot disable your own account", [
          { path: "disabled", message: "not on your own account" },
        ]);
      const record = await identityRecord(id);
      if (!record) throw notFound(`User ${id}`);
      const before = await summary(id);
      if (before.deletedAt) throw conflict("This account was deleted", [{ path: "id", message: "deleted" }]);
      if (role === "dealer" && !before.dealer) {
        throw conflict(
          "A dealer needs a dealer profile: they apply from their account, or open the account as a dealer",
          [{ path: "role", message: "no dealer profile" }],
        );
      }
      const tellAfter: Array<() => Promise<void> | void> = [];
      await ctx.notifications.transaction(async (tx, notify) => {
        // One admin change at a time per account: a second waits here and sees the first's result.
        await tx.select({ uid: users.uid }).from(users).where(eq(users.uid, id)).for("update");
        if (role !== undefined && role !== before.role) {
          if (before.role === "admin") {
            const [others] = await tx
              .select({ n: count() })
              .from(users)
              .where(and(eq(users.role, "admin"), ne(users.uid, id), isNull(users.deletedAt)));
            if (others.n === 0)
              throw conflict("This is the last admin; make another admin first", [
                { path: "role", message: "last admin" },
              ]);
          }
          const { told } = await applyRole(
            { ...roleDeps, db: tx },
            { uid: id, role, reason: "role-changed", message: `Your role is now ${role}: ${reason}` },
          );
          // The dealer profile follows: a dealer made customer is suspended (their tunes leave the directory), and approved back.
          if (before.dealer && (role === "dealer" || before.role === "dealer")) {
            const status = role === "dealer" ? "approved" : "suspended";
            if (before.dealer.status !== status) {
              await tx
                .update(dealerProfiles)
                .set({
                  status,
                  statusReason: reason,
                  statusChangedBy: caller.uid,
                  statusChangedAt: new Date(),
                  updatedAt: new Date(),
                })
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
          tellAfter.push(told);
        }
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
            tellAfter.push(() => tell(id, { reason: "disabled", message: `Your account was disabled: ${reason}` }));
        }
        const after = {
          ...(role !== undefined && { role }),
          ...(disabled !== undefined && { disabled }),
          ...(displayName !== undefined && { displayName }),
        };
        const changedBefore = Object.fromEntries(
          Object.keys(after).map((field) => [field, before[field as keyof typeof before]]),
        );
        await writeAudit(tx, actorFrom(request), {
          action: "user.updated",
          targetType: "user",
          targetId: id,
          subjectUid: id,
          before: changedBefore,
          after: { ...after, reason },
        });
      });
      for (const told of tellAfter) await told();
      return summary(id);
    },
  );

  /** Signs the user out everywhere: the user themself or an admin (audited). */
  app.post(`/${apiRoutes.users.revokeSessions(":id")}`, { schema: { params: idParams } }, async (request, reply) => {
    const caller = callerOf(request);
    const { id } = request.params;
    assertSelfOrAdmin(caller, id);
    if (!(await identityRecord(id))) throw notFound(`User ${id}`);
    // Every refresh token dies; ID tokens already issued fail revocation checks from now on.
    await auth.revokeRefreshTokens(id);
    if (caller.uid !== id)
      await writeAudit(db, actorFrom(request), {
        action: "user.signed-out-everywhere",
        targetType: "user",
        targetId: id,
        subjectUid: id,
      });
    tell(id, {
      reason: "signed-out",
      message: caller.uid === id ? "You signed out on every device" : "An administrator signed you out on every device",
    });
    return reply.status(204).send();
  });

  /**
   * Deletes an account: the user themself (after a recent sign-in) or an admin. The user's own data
   * goes with the row (ON DELETE CASCADE); where money or the audit refer to the user, the row stays
   * with who they were cleared.
   */
  app.delete(`/${apiRoutes.users.record(":id")}`, { schema: { params: idParams } }, async (request, reply) => {
    const caller = callerOf(request);
    const { id } = request.params;
    const self = caller.uid === id;
    if (!self && caller.role !== "admin") throw forbidden("You can only delete your own account");
    if (self) {
      const signedInAt = Number(caller.claims.auth_time) * 1000;
      if (!(Date.now() - signedInAt <= RECENT_SIGN_IN_MS)) {
        throw new HttpError(403, "Forbidden", "Sign in again before deleting your account", [
          { path: "auth_time", message: "requires-recent-login" },
        ]);
      }
    }
    const [row] = await db.select().from(users).where(eq(users.uid, id));
    const record = await identityRecord(id);
    if ((!row || row.deletedAt) && !record) throw notFound(`User ${id}`);
    if (row?.role === "admin") {
      const [others] = await db
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.role, "admin"), ne(users.uid, id), isNull(users.deletedAt)));
      if (others.n === 0)
        throw conflict("This is the last admin; make another admin first", [{ path: "id", message: "last admin" }]);
    }
    const [picture] = await db
      .select({ sha256: profilePictures.sha256 })
      .from(profilePictures)
      .where(eq(profilePictures.userUid, id));
    await db.transaction(async (tx) => {
      try {
        await tx.transaction(async (savepoint) => {
          await savepoint.delete(users).where(eq(users.uid, id));
        });
      } catch (error) {
        if (!isForeignKeyViolation(error)) throw error;
        await anonymiseUser(tx, id);
      }
      await writeAudit(tx, actorFrom(request), {
        action: "user.deleted",
        targetType: "user",
        targetId: id,
        subjectUid: id,
        before: row ? { role: row.role } : null,
        after: { by: self ? "themself" : "admin" },
      });
      // Inside the transaction: if the identity service refuses, our rows stay as they were.
      try {
        await auth.deleteUser(id);
      } catch (error) {
        if (codeOf(error) !== "auth/user-not-found") throw error;
      }
    });
    ctx.users.forget(id);
    tell(id, {
      reason: "deleted",
      message: self ? "Your account was deleted" : "Your account was deleted by an administrator",
    });
    if (picture) {
      const [stillUsed] = await db
        .select({ uid: profilePictures.userUid })
        .from(profilePictures)
        .where(eq(profilePictures.sha256, picture.sha256))
        .limit(1);
      if (!stillUsed) await rm(ctx.blobs.pathOf(picture.sha256), { force: true });
    }
    return reply.status(204).send();
  });

  /** The user's own account stream: told when an admin changes the role, disables or signs them out. */
  app.get(
    `/${apiRoutes.users.listen(":id")}`,
    { handlerTimeout: streams.handlerTimeoutMs, schema: { params: idParams } },
    async (request, reply) => {
      const caller = callerOf(request);
      if (caller.uid !== request.params.id) throw forbidden("You can only listen to your own account");
      const stream = streams.start(reply);
      stream.onClose(ctx.accountEvents.subscribe(caller.uid, (event) => stream.send(ACCOUNT_STREAM_EVENT, event)));
      return reply;
    },
  );
}
