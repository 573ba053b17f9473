/**
 * Tune files: a dealer's tunes, their versions, publishing and grants, and
 * the inspection of an uploaded image. Who may see or change a tune is
 * decided in services/tune-access.ts; the viewer's endpoints are in
 * tune-viewer.ts, bakes in vehicle-bakes.ts and baked-files.ts.
 *
 * Every refused upload leaves nothing behind: files are checked before they
 * are adopted into the blob store, and rows are written last.
 */
import { and, eq, or, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  inspectPatchSchema,
  type LocalInspection,
  localInspectionSchema,
  patchPreviewSchema,
  type TuneFile,
  tuneFileCreateSchema,
  tuneFileGrantAnswerSchema,
  tuneFileGrantSchema,
  tuneFileList,
  tuneFilePageSchema,
  tuneFilePublishSchema,
  tuneFileSchema,
  tuneFileUpdateSchema,
  tuneFileVersionSchema,
  tuneVersionQuerySchema,
} from "../../contracts/tune-files";
import type { AppContext } from "../context";
import { tuneFilePurchases, tuneFiles, tuneFileVersions, tuneRepositories, users } from "../db/schema";
import { badRequest, forbidden, HttpError, notFound } from "../errors";
import { callerOf } from "../http/auth";
import { idParams, referencedConflict } from "../http/crud";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { fieldsOf } from "../http/multipart-fields";
import { requireFile, withBufferedUpload, withUpload } from "../http/uploads";
import type { ZodTypeProvider } from "../http/zod";
import { auditChangeTo, changedFields } from "../services/audit";
import { definitionOf, firmwareRecord } from "../services/firmware-records";
import { readyAccountOf } from "../services/payments/accounts";
import {
  accessOf,
  boughtBy,
  isAdmin,
  ownTune,
  tuneColumns,
  tuneRow,
  vehicleFor,
  versionRow,
  visibleTune,
} from "../services/tune-access";
import { applyPatches } from "../services/tune-engine";
import { inspect, readImage } from "../services/tune-files";
import { offeredToSql } from "../services/tune-offers";
import { tuneToApi } from "../services/tune-responses";
import { acceptImage } from "../services/tune-uploads";

const TUNE_FILES = `/${apiPaths["tune-files"].list}`;

const dealer = { role: "dealer" as const };

/** The tune list's fields and search, shared with a dealer's catalogue (routes/dealers.ts). */
export const tuneListSpec: ListSpec = {
  table: tuneFiles,
  id: tuneFiles.id,
  allowed: tuneFileList,
  fields: {
    title: { column: tuneFiles.title, kind: "text" },
    firmwareId: { column: tuneFiles.firmwareId, kind: "text" },
    dealerUid: { column: tuneFiles.dealerUid, kind: "text" },
    published: { column: tuneFiles.published, kind: "boolean" },
    priceCents: { column: tuneFiles.priceCents, kind: "number" },
    updatedAt: { column: tuneFiles.updatedAt, kind: "timestamp" },
    createdAt: { column: tuneFiles.createdAt, kind: "timestamp" },
  },
  search: sql`(${tuneFiles.title} || ' ' || ${tuneFiles.description} || ' ' || ${tuneFiles.firmwareId})`,
  defaultSort: [{ field: "updatedAt", order: "desc" }],
};

/** What the trail keeps of a tune file: its terms and texts (its versions are named by number). */
const tuneAudited = (row: typeof tuneFiles.$inferSelect) => ({
  title: row.title,
  description: row.description,
  published: row.published,
  priceCents: row.priceCents,
  currency: row.currency,
  buyerEmails: row.buyerEmails,
  mayView: row.mayView,
  mayDownload: row.mayDownload,
  currentVersion: row.currentVersion,
  repositoryId: row.repositoryId,
});

