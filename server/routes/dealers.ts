/**
 * Dealers: a user applies (`POST /dealers`, a pending profile), admins decide and keep the
 * profiles, and everyone reads the directory of approved dealers with the vehicles and firmware
 * their published tunes cover. A status change sets or removes the dealer claim and revokes the
 * user's sessions, so it takes effect at the next request, and the dealer is told why.
 */
import { and, arrayOverlaps, eq, inArray, isNull, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { type Role, roleFromClaims } from "../../contracts/account";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  DEALER_TRANSITIONS,
  type Dealer,
  type DealerProfile,
  type DealerStatus,
  dealerAdminPatchSchema,
  dealerList,
  dealerPageSchema,
  dealerProfileSchema,
  dealerRemovalSchema,
  dealerSchema,
  dealerStatusChangeSchema,
} from "../../contracts/dealers";
import {
  type DealerProfileSummary,
  dealerProfileSummarySchema,
  dealerRequestSchema,
} from "../../contracts/public-site";
import { tuneFilePageSchema } from "../../contracts/tune-files";
import { dealerSettingsSchema } from "../../contracts/tuning-requests";
import type { AppContext } from "../context";
import { dealerProfiles, orders, supportedVehicles, tuneFiles, users } from "../db/schema";
import { conflict, HttpError, notFound } from "../errors";
import { assertSelfOrAdmin, callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import type { ZodTypeProvider } from "../http/zod";
import { actorFrom, auditsChangeBy, writeAudit } from "../services/audit";
import type { VerifiedCaller } from "../services/identity";
import type { NotificationInput } from "../services/notifications";
import { accessOf, boughtBy, isAdmin, tuneColumns } from "../services/tune-access";
import { offeredToSql } from "../services/tune-offers";
import { tuneToApi } from "../services/tune-responses";
import { applyRole } from "../services/users";
import { tuneListSpec } from "./tune-files";

const DEALERS = `/${apiPaths["managed-dealers"].list}`;
const blankToNull = (value: string | undefined) => (value ? value : null);
type ProfileRow = typeof dealerProfiles.$inferSelect;

/** The makes and models of supported vehicles running firmware a dealer's published tunes (of the open catalogue) are for. */
const vehiclesTuned = sql`(SELECT coalesce(string_agg(${supportedVehicles.make} || ' ' || ${supportedVehicles.model}, ' '), '') FROM ${supportedVehicles}
  WHERE ${supportedVehicles.firmwareIds} && ARRAY(SELECT ${tuneFiles.firmwareId} FROM ${tuneFiles} WHERE ${tuneFiles.dealerUid} = ${dealerProfiles.userUid} AND ${tuneFiles.published} AND ${tuneFiles.repositoryId} IS NULL))`;

const listSpec: ListSpec = {
  table: dealerProfiles,
  id: dealerProfiles.id,
  allowed: dealerList,
  fields: {
    businessName: { column: dealerProfiles.businessName, kind: "text" },
    country: { column: dealerProfiles.country, kind: "text" },
    status: { column: dealerProfiles.status, kind: "text" },
    createdAt: { column: dealerProfiles.createdAt, kind: "timestamp" },
  },
  search: sql`(${dealerProfiles.businessName} || ' ' || ${vehiclesTuned})`,
  defaultSort: [{ field: "businessName", order: "asc" }],
};

/** Per dealer: the firmware of their published tunes, how many, and the vehicle families running it. */
async function catalogueOf(ctx: AppContext, dealerUids: string[]) {
  const facts = new Map<string, { firmwareIds: string[]; publishedTunes: number; vehicles: Dealer["vehicles"] }>();
  if (dealerUids.length === 0) return facts;
  const tunes = await ctx.db
    .select({ dealerUid: tuneFiles.dealerUid, firmwareId: tuneFiles.firmwareId, count: sql<number>`count(*)::int` })
    .from(tuneFiles)
    // The open catalogue: tunes kept in a repository are its members' business.
    .where(and(inArray(tuneFiles.dealerUid, dealerUids), eq(tuneFiles.published, true), isNull(tuneFiles.repositoryId)))
    .groupBy(tuneFiles.dealerUid, tuneFiles.firmwareId);
  const firmwareIds = [...new Set(tunes.map((t) => t.firmwareId))];
  const families = firmwareIds.length
    ? await ctx.db
        .selectDistinct({
          make: supportedVehicles.make,
          model: supportedVehicles.model,
          firmwareIds: supportedVehicles.firmwareIds,
        })
        .from(supportedVehicles)
        .where(arrayOverlaps(supportedVehicles.firmwareIds, firmwareIds))
    : [];
  for (const uid of dealerUids) {
    const own = tunes.filter((t) => t.dealerUid === uid);
    const ids = own.map((t) => t.firmwareId).sort();
    const vehicles = new Map<string, { make: string; model: string }>();
    for (const family of families)
      if (family.firmwareIds.some((id) => ids.includes(id)))
        vehicles.set(`${family.make}\u0000${family.model}`, { make: family.make, model: family.model });
    facts.set(uid, {
      firmwareIds: ids,
      publishedTunes: own.reduce((sum, t) => sum + t.count, 0),
      vehicles: [...vehicles.values()].sort((a, b) => a.make.localeCompare(b.make) || a.model.localeCompare(b.model)),
    });
  }
  return facts;
}

/** Each row as the directory shows it and as its whole profile, with the catalogue facts read once for all rows. */
async function describe(
  ctx: AppContext,
  rows: ProfileRow[],
): Promise<Array<{ dealer: Dealer; profile: DealerProfile }>> {
  const facts = await catalogueOf(
    ctx,
    rows.map((row) => row.userUid),
  );
  const people = rows.length
    ? await ctx.db
        .select({ uid: users.uid, email: users.email, displayName: users.displayName })
        .from(users)
        .where(
          inArray(
            users.uid,
            rows.map((row) => row.userUid),
          ),
        )
    : [];
  return rows.map((row) => {
    const dealer: Dealer = {
      id: row.id,
      businessName: row.businessName,
      country: row.country,
      website: row.website,
      status: row.status,
      logoSha256: row.logoSha256,
      ...(facts.get(row.userUid) ?? { firmwareIds: [], publishedTunes: 0, vehicles: [] }),
      createdAt: row.createdAt.toISOString(),
    };
    const person = people.find((p) => p.uid === row.userUid);
    const profile: DealerProfile = {
      ...dealer,
      userUid: row.userUid,
      email: person?.email ?? null,
      displayName: person?.displayName ?? null,
      address: row.address,
      registrationNumber: row.registrationNumber,
      vatNumber: row.vatNumber,
      phone: row.phone,
      statusReason: row.statusReason,
      statusChangedAt: row.statusChangedAt?.toISOString() ?? null,
      freeRevisionDays: row.freeRevisionDays,
      updatedAt: row.updatedAt.toISOString(),
    };
    return { dealer, profile };
  });
}

const profileOf = async (ctx: AppContext, row: ProfileRow): Promise<DealerProfile> =>
  (await describe(ctx, [row]))[0].profile;

/** Admins and the dealer themself see the whole profile. */
const seesAll = (caller: VerifiedCaller | null) => (row: ProfileRow) =>
  caller !== null && (isAdmin(caller) || caller.uid === row.userUid);

function statusNotification(row: ProfileRow, from: DealerStatus, reason: string): NotificationInput {
  const base = { recipientUid: row.userUid, body: `${reason}` };
  switch (row.status) {
    case "approved":
      return from === "suspended"
        ? {
            ...base,
            kind: "dealer.approved",
            title: `${row.businessName} is active again`,
            body: `Your dealer account was reinstated: ${reason}`,
            link: "/my-tunes",
          }
        : {
            ...base,
            kind: "dealer.approved",
            title: `${row.businessName} is approved as a dealer`,
            body: `You can now publish tunes and work tuning requests. ${reason}`,
            link: "/my-tunes",
          };
    case "rejected":
      return {
        ...base,
        kind: "dealer.rejected",
        title: `Your dealer application for ${row.businessName} was not approved`,
        body: `Reason: ${reason}`,
        link: "/dealer-account-request",
      };
    case "suspended":
      return {
        ...base,
        kind: "dealer.suspended",
        title: `${row.businessName} is suspended`,
        body: `Your tunes are hidden from the directory until an administrator reinstates you. Reason: ${reason}`,
        link: null,
      };
    default:
      throw new Error(`no notification for the status ${row.status}`);
  }
}

export async function dealerRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;
  const admin = { role: "admin" as const };

  async function profileRow(id: string): Promise<ProfileRow> {
    const [row] = await db.select().from(dealerProfiles).where(eq(dealerProfiles.id, id));
    if (!row) throw notFound(`Dealer ${id}`);
    return row;
  }

  /**
   * The dealer claim follows the status (admins keep theirs); old tokens are revoked so it counts at
   * once, and the dealer's open app is told (it signs in again with the new claims).
   */
  async function applyClaims(row: ProfileRow): Promise<void> {
    const record = await ctx.identity.auth.getUser(row.userUid).catch((error: unknown) => {
      if ((error as { code?: string }).code === "auth/user-not-found") return null;
      throw error;
    });
    if (!record) return;
    const current = roleFromClaims(record.customClaims);
    const role: Role = current === "admin" ? "admin" : row.status === "approved" ? "dealer" : "customer";
    const message = `${row.businessName} is now ${row.status}${row.statusReason ? `: ${row.statusReason}` : ""}`;
    const { told } = await applyRole(
      { auth: ctx.identity.auth, db, users: ctx.users, accountEvents: ctx.accountEvents },
      { uid: row.userUid, role, reason: "dealer-status-changed", message },
    );
    await told();
  }

  /** A signed-in user asks to become a dealer: a pending profile that an admin approves. */
  app.post(
    DEALERS,
    { schema: { body: dealerRequestSchema, response: { 201: dealerProfileSummarySchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const input = request.body;
      // One profile per user (unique user_uid): a second request, even a concurrent one, inserts nothing.
      const [created] = await db
        .insert(dealerProfiles)
        .values({
          userUid: caller.uid,
          businessName: input.businessName,
          address: input.address,
          registrationNumber: input.registrationNumber,
          vatNumber: blankToNull(input.vatNumber),
          website: blankToNull(input.website),
          phone: input.phone,
          status: "pending",
        })
        .onConflictDoNothing({ target: dealerProfiles.userUid })
        .returning({
          id: dealerProfiles.id,
          businessName: dealerProfiles.businessName,
          status: dealerProfiles.status,
          createdAt: dealerProfiles.createdAt,
        });
      if (!created) {
        const [existing] = await db
          .select({ businessName: dealerProfiles.businessName, status: dealerProfiles.status })
          .from(dealerProfiles)
          .where(eq(dealerProfiles.userUid, caller.uid));
        throw conflict(
          `You already have a dealer profile for ${existing?.businessName ?? "your business"} (${existing?.status ?? "pending"})`,
          [{ path: "businessName", message: "One dealer profile per account" }],
        );
      }
      const summary: DealerProfileSummary = { ...created, createdAt: created.createdAt.toISOString() };
      return reply.status(201).send(summary);
    },
  );

  /** The directory: approved dealers for everyone (signed in or not); every profile for admins. */
  app.get(
    DEALERS,
    { config: { public: true, optionalCaller: true, list: listSpec }, schema: { response: { 200: dealerPageSchema } } },
    async (request) => {
      const caller = request.caller;
      const scope = caller && isAdmin(caller) ? undefined : eq(dealerProfiles.status, "approved");
      const page = await runList(
        db,
        listSpec,
        listQueryOf(request, listSpec),
        ({ where, orderBy, limit, offset }) =>
          db
            .select()
            .from(dealerProfiles)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .offset(offset),
        scope,
      );
      const full = seesAll(caller);
      const described = await describe(ctx, page.data);
      return { ...page, data: page.data.map((row, i) => (full(row) ? described[i].profile : described[i].dealer)) };
    },
  );

  /** One dealer: approved ones for everyone; others only for admins and the dealer themself (404 otherwise). */
  app.get(
    `${DEALERS}/:id`,
    {
      config: { public: true, optionalCaller: true },
      schema: { params: idParams, response: { 200: z.union([dealerProfileSchema, dealerSchema]) } },
    },
    async (request) => {
      const row = await profileRow(request.params.id);
      const full = seesAll(request.caller);
      if (row.status !== "approved" && !full(row)) throw notFound(`Dealer ${request.params.id}`);
      const [{ dealer, profile }] = await describe(ctx, [row]);
      return full(row) ? profile : dealer;
    },
  );

  /** A dealer's published catalogue, with the list query (filter by firmware, search by title). */
  app.get(
    `${DEALERS}/:id/tune-files`,
    { config: { list: tuneListSpec }, schema: { params: idParams, response: { 200: tuneFilePageSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const row = await profileRow(request.params.id);
      if (row.status !== "approved" && !seesAll(caller)(row)) throw notFound(`Dealer ${request.params.id}`);
      // Tunes offered to named buyers or to a repository's members only stay with them.
      const scope = and(
        eq(tuneFiles.dealerUid, row.userUid),
        eq(tuneFiles.published, true),
        isAdmin(caller) || caller.uid === row.userUid ? undefined : offeredToSql(caller),
      );
      const page = await runList(
        db,
        tuneListSpec,
        listQueryOf(request, tuneListSpec),
        ({ where, orderBy, limit, offset }) =>
          db
            .select(tuneColumns)
            .from(tuneFiles)
            .leftJoin(users, eq(users.uid, tuneFiles.dealerUid))
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .offset(offset),
        scope,
      );
      const mine = await boughtBy(
        db,
        caller.uid,
        page.data.map((tune) => tune.id),
      );
      return {
        ...page,
        data: await Promise.all(
          page.data.map((tune) => tuneToApi(db, tune, accessOf(tune, caller, mine.has(tune.id)), false)),
        ),
      };
    },
  );

  /** Admin: approve, reject, suspend or reinstate, with the reason the dealer is told. The same status again only re-applies the claim. */
  app.patch(
    `${DEALERS}/:id/status`,
    {
      config: admin,
      schema: { params: idParams, body: dealerStatusChangeSchema, response: { 200: dealerProfileSchema } },
    },
    async (request) => {
      const caller = callerOf(request);
      const { status, reason } = request.body;
      const row = await ctx.notifications.transaction(async (tx, notify) => {
        const [current] = await tx
          .select()
          .from(dealerProfiles)
          .where(eq(dealerProfiles.id, request.params.id))
          .for("update");
        if (!current) throw notFound(`Dealer ${request.params.id}`);
        if (current.status === status) return current;
        if (!DEALER_TRANSITIONS[current.status].includes(status)) {
          const allowed = DEALER_TRANSITIONS[current.status];
          const message = `a ${current.status} dealer cannot become ${status}${allowed.length ? `; it can become ${allowed.join(" or ")}` : ""}`;
          throw new HttpError(409, "Conflict", message, [{ path: "status", message }]);
        }
        const [changed] = await tx
          .update(dealerProfiles)
          .set({
            status,
            statusReason: reason,
            statusChangedBy: caller.uid,
            statusChangedAt: new Date(),
            updatedAt: new Date(),
          })
          .where(eq(dealerProfiles.id, current.id))
          .returning();
        await notify(statusNotification(changed, current.status, reason));
        await writeAudit(tx, actorFrom(request), {
          action: "dealer.status-changed",
          targetType: "dealer",
          targetId: current.id,
          subjectUid: current.userUid,
          before: { status: current.status },
          after: { status, reason },
        });
        return changed;
      });
      await applyClaims(row);
      return profileOf(ctx, row);
    },
  );

  /** Admin: corrects the profile's fields. */
  app.patch(
    `${DEALERS}/:id/admin`,
    {
      config: admin,
      schema: { params: idParams, body: dealerAdminPatchSchema, response: { 200: dealerProfileSchema } },
    },
    async (request) => {
      const row = await db.transaction(async (tx) => {
        const [current] = await tx
          .select()
          .from(dealerProfiles)
          .where(eq(dealerProfiles.id, request.params.id))
          .for("update");
        if (!current) throw notFound(`Dealer ${request.params.id}`);
        const [changed] = await tx
          .update(dealerProfiles)
          .set({ ...request.body, updatedAt: new Date() })
          .where(eq(dealerProfiles.id, current.id))
          .returning();
        const fields = Object.keys(request.body) as (keyof typeof request.body)[];
        await writeAudit(tx, actorFrom(request), {
          action: "dealer.updated",
          targetType: "dealer",
          targetId: current.id,
          subjectUid: current.userUid,
          before: Object.fromEntries(fields.map((field) => [field, current[field]])),
          after: request.body,
        });
        return changed;
      });
      return profileOf(ctx, row);
    },
  );

  /**
   * Admin: removes a profile; the user loses the dealer claim, their tunes stay theirs. A dealer
   * with orders in flight (open checkouts, or paid sales that may still be refunded) is suspended
   * instead, so those customers keep their recourse: the answer (200) says so.
   */
  app.delete(
    `${DEALERS}/:id/admin`,
    { config: admin, schema: { params: idParams, response: { 200: dealerRemovalSchema, 204: z.null() } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const outcome = await ctx.notifications.transaction(async (tx, notify) => {
        const [row] = await tx
          .select()
          .from(dealerProfiles)
          .where(eq(dealerProfiles.id, request.params.id))
          .for("update");
        if (!row) throw notFound(`Dealer ${request.params.id}`);
        const [inFlight] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(orders)
          .where(and(eq(orders.dealerUid, row.userUid), inArray(orders.status, ["created", "failed", "paid"])));
        if (inFlight.n === 0) {
          await tx.delete(dealerProfiles).where(eq(dealerProfiles.id, row.id));
          await writeAudit(tx, actorFrom(request), {
            action: "dealer.removed",
            targetType: "dealer",
            targetId: row.id,
            subjectUid: row.userUid,
            before: { businessName: row.businessName, status: row.status },
          });
          return { removed: true as const, row };
        }
        const reason = `removal requested with ${inFlight.n} order(s) in flight: suspended so their customers keep their recourse`;
        const [suspended] = await tx
          .update(dealerProfiles)
          .set({
            status: "suspended",
            statusReason: reason,
            statusChangedBy: caller.uid,
            statusChangedAt: new Date(),
            updatedAt: new Date(),
          })
          .where(eq(dealerProfiles.id, row.id))
          .returning();
        if (row.status !== "suspended") await notify(statusNotification(suspended, row.status, reason));
        await writeAudit(tx, actorFrom(request), {
          action: "dealer.status-changed",
          targetType: "dealer",
          targetId: row.id,
          subjectUid: row.userUid,
          before: { status: row.status },
          after: { status: "suspended", reason },
        });
        return { removed: false as const, row: suspended };
      });
      await applyClaims(outcome.removed ? { ...outcome.row, status: "rejected" } : outcome.row);
      if (outcome.removed) return reply.status(204).send(null);
      return reply
        .status(200)
        .send({ removed: false, reason: outcome.row.statusReason ?? "", dealer: await profileOf(ctx, outcome.row) });
    },
  );

  /** The dealer's own terms for custom tunes (the dealer themself, or an admin); new quotes take them. */
  app.patch(
    `/${apiRoutes.dealers.settings(":id")}`,
    { schema: { params: idParams, body: dealerSettingsSchema, response: { 200: dealerProfileSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const row = await profileRow(request.params.id);
      if (!seesAll(caller)(row)) throw notFound(`Dealer ${request.params.id}`);
      const updated = await db.transaction(async (tx) => {
        const [changed] = await tx
          .update(dealerProfiles)
          .set({ ...request.body, updatedAt: new Date() })
          .where(eq(dealerProfiles.id, row.id))
          .returning();
        const actor = actorFrom(request);
        if (auditsChangeBy(actor, row.userUid)) {
          await writeAudit(tx, actor, {
            action: "dealer.settings-changed",
            targetType: "dealer",
            targetId: row.id,
            subjectUid: row.userUid,
            before: { freeRevisionDays: row.freeRevisionDays },
            after: request.body,
          });
        }
        return changed;
      });
      return profileOf(ctx, updated);
    },
  );

  /**
   * The approved logo of a dealer the directory shows, for anyone: a WebP re-encoded at approval
   * (services/profile-change-files.ts), cached for a day; links carry its hash (`?v=`), so a new
   * logo is a new URL.
   */
  app.get(
    `/${apiRoutes.dealers.logo(":id")}`,
    {
      config: { public: true },
      schema: { params: idParams, querystring: z.strictObject({ v: z.string().max(64).optional() }) },
    },
    async (request, reply) => {
      const [row] = await db
        .select({ logoSha256: dealerProfiles.logoSha256 })
        .from(dealerProfiles)
        .where(and(eq(dealerProfiles.id, request.params.id), eq(dealerProfiles.status, "approved")));
      if (!row?.logoSha256 || !(await ctx.blobs.exists(row.logoSha256)))
        throw notFound(`A logo of dealer ${request.params.id}`);
      return reply
        .type("image/webp")
        .header("cache-control", "public, max-age=86400")
        .header("etag", `"${row.logoSha256}"`)
        .header("x-content-type-options", "nosniff")
        .send(ctx.blobs.stream(row.logoSha256));
    },
  );

  /** A user's own dealer profile (or any, for admins); 404 when they have none. */
  app.get(
    `/${apiRoutes.users.dealer(":id")}`,
    { schema: { params: z.strictObject({ id: z.string().min(1).max(128) }), response: { 200: dealerProfileSchema } } },
    async (request) => {
      const caller = callerOf(request);
      assertSelfOrAdmin(caller, request.params.id);
      const [row] = await db.select().from(dealerProfiles).where(eq(dealerProfiles.userUid, request.params.id));
      if (!row) throw notFound(`A dealer profile for user ${request.params.id}`);
      return profileOf(ctx, row);
    },
  );
}
