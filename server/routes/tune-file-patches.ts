/**
 * Tune-file patches: the catalogue of byte patches (admins write it), which
 * firmware and tunes a patch fits, applying patches to an uploaded image,
 * and importing definition files (TunerPro XDF, RomRaider, EcuFlash) with their patches.
 */
import { and, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  patchCompatibilitySchema,
  type TuneFilePatch,
  tuneFilePatchInputSchema,
  tuneFilePatchList,
  tuneFilePatchPageSchema,
  tuneFilePatchSchema,
  xdfImportedSchema,
  xdfImportSchema,
  xdfStoredSchema,
} from "../../contracts/tune-files";
import { patchState } from "../../domain/tune";
import type { AppContext } from "../context";
import { bakedTuneFiles, tuneFilePatches, tuneFiles } from "../db/schema";
import { notFound, RequestValidationError } from "../errors";
import { callerOf } from "../http/auth";
import { idParams, referencedConflict } from "../http/crud";
import { reprDigestOf, wantsSha256 } from "../http/digest";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { fieldsOf, patchIdsField } from "../http/multipart-fields";
import { requireFile, withBufferedUpload } from "../http/uploads";
import type { ZodTypeProvider } from "../http/zod";
import { actorFrom, changedFields, writeAudit } from "../services/audit";
import { runDefinitionImport } from "../services/definition-import";
import { firmwareRecord, patchOf, requireIdentified } from "../services/firmware-records";
import { checkPatchAgainstFirmware } from "../services/patch-fit";
import { isAdmin, versionRow } from "../services/tune-access";
import { applyPatches } from "../services/tune-engine";
import { readImage, refuseFailingChecksums, sha256Of } from "../services/tune-files";
import { patchToApi } from "../services/tune-responses";

const TUNE_FILE_PATCHES = `/${apiPaths["tune-file-patches"].list}`;

const dealer = { role: "dealer" as const };
const admin = { role: "admin" as const };

const patchListSpec: ListSpec = {
  table: tuneFilePatches,
  id: tuneFilePatches.id,
  allowed: tuneFilePatchList,
  fields: {
    title: { column: tuneFilePatches.title, kind: "text" },
    firmwareIds: { column: tuneFilePatches.firmwareIds, kind: "array" },
    updatedAt: { column: tuneFilePatches.updatedAt, kind: "timestamp" },
  },
  search: sql`(${tuneFilePatches.title} || ' ' || ${tuneFilePatches.description})`,
  defaultSort: [{ field: "title", order: "asc" }],
};

/** What the trail keeps of a patch: all of it (a patch is a few bytes per entry). */
const patchAudited = (row: typeof tuneFilePatches.$inferSelect) => ({
  title: row.title,
  description: row.description,
  firmwareIds: row.firmwareIds,
  entries: row.entries,
});

