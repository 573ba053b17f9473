/**
 * Data logs: upload and parse, list, read, change, delete, the original file (with range
 * requests), the columnar form the chart loads, and the computed channels the analysis view
 * offers. Share links are in data-log-shares.ts; what is done to a log, who sees it
 * and where its files live in services/data-logs.ts.
 */

import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  dataLogDetailSchema,
  dataLogPageSchema,
  dataLogPatchSchema,
  logComputedDescriptorsSchema,
} from "../../contracts/data-logs";
import type { AppContext } from "../context";
import { dataLogs } from "../db/schema";
import { badRequest, fieldIssues, RequestValidationError } from "../errors";
import { callerOf } from "../http/auth";
import { sendBlob } from "../http/byte-ranges";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { bytesAnswer, multipartBody } from "../http/media";
import { type UploadedFile, withUploads } from "../http/uploads";
import type { ZodTypeProvider } from "../http/zod";
import {
  dataLogDetail,
  dataLogPage,
  deleteDataLog,
  importDataLog,
  logComputedDescriptors,
  readableLog,
  readDataLog,
  updateDataLog,
} from "../services/data-logs";

const DATA_LOGS = `/${apiPaths["data-logs"].list}`;

const idParams = z.strictObject({ id: z.uuid("id must be a UUID") });
const uploadFieldsSchema = z.strictObject({
  title: z.string().trim().min(1).max(200).optional(),
  vehicleId: z.uuid().optional(),
});

/** Files a log is sent with: Emerald's .lg1 needs its .lg2 channel list. */
const MAX_COMPANIONS = 1;

/** The log ("file") and the files it needs beside it ("companion"); anything else is a 400 naming the field. */
function logFilesOf(files: UploadedFile[]): { file: UploadedFile; companions: UploadedFile[] } {
  const stray = files.find((f) => f.field !== "file" && f.field !== "companion");
  if (stray) {
    throw badRequest("Unexpected file", `Attach the log as the "file" field and a file it needs as "companion"`, [
      { path: stray.field, message: 'expected "file" or "companion"' },
    ]);
  }
  const logs = files.filter((f) => f.field === "file");
  if (logs.length !== 1) throw badRequest("No file", 'Attach the log as the "file" field');
  return { file: logs[0], companions: files.filter((f) => f.field === "companion") };
}

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

/** Uploading a log, listing logs, and the computed channels the analysis view offers. */
function registerCollectionRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  const logForm = multipartBody(
    { file: "The log", companion: "A file the log needs (its definition or a second part), up to the limit" },
    { fields: uploadFieldsSchema, required: ["file"] },
  );
  const logUpload = { config: { media: logForm }, schema: { response: { 201: dataLogDetailSchema } } };
  app.post(DATA_LOGS, logUpload, async (request, reply) => {
    const caller = callerOf(request);
    const created = await withUploads(
      request,
      ctx,
      async (upload) => {
        const { file, companions } = logFilesOf(upload.files);
        const fields = uploadFieldsSchema.safeParse(upload.fields);
        if (!fields.success) throw new RequestValidationError("body", fieldIssues(fields.error));
        return importDataLog(ctx, caller, file, fields.data, companions);
      },
      { limitBytes: ctx.config.logUploadLimitBytes, maxFiles: 1 + MAX_COMPANIONS },
    );
    return reply.status(201).send(await dataLogDetail(ctx.db, created));
  });

  app.get(
    DATA_LOGS,
    { config: { list: listSpec }, schema: { response: { 200: dataLogPageSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const query = listQueryOf(request, listSpec);
      return dataLogPage(ctx.db, caller, (select, scope) => runList(ctx.db, listSpec, query, select, scope));
    },
  );

  // Read-only for every signed-in user (the catalogue's own endpoint is admin-only): the analysis view's computed channels.
  app.get(
    `/${apiRoutes.dataLogs.computedDescriptors()}`,
    { schema: { response: { 200: logComputedDescriptorsSchema } } },
    async () => logComputedDescriptors(ctx.db),
  );
}

/** One log: read, change, delete, its original file (with range requests) and its columnar form. */
function registerRecordRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const blobs = ctx.dataLogBlobs;

  app.get(
    `${DATA_LOGS}/:id`,
    { schema: { params: idParams, response: { 200: dataLogDetailSchema } } },
    async (request) => readDataLog(ctx.db, callerOf(request), request.params.id),
  );

  app.patch(
    `${DATA_LOGS}/:id`,
    { schema: { params: idParams, body: dataLogPatchSchema, response: { 200: dataLogDetailSchema } } },
    async (request) => updateDataLog(ctx.db, request, callerOf(request), request.params.id, request.body),
  );

  app.delete(`${DATA_LOGS}/:id`, { schema: { params: idParams } }, async (request, reply) => {
    await deleteDataLog(ctx, request, callerOf(request), request.params.id);
    return reply.status(204).send();
  });

  app.get(
    `${DATA_LOGS}/:id/blob`,
    { config: { media: bytesAnswer({ ranges: true }) }, schema: { params: idParams } },
    async (request, reply) => {
      const row = await readableLog(ctx.db, callerOf(request), request.params.id);
      const { fileSha256: sha256, fileSize: size, fileName: filename } = row;
      return sendBlob(request, reply, blobs, { sha256, size, filename });
    },
  );

  const columns = { media: bytesAnswer({ ranges: true, attachment: false }) };
  app.get(
    `/${apiRoutes.dataLogs.columns(":id")}`,
    { config: columns, schema: { params: idParams } },
    async (request, reply) => {
      const row = await readableLog(ctx.db, callerOf(request), request.params.id);
      const { columnsSha256: sha256, columnsSize: size } = row;
      return sendBlob(request, reply, blobs, { sha256, size });
    },
  );
}

export async function dataLogRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerCollectionRoutes(plugin, ctx);
  registerRecordRoutes(plugin, ctx);
}
