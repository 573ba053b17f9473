/**
 * Repositories: a dealer's private collections of tunes and who may reach them. The dealer (or an
 * admin) makes a repository, places tunes in it (`PATCH /tune-files/{id} { repositoryId }`) and
 * gives customers or other dealers access; members see and buy its published tunes (at no charge
 * when the dealer says so), nobody else sees them. Withdrawn access leaves the licences bought
 * with it: they were paid for. The user is told when access is given or withdrawn.
 */
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  type Repository,
  type RepositoryAccess,
  repositoryAccessListSchema,
  repositoryCreateSchema,
  repositoryGrantSchema,
  repositoryListSchema,
  repositoryMemberByEmailSchema,
  repositorySchema,
  repositoryUpdateSchema,
} from "../../contracts/repositories";
import type { AppContext } from "../context";
import type { Db } from "../db/connection";
import type { Tx } from "../db/handle";
import { dealerProfiles, repositoryAccess, tuneFiles, tuneRepositories, users } from "../db/schema";
import { badRequest, conflict, notFound } from "../errors";
import { assertSelfOrAdmin, callerOf } from "../http/auth";
import { idParams, referencedConflict } from "../http/crud";
import type { ZodTypeProvider } from "../http/zod";
import { type AuditActor, actorFrom, auditChangeTo, changedFields, writeAudit } from "../services/audit";
import type { VerifiedCaller } from "../services/identity";
import type { Notify } from "../services/notifications";
import { isAdmin } from "../services/tune-access";

type Handle = Db | Tx;
type RepositoryRow = typeof tuneRepositories.$inferSelect;

const REPOSITORIES = `/${apiPaths.repositories.list}`;
const dealer = { role: "dealer" as const };
const userParams = z.strictObject({ id: z.string().min(1).max(128) });
const grantParams = userParams.extend({ repoId: z.uuid("repoId must be a UUID") });
const NAME_TAKEN = "tune_repositories_dealer_name_key";
/** A dealer as customers know them: the business, else the account's name (with dealer_profiles and users joined). */
const dealerNameSql = sql<string | null>`coalesce(${dealerProfiles.businessName}, ${users.displayName})`;

const nameTaken = (error: unknown): never => {
  const cause = ((error as { cause?: unknown }).cause ?? error) as { code?: string; constraint?: string };
  if (cause.code === "23505" && cause.constraint === NAME_TAKEN)
    throw conflict("you already have a repository with this name", [
      { path: "name", message: "already used by another of your repositories" },
    ]);
  throw error;
};