export async function tuneFileRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  // -------------------------------------------------------------------------
  // Inspection

  /** With `definition=true`, the identified firmware's definition too: whoever holds an image may see its maps. */
  app.post(
    `/${apiRoutes.tuneFiles.inspect()}`,
    {
      schema: {
        querystring: z.strictObject({ definition: z.stringbool().default(false) }),
        response: { 200: localInspectionSchema },
      },
    },
    async (request, reply) =>
      withBufferedUpload(request, reply, ctx, async (upload) => {
        const report: LocalInspection = await inspect(ctx, requireFile(upload).bytes);
        if (request.query.definition)
          report.definition = report.firmwareId ? await definitionOf(db, report.firmwareId) : null;
        return report;
      }),
  );

  app.post(
    `/${apiRoutes.tuneFiles.inspect()}/patch`,
    { schema: { body: inspectPatchSchema, response: { 200: patchPreviewSchema } } },
    async (request) => {
      const { body } = request;
      const caller = callerOf(request);
      const { row, access } = await visibleTune(db, body.tuneFileId, caller);
      if (!access.owner && !access.bought) throw forbidden("Buy the tune first to preview patches on it");
      const version = await versionRow(db, row.id, body.version ?? row.currentVersion);
      const record = await firmwareRecord(db, row.firmwareId);
      const patches = await ctx.catalogue.patches(body.patchIds);
      const image = await readImage(ctx, version.sha256);
      const outcome = await applyPatches(image, patches, {
        firmwareId: record.firmwareId,
        checksums: record.checksums,
        inPlace: true,
      });
      const report = await inspect(ctx, outcome.image, { record, view: access.view });
      return { ...report, applied: outcome.patches, fixed: outcome.checksums?.fixed ?? [] };
    },
  );

  // -------------------------------------------------------------------------
  // Tune files

  app.post(TUNE_FILES, { config: dealer, schema: { response: { 201: tuneFileSchema } } }, async (request, reply) => {
    const caller = callerOf(request);
    const created = await withUpload(request, ctx, async (upload) => {
      const { input, flags } = fieldsOf(tuneFileCreateSchema, upload.fields, ["fixChecksums"]);
      const image = await acceptImage(ctx, requireFile(upload), flags.fixChecksums);
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(tuneFiles)
          .values({
            dealerUid: caller.uid,
            firmwareId: image.record.firmwareId,
            title: input.title,
            description: input.description,
          })
          .returning();
        await tx.insert(tuneFileVersions).values({
          tuneFileId: row.id,
          number: 1,
          label: input.version,
          notes: input.notes,
          sha256: image.sha256,
          size: image.size,
          checksums: image.checksums,
          createdBy: caller.uid,
        });
        // A dealer's own new tune is theirs; one an admin makes is audited.
        await auditChangeTo(tx, request, caller.uid, {
          action: "tune-file.created",
          targetType: "tune-file",
          targetId: row.id,
          after: { ...tuneAudited(row), sha256: image.sha256 },
        });
        return row.id;
      });
    });
    const row = await tuneRow(db, created);
    return reply.status(201).send(await tuneToApi(db, row, accessOf(row, caller, false)));
  });

  app.get(
    TUNE_FILES,
    { config: { list: tuneListSpec }, schema: { response: { 200: tuneFilePageSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const query = listQueryOf(request, tuneListSpec);
      const bought = sql`EXISTS (SELECT 1 FROM ${tuneFilePurchases} WHERE ${tuneFilePurchases.tuneFileId} = ${tuneFiles.id} AND ${tuneFilePurchases.customerUid} = ${caller.uid})`;
      const forSale = sql`(${tuneFiles.published} AND ${offeredToSql(caller)})`;
      const scope: SQL | undefined = isAdmin(caller)
        ? undefined
        : or(eq(tuneFiles.dealerUid, caller.uid), bought, forSale);
      const page = await runList(
        db,
        tuneListSpec,
        query,
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
        page.data.map((row) => row.id),
      );
      const data = page.data.map((row) => tuneToApi(db, row, accessOf(row, caller, mine.has(row.id)), false));
      return { ...page, data: await Promise.all(data) };
    },
  );

  app.get(
    `${TUNE_FILES}/:id`,
    { schema: { params: idParams, response: { 200: tuneFileSchema } } },
    async (request): Promise<TuneFile> => {
      const { row, access } = await visibleTune(db, request.params.id, callerOf(request));
      return tuneToApi(db, row, access);
    },
  );

  app.get(
    `/${apiRoutes.tuneFiles.download(":id")}`,
    { schema: { params: idParams, querystring: tuneVersionQuerySchema } },
    async (request, reply) => {
      const { row, access } = await visibleTune(db, request.params.id, callerOf(request));
      if (!access.download)
        throw forbidden(
          access.bought
            ? "The tune's author does not let buyers download it; flash it from the app"
            : "Buy the tune first",
        );
      const { version } = request.query;
      if (version !== undefined && version !== row.currentVersion && !access.owner)
        throw forbidden("Buyers get the current version only");
      const stored = await versionRow(db, row.id, version ?? row.currentVersion);
      return reply
        .header("content-type", "application/octet-stream")
        .header("content-disposition", `attachment; filename="${row.firmwareId}-v${stored.number}.bin"`)
        .header("x-content-sha256", stored.sha256)
        .send(ctx.blobs.stream(stored.sha256));
    },
  );

  app.patch(
    `${TUNE_FILES}/:id`,
    { schema: { params: idParams, body: tuneFileUpdateSchema, response: { 200: tuneFileSchema } } },
    async (request): Promise<TuneFile> => {
      const caller = callerOf(request);
      const { id } = request.params;
      const { body } = request;
      await db.transaction(async (tx) => {
        await tx.select({ id: tuneFiles.id }).from(tuneFiles).where(eq(tuneFiles.id, id)).for("update");
        const owned = await ownTune(tx, id, caller);
        if (body.currentVersion !== undefined) {
          const [exists] = await tx
            .select({ id: tuneFileVersions.id })
            .from(tuneFileVersions)
            .where(and(eq(tuneFileVersions.tuneFileId, id), eq(tuneFileVersions.number, body.currentVersion)));
          if (!exists)
            throw badRequest("Invalid body", `no version ${body.currentVersion}`, [
              { path: "currentVersion", message: `no version ${body.currentVersion}` },
            ]);
        }
        if (body.repositoryId) {
          const [repository] = await tx
            .select({ id: tuneRepositories.id })
            .from(tuneRepositories)
            .where(and(eq(tuneRepositories.id, body.repositoryId), eq(tuneRepositories.dealerUid, owned.dealerUid)));
          if (!repository)
            throw badRequest("Invalid body", `no repository ${body.repositoryId} of the tune's dealer`, [
              { path: "repositoryId", message: "no such repository of the tune's dealer" },
            ]);
        }
        const [updated] = await tx
          .update(tuneFiles)
          .set({ ...body, updatedAt: new Date() })
          .where(eq(tuneFiles.id, id))
          .returning();
        // An admin changing a dealer's tune is audited; the dealer's own edits are not.
        await auditChangeTo(tx, request, owned.dealerUid, {
          action: "tune-file.updated",
          targetType: "tune-file",
          targetId: id,
          ...changedFields(tuneAudited(owned), tuneAudited(updated)),
        });
      });
      const row = await tuneRow(db, id);
      return tuneToApi(db, row, accessOf(row, caller, false));
    },
  );

  app.delete(`${TUNE_FILES}/:id`, { schema: { params: idParams } }, async (request, reply) => {
    const caller = callerOf(request);
    const { id } = request.params;
    await db.transaction(async (tx) => {
      await tx.select({ id: tuneFiles.id }).from(tuneFiles).where(eq(tuneFiles.id, id)).for("update");
      const row = await ownTune(tx, id, caller);
      // A bought tune is a licence someone paid for: unpublish it instead.
      const buyers = await tx
        .select({ id: tuneFilePurchases.id, vehicleId: tuneFilePurchases.vehicleId })
        .from(tuneFilePurchases)
        .where(eq(tuneFilePurchases.tuneFileId, id))
        .limit(20);
      if (buyers.length)
        throw referencedConflict(
          `Tune file "${row.title}"`,
          buyers.map((b) => ({ resource: "purchase", id: b.id, label: `for vehicle ${b.vehicleId}` })),
        );
      await tx.delete(tuneFiles).where(eq(tuneFiles.id, id));
      await auditChangeTo(tx, request, row.dealerUid, {
        action: "tune-file.deleted",
        targetType: "tune-file",
        targetId: id,
        before: tuneAudited(row),
      });
    });
    return reply.status(204).send();
  });

  app.post(
    `/${apiRoutes.tuneFiles.blob(":id")}`,
    { schema: { params: idParams, response: { 200: tuneFileSchema } } },
    async (request): Promise<TuneFile> => {
      const caller = callerOf(request);
      const { id } = request.params;
      const current = await ownTune(db, id, caller);
      await withUpload(request, ctx, async (upload) => {
        const { input, flags } = fieldsOf(tuneFileVersionSchema, upload.fields, ["fixChecksums"]);
        const image = await acceptImage(ctx, requireFile(upload), flags.fixChecksums, current.firmwareId);
        await db.transaction(async (tx) => {
          const [locked] = await tx.select().from(tuneFiles).where(eq(tuneFiles.id, id)).for("update");
          if (!locked) throw notFound(`Tune file ${id}`);
          const [{ next }] = await tx
            .select({ next: sql<number>`coalesce(max(${tuneFileVersions.number}), 0)::int + 1` })
            .from(tuneFileVersions)
            .where(eq(tuneFileVersions.tuneFileId, id));
          await tx.insert(tuneFileVersions).values({
            tuneFileId: id,
            number: next,
            label: input.version,
            notes: input.notes,
            sha256: image.sha256,
            size: image.size,
            checksums: image.checksums,
            createdBy: caller.uid,
          });
          await tx.update(tuneFiles).set({ currentVersion: next, updatedAt: new Date() }).where(eq(tuneFiles.id, id));
          await auditChangeTo(tx, request, locked.dealerUid, {
            action: "tune-file.version-added",
            targetType: "tune-file",
            targetId: id,
            before: { currentVersion: locked.currentVersion },
            after: { currentVersion: next, label: input.version, sha256: image.sha256, size: image.size },
          });
        });
      });
      const row = await tuneRow(db, id);
      return tuneToApi(db, row, accessOf(row, caller, false));
    },
  );

  app.put(
    `/${apiRoutes.tuneFiles.publish(":id")}`,
    { schema: { params: idParams, body: tuneFilePublishSchema, response: { 200: tuneFileSchema } } },
    async (request): Promise<TuneFile> => {
      const caller = callerOf(request);
      const { id } = request.params;
      const { body } = request;
      const tune = await ownTune(db, id, caller);
      // A sale is paid to the dealer's payout account: a priced tune waits for one that takes charges.
      if (body.priceCents > 0 && !(await readyAccountOf(db, tune.dealerUid))) {
        const message =
          "set up your payout account before selling (My tunes → Sales and payments); a free tune can be published without one";
        throw new HttpError(409, "No payout account", message, [
          { path: "priceCents", message: "needs a payout account that takes charges" },
        ]);
      }
      await db.transaction(async (tx) => {
        const [published] = await tx
          .update(tuneFiles)
          .set({
            published: true,
            priceCents: body.priceCents,
            currency: body.currency,
            buyerEmails: [...new Set(body.buyerEmails)],
            ...(body.mayView !== undefined && { mayView: body.mayView }),
            ...(body.mayDownload !== undefined && { mayDownload: body.mayDownload }),
            updatedAt: new Date(),
          })
          .where(eq(tuneFiles.id, id))
          .returning();
        await auditChangeTo(tx, request, tune.dealerUid, {
          action: "tune-file.published",
          targetType: "tune-file",
          targetId: id,
          ...changedFields(tuneAudited(tune), tuneAudited(published)),
        });
      });
      const row = await tuneRow(db, id);
      return tuneToApi(db, row, accessOf(row, caller, false));
    },
  );

  app.put(
    `/${apiRoutes.tuneFiles.unpublish(":id")}`,
    { schema: { params: idParams, response: { 200: tuneFileSchema } } },
    async (request): Promise<TuneFile> => {
      const caller = callerOf(request);
      const { id } = request.params;
      const tune = await ownTune(db, id, caller);
      await db.transaction(async (tx) => {
        await tx.update(tuneFiles).set({ published: false, updatedAt: new Date() }).where(eq(tuneFiles.id, id));
        await auditChangeTo(tx, request, tune.dealerUid, {
          action: "tune-file.unpublished",
          targetType: "tune-file",
          targetId: id,
          before: { published: tune.published },
          after: { published: false },
        });
      });
      const row = await tuneRow(db, id);
      return tuneToApi(db, row, accessOf(row, caller, false));
    },
  );

  /**
   * A purchase without payment (orders will replace it): an admin grants any
   * tune to any vehicle; a dealer grants their own tune only to a vehicle
   * they already reach (its owner bought from them, see vehicleFor). Any
   * other vehicle gets the answer an unknown id gets, so a grant neither
   * hands a dealer a stranger's car nor tells that it exists.
   */
  app.post(
    `${TUNE_FILES}/:id/grant`,
    {
      config: dealer,
      schema: {
        params: idParams,
        body: tuneFileGrantSchema,
        response: { 200: tuneFileGrantAnswerSchema, 201: tuneFileGrantAnswerSchema },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { id } = request.params;
      const { vehicleId } = request.body;
      const tune = await ownTune(db, id, caller);
      const noVehicle = () =>
        badRequest("Invalid body", `no vehicle ${vehicleId}`, [{ path: "vehicleId", message: "no such vehicle" }]);
      const { vehicle } = await vehicleFor(db, vehicleId, caller).catch((error: unknown) => {
        throw error instanceof HttpError && error.statusCode === 404 ? noVehicle() : error;
      });
      if (vehicle.firmwareId && vehicle.firmwareId !== tune.firmwareId) {
        const message = `the vehicle runs firmware ${vehicle.firmwareId}, the tune is for ${tune.firmwareId}`;
        throw new HttpError(422, "Wrong firmware", message, [{ path: "vehicleId", message }]);
      }
      // A licence on someone's car, given without payment: audited (an admin's or a dealer's gift alike).
      const created = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(tuneFilePurchases)
          .values({ customerUid: vehicle.ownerUid, tuneFileId: id, vehicleId, grantedBy: caller.uid })
          .onConflictDoNothing()
          .returning();
        if (made) {
          await auditChangeTo(tx, request, vehicle.ownerUid, {
            action: "licence.granted",
            targetType: "licence",
            targetId: made.id,
            after: { tuneFileId: id, title: tune.title, vehicleId },
          });
        }
        return made;
      });
      return reply
        .status(created ? 201 : 200)
        .send({ tuneFileId: id, vehicleId, customerUid: vehicle.ownerUid, created: Boolean(created) });
    },
  );
}
