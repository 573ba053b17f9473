/**
 * Repositories: a dealer's private collections of tunes and who may reach them. Only the dealer
 * (or an admin) changes one or gives access; members see it without its member list; to anyone
 * else it does not exist. Giving and withdrawing access notify the user in the change's
 * transaction; withdrawn access leaves the licences bought with it.
 */
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  Repository,
  RepositoryAccess,
  repositoryCreateSchema,
  repositoryUpdateSchema,
} from "../../contracts/repositories";
import type { AppContext } from "../context";
import type { Db } from "../db/connection";
import type { Tx } from "../db/handle";
import { dealerProfiles, repositoryAccess, tuneFiles, tuneRepositories, users } from "../db/schema";
import { actorFrom, auditChangeTo, changedFields, writeAudit } from "./audit";
import { breaksUnique, conflict, invalid, notFound } from "./errors";
import type { VerifiedCaller } from "./identity";
import type { Notify } from "./notifications";
import type { Requester } from "./requester";
import { stillUsed } from "./still-used";
import { isAdmin } from "./tune-access";

type Handle = Db | Tx;
type RepositoryRow = typeof tuneRepositories.$inferSelect;

const NAME_TAKEN = "tune_repositories_dealer_name_key";
/** A dealer as customers know them: the business, else the account's name (with dealer_profiles and users joined). */
const dealerNameSql = sql<string | null>`coalesce(${dealerProfiles.businessName}, ${users.displayName})`;

const nameTaken = (error: unknown): never => {
  if (breaksUnique(error, NAME_TAKEN))
    throw conflict("you already have a repository with this name", [
      { path: "name", message: "already used by another of your repositories" },
    ]);
  throw error;
};

/** The tunes each repository holds, keyed by repository id. */
async function tuneCounts(db: Handle, ids: string[]) {
  return db
    .select({ id: tuneFiles.repositoryId, n: count() })
    .from(tuneFiles)
    .where(inArray(tuneFiles.repositoryId, ids))
    .groupBy(tuneFiles.repositoryId);
}

async function membersOf(db: Handle, ids: string[]) {
  return db
    .select({
      repositoryId: repositoryAccess.repositoryId,
      userUid: repositoryAccess.userUid,
      email: users.email,
      displayName: users.displayName,
      grantedAt: repositoryAccess.grantedAt,
    })
    .from(repositoryAccess)
    .innerJoin(users, eq(users.uid, repositoryAccess.userUid))
    .where(inArray(repositoryAccess.repositoryId, ids))
    .orderBy(asc(repositoryAccess.grantedAt));
}

/** The repositories as the API shows them; the members only of those `withMembers` accepts. */
async function describe(
  db: Handle,
  rows: RepositoryRow[],
  withMembers: (row: RepositoryRow) => boolean,
): Promise<Repository[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const tunes = await tuneCounts(db, ids);
  const members = await membersOf(
    db,
    ids.filter((id) => withMembers(rows.find((row) => row.id === id)!)),
  );
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

/** A dealer's repositories (every one, for an admin asking for no dealer), by name. */
export async function repositoryListOf(db: Db, dealerUid: string | undefined) {
  const rows = await db
    .select()
    .from(tuneRepositories)
    .where(dealerUid ? eq(tuneRepositories.dealerUid, dealerUid) : undefined)
    .orderBy(asc(tuneRepositories.name), asc(tuneRepositories.id));
  const data = await describe(db, rows, () => true);
  return { data, total: data.length };
}

export async function createRepository(
  db: Db,
  by: Requester,
  body: z.output<typeof repositoryCreateSchema>,
): Promise<Repository> {
  const row = await db.transaction(async (tx) => {
    const [made] = await tx
      .insert(tuneRepositories)
      .values({ dealerUid: by.caller.uid, ...body })
      .returning()
      .catch(nameTaken);
    await auditChangeTo(tx, by, by.caller.uid, {
      action: "repository.created",
      targetType: "repository",
      targetId: made.id,
      after: audited(made),
    });
    return made;
  });
  const [made] = await describe(db, [row], () => true);
  return made;
}

/** Its dealer and admins see the members; a member sees the repository without them. */
export async function repositoryFor(db: Db, caller: VerifiedCaller, id: string): Promise<Repository> {
  const [row] = await db.select().from(tuneRepositories).where(eq(tuneRepositories.id, id));
  const member =
    row && !owns(caller, row)
      ? (
          await db
            .select({ uid: repositoryAccess.userUid })
            .from(repositoryAccess)
            .where(and(eq(repositoryAccess.repositoryId, row.id), eq(repositoryAccess.userUid, caller.uid)))
        ).length > 0
      : false;
  if (!row || (!owns(caller, row) && !member)) throw notFound(`Repository ${id}`);
  const [repository] = await describe(db, [row], (r) => owns(caller, r));
  return repository;
}

export async function updateRepository(
  db: Db,
  by: Requester,
  id: string,
  body: z.output<typeof repositoryUpdateSchema>,
): Promise<Repository> {
  const row = await db.transaction(async (tx) => {
    const current = await ownRepository(tx, id, by.caller, true);
    const [updated] = await tx
      .update(tuneRepositories)
      .set({ ...body, updatedAt: new Date() })
      .where(eq(tuneRepositories.id, id))
      .returning()
      .catch(nameTaken);
    await auditChangeTo(tx, by, current.dealerUid, {
      action: "repository.updated",
      targetType: "repository",
      targetId: current.id,
      ...changedFields(audited(current), audited(updated)),
    });
    return updated;
  });
  const [repository] = await describe(db, [row], () => true);
  return repository;
}

/** Refused while it holds tunes: removing it would put them on open sale. */
export async function deleteRepository(db: Db, by: Requester, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await ownRepository(tx, id, by.caller, true);
    const held = await tx
      .select({ id: tuneFiles.id, title: tuneFiles.title })
      .from(tuneFiles)
      .where(eq(tuneFiles.repositoryId, row.id))
      .limit(20);
    if (held.length)
      throw stillUsed(
        `Repository "${row.name}"`,
        held.map((tune) => ({ resource: "tune file", id: tune.id, label: tune.title })),
      );
    await tx.delete(tuneRepositories).where(eq(tuneRepositories.id, row.id));
    await auditChangeTo(tx, by, row.dealerUid, {
      action: "repository.deleted",
      targetType: "repository",
      targetId: row.id,
      before: audited(row),
    });
  });
}

