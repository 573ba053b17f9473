/**
 * Users, for admins (support): the searchable list of our mirror, one account, creating an account
 * with a role (the person is invited to set a password), changing role, disabled and name, deleting
 * (the row is anonymised where money or the audit refer to it). Every admin change writes an audit
 * row in its transaction and tells the user's open app on their account stream; the changes
 * themselves are made by services/user-admin.ts.
 */

import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { ACCOUNT_STREAM_EVENT, accountSchema } from "../../contracts/account";
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
import { users } from "../db/schema";
import { forbidden, HttpError } from "../errors";
import { assertSelfOrAdmin, callerOf } from "../http/auth";
import { EventStreams } from "../http/event-stream";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { EVENT_STREAM } from "../http/media";
import type { ZodTypeProvider } from "../http/zod";
import { actorFrom } from "../services/audit";
import type { VerifiedCaller } from "../services/identity";
import { changeUser, createUser, deleteUser, revokeSessions, userAccount, userPage } from "../services/user-admin";

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

/** The user themself (after a recent sign-in) or an admin may delete an account. */
function assertMayDelete(caller: VerifiedCaller, id: string): void {
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
}

export async function userRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerAdminRoutes(plugin, ctx);
  registerAccountRoutes(plugin, ctx);
}

/** Admins: the list, opening an account and changing one. */
function registerAdminRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const admin = { role: "admin" as const };

  app.get(
    USERS,
    { config: { ...admin, list: listSpec }, schema: { response: { 200: userPageSchema } } },
    async (request) => userPage(ctx.db, (select) => runList(ctx.db, listSpec, listQueryOf(request, listSpec), select)),
  );

  /** An admin opens an account with a role; the person gets an invitation to set their password. */
  app.post(
    USERS,
    { config: admin, schema: { body: userCreateSchema, response: { 201: userCreatedSchema } } },
    async (request, reply) =>
      reply.status(201).send(await createUser(ctx, actorFrom(request), request.body, request.log)),
  );

  /** Admin: role, disabled, display name, each with the reason the audit keeps and the user reads. */
  app.patch(
    `/${apiRoutes.users.record(":id")}`,
    { config: admin, schema: { params: idParams, body: userPatchSchema, response: { 200: userSummarySchema } } },
    async (request) => changeUser(ctx, actorFrom(request), request.params.id, request.body),
  );
}

/** The user themself or an admin: the account, signing out everywhere, deleting; the user's own account stream. */
function registerAccountRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const streams = new EventStreams(plugin);

  /** One user's account, as `auth/account` answers the caller's own: the user themself and admins. A deleted account answers what our row keeps. */
  app.get(
    `/${apiRoutes.users.record(":id")}`,
    { schema: { params: idParams, response: { 200: accountSchema } } },
    async (request) => {
      assertSelfOrAdmin(callerOf(request), request.params.id);
      return userAccount(ctx, request.params.id);
    },
  );

  /** Signs the user out everywhere: the user themself or an admin (audited). */
  app.post(`/${apiRoutes.users.revokeSessions(":id")}`, { schema: { params: idParams } }, async (request, reply) => {
    assertSelfOrAdmin(callerOf(request), request.params.id);
    await revokeSessions(ctx, actorFrom(request), request.params.id);
    return reply.status(204).send();
  });

  /**
   * Deletes an account: the user themself (after a recent sign-in) or an admin. The user's own data
   * goes with the row (ON DELETE CASCADE); where money or the audit refer to the user, the row stays
   * with who they were cleared.
   */
  app.delete(`/${apiRoutes.users.record(":id")}`, { schema: { params: idParams } }, async (request, reply) => {
    assertMayDelete(callerOf(request), request.params.id);
    await deleteUser(ctx, actorFrom(request), request.params.id);
    return reply.status(204).send();
  });

  /** The user's own account stream: told when an admin changes the role, disables or signs them out. */
  app.get(
    `/${apiRoutes.users.listen(":id")}`,
    { config: { media: EVENT_STREAM }, handlerTimeout: streams.handlerTimeoutMs, schema: { params: idParams } },
    async (request, reply) => {
      const caller = callerOf(request);
      if (caller.uid !== request.params.id) throw forbidden("You can only listen to your own account");
      const stream = streams.start(reply);
      stream.onClose(ctx.accountEvents.subscribe(caller.uid, (event) => stream.send(ACCOUNT_STREAM_EVENT, event)));
      return reply;
    },
  );
}
