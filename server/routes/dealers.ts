/**
 * Dealers: a user applies (`POST /dealers`, a pending profile), admins decide and keep the
 * profiles, and everyone reads the directory of approved dealers with the vehicles and firmware
 * their published tunes cover. A status change sets or removes the dealer claim and revokes the
 * user's sessions, so it takes effect at the next request, and the dealer is told why. The
 * profiles are kept by services/dealers/.
 */

import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  dealerAboutSchema,
  dealerAdminPatchSchema,
  dealerList,
  dealerPageSchema,
  dealerProfileSchema,
  dealerRemovalSchema,
  dealerSchema,
  dealerStatusChangeSchema,
} from "../../contracts/dealers";
import { dealerProfileSummarySchema, dealerRequestSchema } from "../../contracts/public-site";
import { publicTuneFilePageSchema, tuneFilePageSchema } from "../../contracts/tune-files";
import { dealerSettingsSchema } from "../../contracts/tuning-requests";
import type { AppContext } from "../context";
import { dealerProfiles } from "../db/schema";
import { assertSelfOrAdmin, callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { bytesAnswer } from "../http/media";
import type { ZodTypeProvider } from "../http/zod";
import { actorFrom } from "../services/audit";
import { dealerTunePage, publicDealerTunePage } from "../services/dealers/catalogue";
import {
  applyForDealer,
  changeDealerAbout,
  changeDealerSettings,
  correctDealerProfile,
  dealerFor,
  dealerLogo,
  dealerPage,
  dealerProfileOfUser,
  vehiclesTuned,
} from "../services/dealers/profiles";
import { changeDealerStatus, removeDealer } from "../services/dealers/status";
import { tuneListSpec } from "./tune-files";

const DEALERS = `/${apiPaths["managed-dealers"].list}`;

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

export async function dealerRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerDirectoryRoutes(plugin, ctx);
  registerDealerRoutes(plugin, ctx);
  registerAdminRoutes(plugin, ctx);
}

/** What everyone reads: the directory, one dealer, a dealer's catalogue and logo. */
function registerDirectoryRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  /** The directory: approved dealers for everyone (signed in or not); every profile for admins. */
  app.get(
    DEALERS,
    { config: { public: true, optionalCaller: true, list: listSpec }, schema: { response: { 200: dealerPageSchema } } },
    async (request) =>
      dealerPage(db, request.caller, (select, scope) =>
        runList(db, listSpec, listQueryOf(request, listSpec), select, scope),
      ),
  );

  /** One dealer: approved ones for everyone; others only for admins and the dealer themself (404 otherwise). */
  app.get(
    `${DEALERS}/:id`,
    {
      config: { public: true, optionalCaller: true },
      schema: { params: idParams, response: { 200: z.union([dealerProfileSchema, dealerSchema]) } },
    },
    async (request) => dealerFor(db, request.caller, request.params.id),
  );

  /**
   * A dealer's published catalogue, with the list query (filter by firmware, search by title):
   * signed-in callers get the tunes offered to them with what they may do; a visitor the tunes
   * sold to anyone, in their public shape.
   */
  app.get(
    `${DEALERS}/:id/tune-files`,
    {
      config: { public: true, optionalCaller: true, list: tuneListSpec },
      schema: { params: idParams, response: { 200: z.union([tuneFilePageSchema, publicTuneFilePageSchema]) } },
    },
    async (request) => {
      const query = listQueryOf(request, tuneListSpec);
      return request.caller
        ? dealerTunePage(db, request.caller, request.params.id, (select, scope) =>
            runList(db, tuneListSpec, query, select, scope),
          )
        : publicDealerTunePage(db, request.params.id, (select, scope) =>
            runList(db, tuneListSpec, query, select, scope),
          );
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
      config: { public: true, media: bytesAnswer({ types: ["image/webp"], attachment: false }) },
      schema: { params: idParams, querystring: z.strictObject({ v: z.string().max(64).optional() }) },
    },
    async (request, reply) => {
      const sha256 = await dealerLogo(ctx, request.params.id);
      const body = await ctx.blobs.stream(sha256);
      return reply
        .type("image/webp")
        .header("cache-control", "public, max-age=86400")
        .header("etag", `"${sha256}"`)
        .header("x-content-type-options", "nosniff")
        .send(body);
    },
  );
}

/** The user's side: applying, their own profile, the dealer's terms and their words about the business. */
function registerDealerRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  /** A signed-in user asks to become a dealer: a pending profile that an admin approves. */
  app.post(
    DEALERS,
    { schema: { body: dealerRequestSchema, response: { 201: dealerProfileSummarySchema } } },
    async (request, reply) => reply.status(201).send(await applyForDealer(db, callerOf(request).uid, request.body)),
  );

  /** A user's own dealer profile (or any, for admins); 404 when they have none. */
  app.get(
    `/${apiRoutes.users.dealer(":id")}`,
    { schema: { params: z.strictObject({ id: z.string().min(1).max(128) }), response: { 200: dealerProfileSchema } } },
    async (request) => {
      assertSelfOrAdmin(callerOf(request), request.params.id);
      return dealerProfileOfUser(db, request.params.id);
    },
  );

  /** The dealer's own terms for custom tunes (the dealer themself, or an admin); new quotes take them. */
  app.patch(
    `/${apiRoutes.dealers.settings(":id")}`,
    { schema: { params: idParams, body: dealerSettingsSchema, response: { 200: dealerProfileSchema } } },
    async (request) => changeDealerSettings(db, callerOf(request), actorFrom(request), request.params.id, request.body),
  );

  /** The dealer's own words about their business, shown on their page (the dealer themself, or an admin). */
  app.patch(
    `/${apiRoutes.dealers.about(":id")}`,
    { schema: { params: idParams, body: dealerAboutSchema, response: { 200: dealerProfileSchema } } },
    async (request) => changeDealerAbout(db, callerOf(request), actorFrom(request), request.params.id, request.body),
  );
}

/** Admins: the status, the profile's fields, and removal. */
function registerAdminRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const admin = { role: "admin" as const };

  /** Admin: approve, reject, suspend or reinstate, with the reason the dealer is told. The same status again only re-applies the claim. */
  app.patch(
    `${DEALERS}/:id/status`,
    {
      config: admin,
      schema: { params: idParams, body: dealerStatusChangeSchema, response: { 200: dealerProfileSchema } },
    },
    async (request) => changeDealerStatus(ctx, actorFrom(request), request.params.id, request.body),
  );

  /** Admin: corrects the profile's fields. */
  app.patch(
    `${DEALERS}/:id/admin`,
    {
      config: admin,
      schema: { params: idParams, body: dealerAdminPatchSchema, response: { 200: dealerProfileSchema } },
    },
    async (request) => correctDealerProfile(ctx.db, actorFrom(request), request.params.id, request.body),
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
      const outcome = await removeDealer(ctx, actorFrom(request), request.params.id);
      if (outcome.removed) return reply.status(204).send(null);
      return reply.status(200).send(outcome);
    },
  );
}