export async function tuneFilePatchRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    TUNE_FILE_PATCHES,
    { config: { list: patchListSpec }, schema: { response: { 200: tuneFilePatchPageSchema } } },
    async (request) => {
      const query = listQueryOf(request, patchListSpec);
      const page = await runList(db, patchListSpec, query, ({ where, orderBy, limit, offset }) =>
        db
          .select()
          .from(tuneFilePatches)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset),
      );
      return { ...page, data: page.data.map(patchToApi) };
    },
  );

  app.get(
    `${TUNE_FILE_PATCHES}/:id`,
    { schema: { params: idParams, response: { 200: tuneFilePatchSchema } } },
    async (request): Promise<TuneFilePatch> => {
      const { id } = request.params;
      const [row] = await db.select().from(tuneFilePatches).where(eq(tuneFilePatches.id, id));
      if (!row) throw notFound(`Tune-file patch ${id}`);
      return patchToApi(row);
    },
  );

  app.put(
    TUNE_FILE_PATCHES,
    {
      config: admin,
      schema: { body: tuneFilePatchInputSchema, response: { 200: tuneFilePatchSchema, 201: tuneFilePatchSchema } },
    },
    async (request, reply) => {
      const input = request.body;
      const row = await db.transaction(async (tx) => {
        await checkPatchAgainstFirmware(ctx, tx, input);
        const values = {
          title: input.title,
          description: input.description,
          firmwareIds: input.firmwareIds,
          entries: input.entries,
        };
        if (input.id) {
          const [current] = await tx
            .select()
            .from(tuneFilePatches)
            .where(eq(tuneFilePatches.id, input.id))
            .for("update");
          if (!current) throw notFound(`Tune-file patch ${input.id}`);
          const [updated] = await tx
            .update(tuneFilePatches)
            .set({ ...values, updatedAt: new Date() })
            .where(eq(tuneFilePatches.id, input.id))
            .returning();
          await writeAudit(tx, actorFrom(request), {
            action: "tune-file-patch.updated",
            targetType: "tune-file-patch",
            targetId: updated.id,
            ...changedFields(patchAudited(current), patchAudited(updated)),
          });
          return updated;
        }
        const [created] = await tx.insert(tuneFilePatches).values(values).returning();
        await writeAudit(tx, actorFrom(request), {
          action: "tune-file-patch.created",
          targetType: "tune-file-patch",
          targetId: created.id,
          after: patchAudited(created),
        });
        return created;
      });
      return reply.status(input.id ? 200 : 201).send(patchToApi(row));
    },
  );

  app.delete(`${TUNE_FILE_PATCHES}/:id`, { config: admin, schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params;
    await db.transaction(async (tx) => {
      const [row] = await tx.select().from(tuneFilePatches).where(eq(tuneFilePatches.id, id)).for("update");
      if (!row) throw notFound(`Tune-file patch ${id}`);
      // Kept bakes would lose the patch at the next rebake; expired previews do not count.
      const bakes = await tx
        .select({ id: bakedTuneFiles.id, vehicleId: bakedTuneFiles.vehicleId })
        .from(bakedTuneFiles)
        .where(
          and(
            sql`${bakedTuneFiles.patchIds} @> ARRAY[${id}]::uuid[]`,
            or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date())),
          ),
        )
        .limit(20);
      if (bakes.length)
        throw referencedConflict(
          `Patch "${row.title}"`,
          bakes.map((b) => ({ resource: "baked tune file", id: b.id, label: `for vehicle ${b.vehicleId}` })),
        );
      await tx.delete(tuneFilePatches).where(eq(tuneFilePatches.id, id));
      await writeAudit(tx, actorFrom(request), {
        action: "tune-file-patch.deleted",
        targetType: "tune-file-patch",
        targetId: id,
        before: patchAudited(row),
      });
    });
    return reply.status(204).send();
  });

  app.get(
    `/${apiRoutes.tuneFilePatches.compatible(":id")}`,
    { config: dealer, schema: { params: idParams, response: { 200: patchCompatibilitySchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { id } = request.params;
      const [row] = await db.select().from(tuneFilePatches).where(eq(tuneFilePatches.id, id));
      if (!row) throw notFound(`Tune-file patch ${id}`);
      const patch = patchOf(row);
      const firmware = [];
      for (const firmwareId of row.firmwareIds) {
        const record = await firmwareRecord(db, firmwareId).catch(() => null);
        firmware.push({
          firmwareId,
          known: record !== null,
          stockState: record?.stockSha256 ? patchState(await readImage(ctx, record.stockSha256), patch).state : null,
        });
      }
      const tunes = await db
        .select()
        .from(tuneFiles)
        .where(
          and(
            inArray(tuneFiles.firmwareId, row.firmwareIds),
            isAdmin(caller) ? undefined : eq(tuneFiles.dealerUid, caller.uid),
          ),
        )
        .orderBy(tuneFiles.title)
        .limit(100);
      const tuneStates = [];
      for (const tune of tunes) {
        const version = await versionRow(db, tune.id, tune.currentVersion);
        tuneStates.push({
          id: tune.id,
          title: tune.title,
          firmwareId: tune.firmwareId,
          version: version.number,
          state: patchState(await readImage(ctx, version.sha256), patch).state,
        });
      }
      return { firmware, tuneFiles: tuneStates };
    },
  );

  /**
   * Applies patches to an uploaded image and answers the result with its
   * checksum report. Tools that send `Accept: application/octet-stream` get
   * the bytes, with the report in `x-tune-report` (URI-encoded JSON); the
   * image's SHA-256 comes only when asked for (RFC 9530: `Want-Repr-Digest:
   * sha-256=1` answered by the trailer `Repr-Digest`), because hashing 8 MiB
   * takes a fifth of the request and the caller holds the bytes it was sent.
   * The browser gets one JSON answer with the image as base64 and its
   * `sha256`, written by hand because JSON.stringify would scan the 11 MB
   * string for characters to escape that base64 never has. An image whose
   * checksums already fail is refused unless fixChecksums=true: patching must
   * not hide a bad read.
   */
  app.post(`/${apiRoutes.tuneFilePatches.apply()}`, { config: dealer }, async (request, reply) =>
    withBufferedUpload(request, reply, ctx, async (upload) => {
      const { flags } = fieldsOf(z.strictObject({ patchIds: z.string().optional() }), upload.fields, ["fixChecksums"]);
      const patchIds = patchIdsField(upload.fields.patchIds);
      if (patchIds.length === 0)
        throw new RequestValidationError("body", [{ path: "patchIds", message: "choose at least one patch" }]);
      const image = requireFile(upload).bytes;
      const record = requireIdentified(await ctx.catalogue.identify(image));
      if (!flags.fixChecksums) refuseFailingChecksums(image, record);
      const patches = await ctx.catalogue.patches(patchIds);
      const outcome = await applyPatches(image, patches, {
        firmwareId: record.firmwareId,
        checksums: record.checksums,
        inPlace: true,
      });
      const fix = outcome.checksums!;
      const report = {
        firmwareId: record.firmwareId,
        size: outcome.image.length,
        patches: outcome.patches,
        fixed: fix.fixed,
        checksums: fix.results.map(({ name, type, valid, stored, computed }) => ({
          name,
          type,
          valid,
          stored,
          computed,
        })),
      };
      const bytes = Buffer.from(outcome.image.buffer, outcome.image.byteOffset, outcome.image.byteLength);
      if (request.headers.accept?.includes("application/octet-stream")) {
        reply
          .header("content-type", "application/octet-stream")
          .header("content-disposition", `attachment; filename="${record.firmwareId}-patched.bin"`)
          .header("x-tune-report", encodeURIComponent(JSON.stringify(report)));
        if (wantsSha256(request.headers))
          reply.trailer("repr-digest", (_reply, _payload, done) => done(null, reprDigestOf(outcome.image)));
        return reply.send(bytes);
      }
      const json = JSON.stringify({ ...report, sha256: sha256Of(outcome.image) });
      return reply.type("application/json").send(`${json.slice(0, -1)},"image":"${bytes.toString("base64")}"}`);
    }),
  );

  /**
   * A definition file (TunerPro XDF in XML or 1.x text, RomRaider or EcuFlash
   * XML: told apart by content) → the definition, its checksum schemes and
   * its patches, with what was skipped and why, and on a dry run a few maps
   * read from the stock file; stored only without dryRun: the patches chosen
   * by `patchIndexes` (all by default) and, with saveDefinition, the
   * definition (replacing the record's) and the checksum schemes chosen by
   * `checksumNames` that verify on the stock file (one whose name the record
   * already has is kept as it is). The path keeps its first name.
   */
  app.post(
    `/${apiRoutes.tuneFilePatches.importDefinition()}`,
    { config: admin, schema: { body: xdfImportSchema, response: { 200: xdfImportedSchema, 201: xdfStoredSchema } } },
    async (request, reply) => {
      const answer = await runDefinitionImport(ctx, request.body, actorFrom(request));
      return "saved" in answer ? reply.status(201).send(answer) : answer;
    },
  );
}
