/**
 * Baked tune files: a bake's report, its bytes (within the tune's
 * protection), deleting it, and redoing every kept bake from its sources.
 */
import { eq, gt, isNull, or } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { type BakedTuneFile, bakedTuneFileSchema } from "../../contracts/tune-files";
import { startedJobSchema } from "../../contracts/server-management";
import type { AppContext } from "../context";
import { bakedTuneFiles, userVehicles } from "../db/schema";
import { HttpError, forbidden, notFound } from "../errors";
import { callerOf } from "../http/auth";
import { sendBakedFile } from "../http/vehicle-files";
import { idParams } from "../http/crud";
import type { ZodTypeProvider } from "../http/zod";
import { actorFrom, auditChangeTo, writeAudit } from "../services/audit";
import { dumpOf } from "../services/bakes";
import { bakeAccess, bakedRow, isAdmin, vehicleFor, versionRow } from "../services/tune-access";
import { bakeFromBlobs } from "../services/tune-files";
import { bakedToApi } from "../services/tune-responses";

const admin = { role: "admin" as const };

export async function bakedFileRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get("/baked-tune-files/:id", { schema: { params: idParams, response: { 200: bakedTuneFileSchema } } }, async (request): Promise<BakedTuneFile> => bakedToApi(db, await bakedRow(db, request.params.id), callerOf(request)));

  app.get("/baked-tune-files/:id/download", { schema: { params: idParams } }, async (request, reply) => {
    const caller = callerOf(request);
    const row = await bakedRow(db, request.params.id);
    const access = await bakeAccess(db, row, caller);
    if (!access.download) throw forbidden("The tune's author does not let buyers download it; flash it from the app");
    return sendBakedFile(reply, ctx, row);
  });

  /** The owner's bakes are theirs: a dealer who manages the car deletes only the bakes they made. */
  app.delete("/baked-tune-files/:id", { schema: { params: idParams } }, async (request, reply) => {
    const caller = callerOf(request);
    const row = await bakedRow(db, request.params.id);
    const { owner, vehicle } = await vehicleFor(db, row.vehicleId, caller).catch(() => {
      throw notFound(`Baked tune file ${row.id}`);
    });
    if (!owner && !isAdmin(caller) && row.createdBy !== caller.uid) throw forbidden("Only the vehicle's owner, an admin or whoever made the bake may delete it");
    const vehicleOwner = vehicle.ownerUid;
    await db.transaction(async (tx) => {
      await tx.delete(bakedTuneFiles).where(eq(bakedTuneFiles.id, row.id));
      await auditChangeTo(tx, request, vehicleOwner, {
        action: "baked-tune-file.deleted",
        targetType: "baked-tune-file",
        targetId: row.id,
        before: { vehicleId: row.vehicleId, tuneFileId: row.tuneFileId, tuneVersion: row.tuneVersion, sha256: row.sha256, createdBy: row.createdBy },
      });
    });
    return reply.status(204).send();
  });

  /** Redoes every kept bake from its sources (after a patch or definition change); one failure is recorded and the rest go on. */
  app.post("/baked-tune-files/rebake-all", { config: admin, schema: { response: { 202: startedJobSchema } } }, async (request, reply) => {
    const job = ctx.jobs.start("rebake-all", async (progress) => {
      const rows = await db.select().from(bakedTuneFiles).where(or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date()))).orderBy(bakedTuneFiles.createdAt);
      progress.setTotal(rows.length);
      for (const row of rows) {
        try {
          const [vehicle] = await db.select().from(userVehicles).where(eq(userVehicles.id, row.vehicleId));
          const dump = dumpOf(db, vehicle);
          const record = await dump.record;
          let tuneSha256 = row.sourceSha256;
          if (row.tuneFileId) tuneSha256 = (await versionRow(db, row.tuneFileId, row.tuneVersion!)).sha256;
          if (!tuneSha256) throw new Error("the bake has neither a tune nor a supplied image");
          const patches = await ctx.catalogue.patches(row.patchIds);
          const result = await bakeFromBlobs(ctx, { record, dumpSha256: dump.sha256, tune: tuneSha256, direct: !row.tuneFileId, patches });
          await ctx.blobs.put(result.image);
          await db
            .update(bakedTuneFiles)
            .set({ sha256: result.sha256, size: result.image.length, report: result.report as unknown as Record<string, unknown>, updatedAt: new Date() })
            .where(eq(bakedTuneFiles.id, row.id));
          progress.step();
        } catch (error) {
          const message = error instanceof HttpError ? (error.description ?? error.message) : error instanceof Error ? error.message : String(error);
          progress.step({ item: row.id, message });
        }
      }
    });
    await writeAudit(db, actorFrom(request), { action: "job.started", targetType: "job", targetId: job.id, after: { kind: "rebake-all" } });
    return reply.status(202).send({ job });
  });
}
