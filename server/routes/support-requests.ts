/**
 * Support requests: a signed-in user asks for a vehicle the
 * catalogue does not cover (`POST /user-vehicles/support-request`, JSON, or
 * multipart with the ECU read as `file`) and follows their own requests
 * (`GET …/mine`, `GET …/mine/{id}`: status, firmware once supported, and each
 * change of status with the note the admin gave with it, which is what the
 * requester's notification carried; notes given without a change are the
 * admins' own and never shown there). Admins work the queue under the same
 * path: `GET /user-vehicles/support-request` (list), `GET …/{id}`,
 * `PATCH …/{id}` (status, a note, the firmware it was supported with) and
 * `GET …/{id}/read-file`.
 *
 * The paths keep their `/user-vehicles/support-request` prefix because the
 * app and the phone app call them; on the server the entity is "support
 * requests" throughout.
 */

import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  ownSupportRequestList,
  ownSupportRequestPageSchema,
  ownSupportRequestSchema,
  supportRequestInputSchema,
  supportRequestList,
  supportRequestPageSchema,
  supportRequestSchema,
  supportRequestUpdateSchema,
} from "../../contracts/firmware-support";
import type { AppContext } from "../context";
import { supportRequests } from "../db/schema";
import { fieldIssues, RequestValidationError } from "../errors";
import { callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { bytesAnswer, multipartBody } from "../http/media";
import { type Upload, withUpload } from "../http/uploads";
import type { ZodTypeProvider } from "../http/zod";
import { actorFrom } from "../services/audit";
import {
  createSupportRequest,
  ownSupportRequest,
  ownSupportRequestPage,
  supportRequest,
  supportRequestPage,
  supportRequestReadFile,
  updateSupportRequest,
} from "../services/support-requests";

/** The admin's list; a requester's own are under `mine` (the app's "support-requests" resource). */
const SUPPORT_REQUESTS = `/${apiPaths["support-requests"].list}`;
const MINE = `/${apiRoutes.supportRequests.mine()}`;
const admin = { role: "admin" as const };

const supportRequestListSpec: ListSpec = {
  table: supportRequests,
  id: supportRequests.id,
  allowed: supportRequestList,
  fields: {
    status: { column: supportRequests.status, kind: "text" },
    make: { column: supportRequests.make, kind: "text" },
    model: { column: supportRequests.model, kind: "text" },
    vin: { column: supportRequests.vin, kind: "text" },
    year: { column: supportRequests.year, kind: "number" },
    firmwareId: { column: supportRequests.firmwareId, kind: "text" },
    createdAt: { column: supportRequests.createdAt, kind: "timestamp" },
  },
  search: sql`(${supportRequests.vin} || ' ' || ${supportRequests.make} || ' ' || ${supportRequests.model})`,
  defaultSort: [{ field: "createdAt", order: "desc" }],
};

/** A requester's own requests: scoped to them by the service, newest first. */
const ownSupportRequestListSpec: ListSpec = {
  table: supportRequests,
  id: supportRequests.id,
  allowed: ownSupportRequestList,
  fields: {
    status: { column: supportRequests.status, kind: "text" },
    createdAt: { column: supportRequests.createdAt, kind: "timestamp" },
  },
  defaultSort: [{ field: "createdAt", order: "desc" }],
};

/** Multipart fields are strings: `ecuIds` comes as JSON (the data provider's encoding) or comma separated. */
function fieldsAsInput(fields: Record<string, string>): unknown {
  const { year, ecuIds, ...rest } = fields;
  let ids: unknown = ecuIds;
  if (ecuIds !== undefined) {
    try {
      ids = JSON.parse(ecuIds);
    } catch {
      ids = ecuIds
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean);
    }
  }
  return { ...rest, ...(year !== undefined && { year: Number(year) }), ...(ids !== undefined && { ecuIds: ids }) };
}

function supportRequestInput(body: unknown) {
  const result = supportRequestInputSchema.safeParse(body);
  if (!result.success) throw new RequestValidationError("body", fieldIssues(result.error));
  return result.data;
}

/** A requester asks, and follows their own requests. */
function registerRequesterRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const create = (request: FastifyRequest, body: unknown, upload?: Upload) =>
    createSupportRequest(ctx, callerOf(request), supportRequestInput(body), upload?.file ?? null);

  // Any signed-in user; the body is checked here because it may arrive as multipart.
  const supportForm = multipartBody({ file: "The ECU read" }, { required: [], orJson: true });
  app.post(
    SUPPORT_REQUESTS,
    { config: { media: supportForm }, schema: { response: { 201: supportRequestSchema } } },
    async (request, reply) => {
      const created = request.isMultipart()
        ? await withUpload(request, ctx, (upload) => create(request, fieldsAsInput(upload.fields), upload))
        : await create(request, request.body);
      return reply.status(201).send(created);
    },
  );

  // Static paths: find-my-way matches them before the admins' `${SUPPORT_REQUESTS}/:id`, so "mine" is never taken for an id.
  app.get(
    MINE,
    { config: { list: ownSupportRequestListSpec }, schema: { response: { 200: ownSupportRequestPageSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const query = listQueryOf(request, ownSupportRequestListSpec);
      return ownSupportRequestPage(ctx.db, caller.uid, (select, scope) =>
        runList(ctx.db, ownSupportRequestListSpec, query, select, scope),
      );
    },
  );

  // Another user's request answers 404 like one that does not exist, so ids reveal nothing.
  app.get(
    `${MINE}/:id`,
    { schema: { params: idParams, response: { 200: ownSupportRequestSchema } } },
    async (request) => ownSupportRequest(ctx.db, callerOf(request).uid, request.params.id),
  );
}

/** Admins work the queue. */
function registerAdminRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.get(
    SUPPORT_REQUESTS,
    { config: { ...admin, list: supportRequestListSpec }, schema: { response: { 200: supportRequestPageSchema } } },
    async (request) => {
      const query = listQueryOf(request, supportRequestListSpec);
      return supportRequestPage(ctx.db, (select, scope) =>
        runList(ctx.db, supportRequestListSpec, query, select, scope),
      );
    },
  );

  app.get(
    `${SUPPORT_REQUESTS}/:id`,
    { config: admin, schema: { params: idParams, response: { 200: supportRequestSchema } } },
    async (request) => supportRequest(ctx.db, request.params.id),
  );

  app.patch(
    `${SUPPORT_REQUESTS}/:id`,
    {
      config: admin,
      schema: { params: idParams, body: supportRequestUpdateSchema, response: { 200: supportRequestSchema } },
    },
    async (request) =>
      updateSupportRequest(ctx, actorFrom(request), callerOf(request), request.params.id, request.body),
  );

  app.get(
    `${SUPPORT_REQUESTS}/:id/read-file`,
    { config: { ...admin, media: bytesAnswer() }, schema: { params: idParams } },
    async (request, reply) => {
      const file = await supportRequestReadFile(ctx.db, request.params.id);
      const body = await ctx.blobs.stream(file.sha256);
      return reply
        .header("content-type", "application/octet-stream")
        .header("content-disposition", `attachment; filename="${file.vin}-read.bin"`)
        .send(body);
    },
  );
}

export async function supportRequestRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerRequesterRoutes(plugin, ctx);
  registerAdminRoutes(plugin, ctx);
}
