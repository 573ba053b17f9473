/**
 * Data logs: upload and parse, list, read, change, delete, the original file (with range
 * requests), the columnar form the chart loads, and the computed channels the analysis view
 * offers. Share links are in data-log-shares.ts; who sees a log and where its files live in
 * services/data-logs.ts.
 */
import { rm } from "node:fs/promises";
import { eq, or, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  type DataLogDetail,
  type DynoProfile,
  dataLogDetailSchema,
  dataLogPageSchema,
  dataLogPatchSchema,
  type LogComputedDescriptor,
  logComputedDescriptorsSchema,
} from "../../contracts/data-logs";
import type { LogChannel } from "../../domain/logs";
import type { AppContext } from "../context";
import type { Db } from "../db/connection";
import { computedDescriptors, dataLogs, userVehicles } from "../db/schema";
import { badRequest, fieldIssues, HttpError, notFound, RequestValidationError } from "../errors";
import { callerOf } from "../http/auth";
import { sendFile } from "../http/byte-ranges";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { requireFile, withUpload } from "../http/uploads";
import type { ZodTypeProvider } from "../http/zod";
import { auditChangeTo, changedFields } from "../services/audit";
import {
  apiChannel,
  type LogRow,
  lockHash,
  ownedLog,
  readableLog,
  summaryOf,
  vehicleOf,
  visibleTo,
} from "../services/data-logs";
import { parseLogFile } from "../services/log-parse";

const DATA_LOGS = `/${apiPaths["data-logs"].list}`;

const idParams = z.strictObject({ id: z.uuid("id must be a UUID") });
const uploadFieldsSchema = z.strictObject({
  title: z.string().trim().min(1).max(200).optional(),
  vehicleId: z.uuid().optional(),
});

/** More than a picker can usefully list; the catalogue holds a few dozen. */
const COMPUTED_DESCRIPTORS_SHOWN = 500;

const listSpec: ListSpec = {
  table: dataLogs,
  id: dataLogs.id,
  allowed: {
    sort: ["createdAt", "title", "durationSeconds", "rowCount", "fileSize"],
    // ownerUid: an admin reads one user's logs (the user's page); anyone else sees only their own anyway.
    filter: ["vehicleId", "format", "createdAt", "tags", "ownerUid"],
  },
  fields: {
    vehicleId: { column: dataLogs.vehicleId, kind: "uuid" },
    ownerUid: { column: dataLogs.ownerUid, kind: "text" },
    format: { column: dataLogs.format, kind: "text" },
    createdAt: { column: dataLogs.createdAt, kind: "timestamp" },
    tags: { column: dataLogs.tags, kind: "array" },
    title: { column: dataLogs.title, kind: "text" },
    durationSeconds: { column: dataLogs.durationSeconds, kind: "number" },
    rowCount: { column: dataLogs.rowCount, kind: "number" },
    fileSize: { column: dataLogs.fileSize, kind: "number" },
  },
  // The same expression as the trigram index in the schema.
  search: sql`(${dataLogs.title} || ' ' || ${dataLogs.fileName} || ' ' || ${dataLogs.notes})`,
  defaultSort: [{ field: "createdAt", order: "desc" }],
};

