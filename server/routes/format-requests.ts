/**
 * Format requests (contracts/format-requests.ts): the uploader of a log refused for its format
 * asks, with consent to the file being kept, for the format to be read; admins list the requests,
 * download the kept file and close a request as supported or declined. What is kept and when it
 * is deleted is in services/format-requests.ts.
 */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  formatRequestClosingSchema,
  formatRequestFieldsSchema,
  formatRequestList,
  formatRequestPageSchema,
  formatRequestSchema,
} from "../../contracts/format-requests";
import type { AppContext } from "../context";
import { formatRequests } from "../db/schema";
import { badRequest } from "../errors";
import { callerOf } from "../http/auth";
import { sendBlob } from "../http/byte-ranges";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { bytesAnswer, multipartBody } from "../http/media";
import { fieldsOf } from "../http/multipart-fields";
import { withUploads } from "../http/uploads";
import type { ZodTypeProvider } from "../http/zod";
import { actorFrom } from "../services/audit";
import {
  closeFormatRequest,
  createFormatRequest,
  formatRequestFile,
  formatRequestPage,
} from "../services/format-requests";

const FORMAT_REQUESTS = `/${apiPaths["format-requests"].list}`;
const idParams = z.strictObject({ id: z.uuid("id must be a UUID") });

const listSpec: ListSpec = {
  table: formatRequests,
  id: formatRequests.id,
  allowed: formatRequestList,
  fields: {
    state: { column: formatRequests.state, kind: "text" },
    ownerUid: { column: formatRequests.ownerUid, kind: "text" },
    createdAt: { column: formatRequests.createdAt, kind: "timestamp" },
    closedAt: { column: formatRequests.closedAt, kind: "timestamp" },
  },
  defaultSort: [{ field: "createdAt", order: "desc" }],
};

export async function formatRequestRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  /** The uploader asks for the refused log's format, with consent to keeping the file. */
  const requestForm = multipartBody({ file: "A log in the format asked for" }, { fields: formatRequestFieldsSchema });
  const requestUpload = { config: { media: requestForm }, schema: { response: { 201: formatRequestSchema } } };
  app.post(FORMAT_REQUESTS, requestUpload, async (request, reply) => {
    const caller = callerOf(request);
    const created = await withUploads(
      request,
      ctx,
      async ({ files, fields }) => {
        // Fields first: without consent the request is refused before the file is parsed or kept.
        const { input } = fieldsOf(formatRequestFieldsSchema, fields);
        const file = files.find((f) => f.field === "file");
        if (!file || files.length !== 1)
          throw badRequest("No file", 'Attach the refused log, and only it, as the "file" field', [
            { path: "file", message: "attach the refused log" },
          ]);
        return createFormatRequest(ctx, actorFrom(request), caller, file, input);
      },
      { limitBytes: ctx.config.logUploadLimitBytes, maxFiles: 1 },
    );
    return reply.status(201).send(created);
  });

  /** Admins: every request (`state[eq]=open` is the queue); anyone else: their own. */
  app.get(
    FORMAT_REQUESTS,
    { config: { list: listSpec }, schema: { response: { 200: formatRequestPageSchema } } },
    async (request) => {
      const query = listQueryOf(request, listSpec);
      return formatRequestPage(ctx.db, callerOf(request), (select, scope) =>
        runList(ctx.db, listSpec, query, select, scope),
      );
    },
  );

  /** Admins: an open request's kept file, as an attachment (it is a file we could not read, never shown inline). */
  app.get(
    `/${apiRoutes.formatRequests.file(":id")}`,
    { config: { role: "admin", media: bytesAnswer({ ranges: true }) }, schema: { params: idParams } },
    async (request, reply) => {
      const file = await formatRequestFile(ctx.db, request.params.id);
      const { sha256, size, name: filename } = file;
      return sendBlob(request, reply, ctx.dataLogBlobs, { sha256, size, filename });
    },
  );

  /** Admins: close as supported (the uploader is offered the upload again) or declined; the file is deleted. */
  app.post(
    `/${apiRoutes.formatRequests.close(":id")}`,
    {
      config: { role: "admin" },
      schema: { params: idParams, body: formatRequestClosingSchema, response: { 200: formatRequestSchema } },
    },
    async (request) => closeFormatRequest(ctx, actorFrom(request), request.params.id, request.body),
  );
}
