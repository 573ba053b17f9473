/**
 * Repositories: a dealer's private collections of tunes and who may reach them. The dealer (or an
 * admin) makes a repository, places tunes in it (`PATCH /tune-files/{id} { repositoryId }`) and
 * gives customers or other dealers access; members see and buy its published tunes (at no charge
 * when the dealer says so), nobody else sees them. Withdrawn access leaves the licences bought
 * with it: they were paid for. The user is told when access is given or withdrawn.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  repositoryAccessListSchema,
  repositoryCreateSchema,
  repositoryGrantSchema,
  repositoryListSchema,
  repositoryMemberByEmailSchema,
  repositorySchema,
  repositoryUpdateSchema,
} from "../../contracts/repositories";
import type { AppContext } from "../context";
import { assertSelfOrAdmin, callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import type { ZodTypeProvider } from "../http/zod";
import {
  addMemberByEmail,
  createRepository,
  deleteRepository,
  grantRepositoryAccess,
  repositoryAccessOf,
  repositoryFor,
  repositoryListOf,
  updateRepository,
  withdrawRepositoryAccess,
} from "../services/repositories";
import { isAdmin } from "../services/tune-access";

const REPOSITORIES = `/${apiPaths.repositories.list}`;
const dealer = { role: "dealer" as const };
const userParams = z.strictObject({ id: z.string().min(1).max(128) });
const grantParams = userParams.extend({ repoId: z.uuid("repoId must be a UUID") });

export async function repositoryRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerRepositoryRoutes(app, ctx);
  registerAccessRoutes(app, ctx);
}

/** The repositories themselves, and naming a member by email. */
function registerRepositoryRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  /** A dealer's own repositories; admins see every one (or one dealer's, with `dealerUid`). */
  app.get(
    REPOSITORIES,
    {
      config: dealer,
      schema: {
        querystring: z.strictObject({ dealerUid: z.string().min(1).max(128).optional() }),
        response: { 200: repositoryListSchema },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return repositoryListOf(db, isAdmin(caller) ? request.query.dealerUid : caller.uid);
    },
  );

  app.post(
    REPOSITORIES,
    { config: dealer, schema: { body: repositoryCreateSchema, response: { 201: repositorySchema } } },
    async (request, reply) =>
      reply.status(201).send(await createRepository(db, { caller: callerOf(request), id: request.id }, request.body)),
  );

  /** Its dealer and admins see the members; a member sees the repository without them. */
  app.get(
    `/${apiRoutes.repositories.record(":id")}`,
    { schema: { params: idParams, response: { 200: repositorySchema } } },
    async (request) => repositoryFor(db, callerOf(request), request.params.id),
  );

  app.patch(
    `/${apiRoutes.repositories.record(":id")}`,
    { schema: { params: idParams, body: repositoryUpdateSchema, response: { 200: repositorySchema } } },
    async (request) =>
      updateRepository(db, { caller: callerOf(request), id: request.id }, request.params.id, request.body),
  );

  /** Refused while it holds tunes: removing it would put them on open sale. */
  app.delete(`/${apiRoutes.repositories.record(":id")}`, { schema: { params: idParams } }, async (request, reply) => {
    await deleteRepository(db, { caller: callerOf(request), id: request.id }, request.params.id);
    return reply.status(204).send();
  });

  /** The dealer names a member by their account's email (they may not know the user's id). */
  app.post(
    `/${apiRoutes.repositories.members(":id")}`,
    {
      schema: {
        params: idParams,
        body: repositoryMemberByEmailSchema,
        response: { 200: repositoryGrantSchema, 201: repositoryGrantSchema },
      },
    },
    async (request, reply) => {
      const by = { caller: callerOf(request), id: request.id };
      const outcome = await addMemberByEmail(ctx, by, request.params.id, request.body.email);
      return reply.status(outcome.created ? 201 : 200).send(outcome);
    },
  );
}

/** Per user: /users/{id}/repository-access. */
function registerAccessRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  /** The repositories a user may reach: the user themself and admins. */
  app.get(
    `/${apiRoutes.users.repositoryAccess(":id")}`,
    { schema: { params: userParams, response: { 200: repositoryAccessListSchema } } },
    async (request) => {
      assertSelfOrAdmin(callerOf(request), request.params.id);
      return repositoryAccessOf(ctx.db, request.params.id);
    },
  );

  /** The repository's dealer or an admin gives the user access; 200 when they had it already. */
  app.post(
    `/${apiRoutes.users.repositoryGrant(":id", ":repoId")}`,
    { schema: { params: grantParams, response: { 200: repositoryGrantSchema, 201: repositoryGrantSchema } } },
    async (request, reply) => {
      const { id, repoId } = request.params;
      const created = await grantRepositoryAccess(ctx, { caller: callerOf(request), id: request.id }, repoId, id);
      return reply.status(created ? 201 : 200).send({ repositoryId: repoId, userUid: id, created });
    },
  );

  /** The repository's dealer or an admin withdraws access, or the member leaves; licences bought stay. */
  app.delete(
    `/${apiRoutes.users.repositoryGrant(":id", ":repoId")}`,
    { schema: { params: grantParams } },
    async (request, reply) => {
      const { id, repoId } = request.params;
      await withdrawRepositoryAccess(ctx, { caller: callerOf(request), id: request.id }, repoId, id);
      return reply.status(204).send();
    },
  );
}