/** Gives the user access (once); the trail keeps who gave it, to whom. */
async function grant(tx: Tx, notify: Notify, repository: RepositoryRow, userUid: string, by: Requester) {
  const [user] = await tx.select({ uid: users.uid }).from(users).where(eq(users.uid, userUid));
  if (!user) throw notFound(`User ${userUid}`);
  if (userUid === repository.dealerUid)
    throw invalid("Invalid member", "the repository's own dealer always reaches it", [
      { path: "id", message: "the repository's own dealer" },
    ]);
  const [created] = await tx
    .insert(repositoryAccess)
    .values({ repositoryId: repository.id, userUid, grantedBy: by.caller.uid })
    .onConflictDoNothing()
    .returning();
  if (created) {
    await writeAudit(tx, actorFrom(by), {
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

/** The dealer names a member by their account's email (they may not know the user's id). */
export async function addMemberByEmail(ctx: AppContext, by: Requester, id: string, email: string) {
  return ctx.notifications.transaction(async (tx, notify) => {
    const repository = await ownRepository(tx, id, by.caller, true);
    const [user] = await tx
      .select({ uid: users.uid })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1);
    if (!user)
      throw invalid("Invalid body", `no account uses ${email}`, [
        { path: "email", message: "no account uses this email: ask them to sign up first" },
      ]);
    return {
      repositoryId: repository.id,
      userUid: user.uid,
      created: await grant(tx, notify, repository, user.uid, by),
    };
  });
}

/** The repository's dealer or an admin gives the user access; false when they had it already. */
export async function grantRepositoryAccess(ctx: AppContext, by: Requester, repoId: string, userUid: string) {
  return ctx.notifications.transaction(async (tx, notify) =>
    grant(tx, notify, await ownRepository(tx, repoId, by.caller, true), userUid, by),
  );
}

/** The repository's dealer or an admin withdraws access, or the member leaves; licences bought stay. */
export async function withdrawRepositoryAccess(ctx: AppContext, by: Requester, repoId: string, userUid: string) {
  await ctx.notifications.transaction(async (tx, notify) => {
    const [repository] = await tx.select().from(tuneRepositories).where(eq(tuneRepositories.id, repoId)).for("update");
    const leaving = by.caller.uid === userUid;
    if (!repository || (!owns(by.caller, repository) && !leaving)) throw notFound(`Repository ${repoId}`);
    const [removed] = await tx
      .delete(repositoryAccess)
      .where(and(eq(repositoryAccess.repositoryId, repoId), eq(repositoryAccess.userUid, userUid)))
      .returning();
    if (!removed) throw notFound(`Access of user ${userUid} to repository ${repoId}`);
    if (leaving) return;
    await writeAudit(tx, actorFrom(by), {
      action: "repository.access-withdrawn",
      targetType: "repository",
      targetId: repository.id,
      subjectUid: userUid,
      before: { userUid, repository: repository.name, grantedBy: removed.grantedBy },
    });
    await notify({
      recipientUid: userUid,
      kind: "repository.withdrawn",
      title: `Your access to "${repository.name}" was withdrawn`,
      body: "The tunes you licensed from it stay yours; its other tunes are no longer offered to you.",
      link: "/my-tunes",
    });
  });
}

/** The repositories a user may reach, with their dealer's name and how many published tunes each holds. */
export async function repositoryAccessOf(db: Db, userUid: string) {
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
    .where(eq(repositoryAccess.userUid, userUid))
    .orderBy(asc(tuneRepositories.name), asc(tuneRepositories.id));
  const data: RepositoryAccess[] = rows.map((row) => ({ ...row, grantedAt: row.grantedAt.toISOString() }));
  return { data, total: data.length };
}