export async function dataLogRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const blobs = ctx.dataLogBlobs;

  async function detailOf(row: LogRow): Promise<DataLogDetail> {
    let dynoProfile = row.dynoProfile as DynoProfile | null;
    if (row.vehicleId)
      dynoProfile = (await vehicleOf(ctx.db, row.ownerUid, row.vehicleId)).dynoProfile as DynoProfile | null;
    const { channelCount: _count, ...summary } = summaryOf(row);
    return {
      ...summary,
      notes: row.notes,
      meta: row.meta,
      channels: (row.channels as LogChannel[]).map(apiChannel),
      warnings: row.warnings,
      dynoProfile,
    };
  }

  /** Removes the hashes no data log refers to any more; the caller holds their advisory locks. */
  async function removeUnreferenced(tx: Db, hashes: string[]) {
    for (const sha256 of hashes) {
      const [{ n }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(dataLogs)
        .where(or(eq(dataLogs.fileSha256, sha256), eq(dataLogs.columnsSha256, sha256)));
      if (n === 0) await rm(blobs.pathOf(sha256), { force: true });
    }
  }

  app.post(DATA_LOGS, { schema: { response: { 201: dataLogDetailSchema } } }, async (request, reply) => {
    const caller = callerOf(request);
    const created = await withUpload(
      request,
      ctx,
      async (upload) => {
        const file = requireFile(upload);
        if (file.field !== "file") throw badRequest("No file", 'Attach the log as the "file" field');
        const fields = uploadFieldsSchema.safeParse(upload.fields);
        if (!fields.success) throw new RequestValidationError("body", fieldIssues(fields.error));
        if (fields.data.vehicleId) await vehicleOf(ctx.db, caller.uid, fields.data.vehicleId);

        const columnsPath = `${file.path}.columns`;
        try {
          const outcome = await parseLogFile({ inputPath: file.path, columnsPath });
          if (!outcome.ok) {
            throw new HttpError(422, "The log could not be read", outcome.message, {
              code: outcome.code,
              line: outcome.line ?? null,
            });
          }
          const { summary } = outcome;
          return await ctx.db.transaction(async (tx) => {
            await lockHash(tx, file.sha256);
            await lockHash(tx, outcome.columnsSha256);
            const [row] = await tx
              .insert(dataLogs)
              .values({
                ownerUid: caller.uid,
                vehicleId: fields.data.vehicleId ?? null,
                title: fields.data.title ?? (file.filename.replace(/\.[^.]+$/, "") || "Data log"),
                format: summary.format,
                rowCount: summary.rowCount,
                durationSeconds: summary.durationSeconds,
                startedAt: summary.meta.startedAt ?? null,
                meta: summary.meta as unknown as Record<string, unknown>,
                channels: summary.channels,
                warnings: summary.warnings,
                fileName: file.filename,
                fileSize: file.size,
                fileSha256: file.sha256,
                columnsSha256: outcome.columnsSha256,
                columnsSize: outcome.columnsSize,
              })
              .returning();
            // Moved in last, inside the transaction: if a move fails the row rolls back with it.
            await blobs.adopt(file.path, file.sha256);
            await blobs.adopt(columnsPath, outcome.columnsSha256);
            return row;
          });
        } finally {
          await rm(columnsPath, { force: true });
        }
      },
      { limitBytes: ctx.config.logUploadLimitBytes },
    );
    return reply.status(201).send(await detailOf(created));
  });

  app.get(
    DATA_LOGS,
    { config: { list: listSpec }, schema: { response: { 200: dataLogPageSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const query = listQueryOf(request, listSpec);
      const page = await runList(
        ctx.db,
        listSpec,
        query,
        ({ where, orderBy, limit, offset }) =>
          ctx.db
            .select()
            .from(dataLogs)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .offset(offset),
        visibleTo(caller),
      );
      return { ...page, data: page.data.map(summaryOf) };
    },
  );

  // Read-only for every signed-in user (the catalogue's own endpoint is admin-only): the analysis view's computed channels.
  app.get(
    `/${apiRoutes.dataLogs.computedDescriptors()}`,
    { schema: { response: { 200: logComputedDescriptorsSchema } } },
    async () => {
      const rows = await ctx.db
        .select({
          id: computedDescriptors.id,
          name: computedDescriptors.name,
          unit: computedDescriptors.unit,
          expression: computedDescriptors.expression,
          decimals: computedDescriptors.decimals,
          variables: computedDescriptors.variables,
        })
        .from(computedDescriptors)
        .orderBy(computedDescriptors.name, computedDescriptors.id)
        .limit(COMPUTED_DESCRIPTORS_SHOWN);
      const data: LogComputedDescriptor[] = rows;
      return { data, total: data.length };
    },
  );

  app.get(
    `${DATA_LOGS}/:id`,
    { schema: { params: idParams, response: { 200: dataLogDetailSchema } } },
    async (request): Promise<DataLogDetail> => {
      const { id } = request.params;
      return detailOf(await readableLog(ctx.db, callerOf(request), id));
    },
  );

  app.patch(
    `${DATA_LOGS}/:id`,
    { schema: { params: idParams, body: dataLogPatchSchema, response: { 200: dataLogDetailSchema } } },
    async (request): Promise<DataLogDetail> => {
      const { id } = request.params;
      const patch = request.body;
      const row = await ownedLog(ctx.db, callerOf(request), id);
      const vehicleId = patch.vehicleId === undefined ? row.vehicleId : patch.vehicleId;
      if (patch.vehicleId) await vehicleOf(ctx.db, row.ownerUid, patch.vehicleId);
      await ctx.db.transaction(async (tx) => {
        const profileOnVehicle = patch.dynoProfile !== undefined && vehicleId !== null;
        if (profileOnVehicle) {
          await tx
            .update(userVehicles)
            .set({ dynoProfile: patch.dynoProfile, updatedAt: new Date() })
            .where(eq(userVehicles.id, vehicleId));
        }
        await tx
          .update(dataLogs)
          .set({
            ...(patch.title !== undefined && { title: patch.title }),
            ...(patch.notes !== undefined && { notes: patch.notes }),
            ...(patch.tags !== undefined && { tags: [...new Set(patch.tags)] }),
            ...(patch.vehicleId !== undefined && { vehicleId: patch.vehicleId }),
            ...(patch.dynoProfile !== undefined && !profileOnVehicle && { dynoProfile: patch.dynoProfile }),
            updatedAt: new Date(),
          })
          .where(eq(dataLogs.id, id));
        const fields = Object.keys(patch) as (keyof typeof patch)[];
        const after = { ...patch, ...(patch.tags !== undefined && { tags: [...new Set(patch.tags)] }) };
        await auditChangeTo(tx, request, row.ownerUid, {
          action: "data-log.updated",
          targetType: "data-log",
          targetId: id,
          ...changedFields(Object.fromEntries(fields.map((field) => [field, row[field]])), after),
        });
      });
      return detailOf(await ownedLog(ctx.db, callerOf(request), id));
    },
  );

  app.delete(`${DATA_LOGS}/:id`, { schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params;
    const row = await ownedLog(ctx.db, callerOf(request), id);
    await ctx.db.transaction(async (tx) => {
      await lockHash(tx, row.fileSha256);
      await lockHash(tx, row.columnsSha256);
      const deleted = await tx.delete(dataLogs).where(eq(dataLogs.id, id)).returning({ id: dataLogs.id });
      if (deleted.length === 0) throw notFound(`Data log ${id}`);
      await auditChangeTo(tx, request, row.ownerUid, {
        action: "data-log.deleted",
        targetType: "data-log",
        targetId: id,
        before: { title: row.title, fileName: row.fileName, vehicleId: row.vehicleId, fileSha256: row.fileSha256 },
      });
      await removeUnreferenced(tx, [row.fileSha256, row.columnsSha256]);
    });
    return reply.status(204).send();
  });

  app.get(`${DATA_LOGS}/:id/blob`, { schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params;
    const row = await readableLog(ctx.db, callerOf(request), id);
    reply.header("content-disposition", `attachment; filename="${row.fileName.replace(/["\\\r\n]/g, "_")}"`);
    return sendFile(request, reply, blobs.pathOf(row.fileSha256), row.fileSize, "application/octet-stream");
  });

  app.get(`/${apiRoutes.dataLogs.columns(":id")}`, { schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params;
    const row = await readableLog(ctx.db, callerOf(request), id);
    return sendFile(request, reply, blobs.pathOf(row.columnsSha256), row.columnsSize, "application/octet-stream");
  });
}