async function describe(
  db: Handle,
  rows: RepositoryRow[],
  withMembers: (row: RepositoryRow) => boolean,
): Promise<Repository[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const tunes = await db
    .select({ id: tuneFiles.repositoryId, n: count() })
    .from(tuneFiles)
    .where(inArray(tuneFiles.repositoryId, ids))
    .groupBy(tuneFiles.repositoryId);
  const members = await db
    .select({
      repositoryId: repositoryAccess.repositoryId,
      userUid: repositoryAccess.userUid,
      email: users.email,
      displayName: users.displayName,
      grantedAt: repositoryAccess.grantedAt,
    })
    .from(repositoryAccess)
    .innerJoin(users, eq(users.uid, repositoryAccess.userUid))
    .where(
      inArray(
        repositoryAccess.repositoryId,
        ids.filter((id) => withMembers(rows.find((row) => row.id === id)!)),
      ),
    )
    .orderBy(asc(repositoryAccess.grantedAt));
  const dealers = await db
    .select({ uid: users.uid, name: dealerNameSql })
    .from(users)
    .leftJoin(dealerProfiles, eq(dealerProfiles.userUid, users.uid))
    .where(inArray(users.uid, [...new Set(rows.map((row) => row.dealerUid))]));
  return rows.map((row) => ({
    id: row.id,
    dealerUid: row.dealerUid,
    dealerName: dealers.find((d) => d.uid === row.dealerUid)?.name ?? null,
    name: row.name,
    description: row.description,
    freeForMembers: row.freeForMembers,
    tuneCount: tunes.find((t) => t.id === row.id)?.n ?? 0,
    members: members
      .filter((member) => member.repositoryId === row.id)
      .map((member) => ({
        userUid: member.userUid,
        email: member.email,
        displayName: member.displayName,
        grantedAt: member.grantedAt.toISOString(),
      })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

/** What the trail keeps of a repository. */
const audited = (row: RepositoryRow) => ({
  name: row.name,
  description: row.description,
  freeForMembers: row.freeForMembers,
});

const owns = (caller: VerifiedCaller, row: RepositoryRow) => isAdmin(caller) || row.dealerUid === caller.uid;

/** The repository for its dealer or an admin to change; to anyone else it does not exist. */
async function ownRepository(db: Handle, id: string, caller: VerifiedCaller, lock = false): Promise<RepositoryRow> {
  const query = db.select().from(tuneRepositories).where(eq(tuneRepositories.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row || !owns(caller, row)) throw notFound(`Repository ${id}`);
  return row;
}

/** Gives the user access (once); the trail keeps who gave it, to whom. */
async function grant(
  tx: Tx,
  notify: Notify,
  repository: RepositoryRow,
  userUid: string,
  caller: VerifiedCaller,
  actor: AuditActor,
): Promise<boolean> {
  const [user] = await tx.select({ uid: users.uid }).from(users).where(eq(users.uid, userUid));
  if (!user) throw notFound(`User ${userUid}`);
  if (userUid === repository.dealerUid)
    throw badRequest("Invalid member", "the repository's own dealer always reaches it", [
      { path: "id", message: "the repository's own dealer" },
    ]);
  const [created] = await tx
    .insert(repositoryAccess)
    .values({ repositoryId: repository.id, userUid, grantedBy: caller.uid })
    .onConflictDoNothing()
    .returning();
  if (created) {
    await writeAudit(tx, actor, {
      action: "repository.access-granted",
      targetType: "repository",
      targetId: repository.id,
      subjectUid: userUid,
      after: { userUid, repository: repository.name },
    });
    const free = repository.freeForMembers ? " Its tunes are yours at no charge." : "";
    await notify({
      recipientUid: userUid,
      kind: "repository.granted",
      title: `You can now reach the tunes of "${repository.name}"`,
      body: `Its dealer gave you access to this private collection.${free} Its tunes appear in your cars' storefronts.`,
      link: "/my-tunes",
    });
  }
  return Boolean(created);
}

export async function repositoryRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
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
      const dealerUid = isAdmin(caller) ? request.query.dealerUid : caller.uid;
      const rows = await db
        .select()
        .from(tuneRepositories)
        .where(dealerUid ? eq(tuneRepositories.dealerUid, dealerUid) : undefined)
        .orderBy(asc(tuneRepositories.name), asc(tuneRepositories.id));
      const data = await describe(db, rows, () => true);
      return { data, total: data.length };
    },
  );

  app.post(
    REPOSITORIES,
    { config: dealer, schema: { body: repositoryCreateSchema, response: { 201: repositorySchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const row = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(tuneRepositories)
          .values({ dealerUid: caller.uid, ...request.body })
          .returning()
          .catch(nameTaken);
        await auditChangeTo(tx, request, caller.uid, {
          action: "repository.created",
          targetType: "repository",
          targetId: made.id,
          after: audited(made),
        });
        return made;
      });
      const [made] = await describe(db, [row], () => true);
      return reply.status(201).send(made);
    },
  );

  /** Its dealer and admins see the members; a member sees the repository without them. */
  app.get(
    `/${apiRoutes.repositories.record(":id")}`,
    { schema: { params: idParams, response: { 200: repositorySchema } } },
    async (request) => {
      const caller = callerOf(request);
      const [row] = await db.select().from(tuneRepositories).where(eq(tuneRepositories.id, request.params.id));
      const member =
        row && !owns(caller, row)
          ? (
              await db
                .select({ uid: repositoryAccess.userUid })
                .from(repositoryAccess)
                .where(and(eq(repositoryAccess.repositoryId, row.id), eq(repositoryAccess.userUid, caller.uid)))
            ).length > 0
          : false;
      if (!row || (!owns(caller, row) && !member)) throw notFound(`Repository ${request.params.id}`);
      const [repository] = await describe(db, [row], (r) => owns(caller, r));
      return repository;
    },
  );

  app.patch(
    `/${apiRoutes.repositories.record(":id")}`,
    { schema: { params: idParams, body: repositoryUpdateSchema, response: { 200: repositorySchema } } },
    async (request) => {
      const caller = callerOf(request);
      const row = await db.transaction(async (tx) => {
        const current = await ownRepository(tx, request.params.id, caller, true);
        const [updated] = await tx
          .update(tuneRepositories)
          .set({ ...request.body, updatedAt: new Date() })
          .where(eq(tuneRepositories.id, request.params.id))
          .returning()
          .catch(nameTaken);
        await auditChangeTo(tx, request, current.dealerUid, {
          action: "repository.updated",
          targetType: "repository",
          targetId: current.id,
          ...changedFields(audited(current), audited(updated)),
        });
        return updated;
      });
      const [repository] = await describe(db, [row], () => true);
      return repository;
    },
  );

  /** Refused while it holds tunes: removing it would put them on open sale. */
  app.delete(`/${apiRoutes.repositories.record(":id")}`, { schema: { params: idParams } }, async (request, reply) => {
    const caller = callerOf(request);
    await db.transaction(async (tx) => {
      const row = await ownRepository(tx, request.params.id, caller, true);
      const held = await tx
        .select({ id: tuneFiles.id, title: tuneFiles.title })
        .from(tuneFiles)
        .where(eq(tuneFiles.repositoryId, row.id))
        .limit(20);
      if (held.length)
        throw referencedConflict(
          `Repository "${row.name}"`,
          held.map((tune) => ({ resource: "tune file", id: tune.id, label: tune.title })),
        );
      await tx.delete(tuneRepositories).where(eq(tuneRepositories.id, row.id));
      await auditChangeTo(tx, request, row.dealerUid, {
        action: "repository.deleted",
        targetType: "repository",
        targetId: row.id,
        before: audited(row),
      });
    });
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
      const caller = callerOf(request);
      const { email } = request.body;
      const outcome = await ctx.notifications.transaction(async (tx, notify) => {
        const repository = await ownRepository(tx, request.params.id, caller, true);
        const [user] = await tx
          .select({ uid: users.uid })
          .from(users)
          .where(sql`lower(${users.email}) = ${email}`)
          .limit(1);
        if (!user)
          throw badRequest("Invalid body", `no account uses ${email}`, [
            { path: "email", message: "no account uses this email: ask them to sign up first" },
          ]);
        return {
          repositoryId: repository.id,
          userUid: user.uid,
          created: await grant(tx, notify, repository, user.uid, caller, actorFrom(request)),
        };
      });
      return reply.status(outcome.created ? 201 : 200).send(outcome);
    },
  );

  // -------------------------------------------------------------------------
  // Per user: /users/{id}/repository-access

  /** The repositories a user may reach: the user themself and admins. */
  app.get(
    `/${apiRoutes.users.repositoryAccess(":id")}`,
    { schema: { params: userParams, response: { 200: repositoryAccessListSchema } } },
    async (request) => {
      const caller = callerOf(request);
      assertSelfOrAdmin(caller, request.params.id);
      const rows = await db
        .select({
          repositoryId: tuneRepositories.id,
          name: tuneRepositories.name,
          description: tuneRepositories.description,
          dealerUid: tuneRepositories.dealerUid,
          dealerName: dealerNameSql,
          freeForMembers: tuneRepositories.freeForMembers,
          publishedTunes: sql<number>`(SELECT count(*)::int FROM ${tuneFiles} WHERE ${tuneFiles.repositoryId} = ${tuneRepositories.id} AND ${tuneFiles.published})`,
          grantedAt: repositoryAccess.grantedAt,
        })
        .from(repositoryAccess)
        .innerJoin(tuneRepositories, eq(tuneRepositories.id, repositoryAccess.repositoryId))
        .leftJoin(users, eq(users.uid, tuneRepositories.dealerUid))
        .leftJoin(dealerProfiles, eq(dealerProfiles.userUid, tuneRepositories.dealerUid))
        .where(eq(repositoryAccess.userUid, request.params.id))
        .orderBy(asc(tuneRepositories.name), asc(tuneRepositories.id));
      const data: RepositoryAccess[] = rows.map((row) => ({ ...row, grantedAt: row.grantedAt.toISOString() }));
      return { data, total: data.length };
    },
  );

  /** The repository's dealer or an admin gives the user access; 200 when they had it already. */
  app.post(
    `/${apiRoutes.users.repositoryGrant(":id", ":repoId")}`,
    { schema: { params: grantParams, response: { 200: repositoryGrantSchema, 201: repositoryGrantSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { id, repoId } = request.params;
      const created = await ctx.notifications.transaction(async (tx, notify) =>
        grant(tx, notify, await ownRepository(tx, repoId, caller, true), id, caller, actorFrom(request)),
      );
      return reply.status(created ? 201 : 200).send({ repositoryId: repoId, userUid: id, created });
    },
  );

  /** The repository's dealer or an admin withdraws access, or the member leaves; licences bought stay. */
  app.delete(
    `/${apiRoutes.users.repositoryGrant(":id", ":repoId")}`,
    { schema: { params: grantParams } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { id, repoId } = request.params;
      await ctx.notifications.transaction(async (tx, notify) => {
        const [repository] = await tx
          .select()
          .from(tuneRepositories)
          .where(eq(tuneRepositories.id, repoId))
          .for("update");
        const leaving = caller.uid === id;
        if (!repository || (!owns(caller, repository) && !leaving)) throw notFound(`Repository ${repoId}`);
        const [removed] = await tx
          .delete(repositoryAccess)
          .where(and(eq(repositoryAccess.repositoryId, repoId), eq(repositoryAccess.userUid, id)))
          .returning();
        if (!removed) throw notFound(`Access of user ${id} to repository ${repoId}`);
        if (!leaving) {
          await writeAudit(tx, actorFrom(request), {
            action: "repository.access-withdrawn",
            targetType: "repository",
            targetId: repository.id,
            subjectUid: id,
            before: { userUid: id, repository: repository.name, grantedBy: removed.grantedBy },
          });
          await notify({
            recipientUid: id,
            kind: "repository.withdrawn",
            title: `Your access to "${repository.name}" was withdrawn`,
            body: "The tunes you licensed from it stay yours; its other tunes are no longer offered to you.",
            link: "/my-tunes",
          });
        }
      });
      return reply.status(204).send();
    },
  );
}
