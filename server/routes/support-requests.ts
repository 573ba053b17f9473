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

import { and, eq, getTableColumns, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { apiPaths } from "../../contracts/api-paths";
import {
  type OwnSupportRequest,
  ownSupportRequestList,
  ownSupportRequestPageSchema,
  ownSupportRequestSchema,
  type SupportRequest,
  type SupportRequestStatus,
  supportRequestInputSchema,
  supportRequestList,
  supportRequestPageSchema,
  supportRequestSchema,
  supportRequestUpdateSchema,
} from "../../contracts/catalogue";
import type { AppContext } from "../context";
import { supportRequests, users } from "../db/schema";
import { fieldIssues, HttpError, notFound, RequestValidationError } from "../errors";
import { callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { type Upload, withUpload } from "../http/uploads";
import type { ZodTypeProvider } from "../http/zod";
import { actorFrom, changedFields, writeAudit } from "../services/audit";
import { lockFirmwareIds } from "../services/catalogue";
import type { NotificationInput } from "../services/notifications";

/** The admin's list; a requester's own are under `mine` (the app's "support-requests" resource). */
const SUPPORT_REQUESTS = `/${apiPaths["onboarding-vehicles"].list}`;
const MINE = `/${apiPaths["support-requests"].list}`;
const admin = { role: "admin" as const };

/**
 * Forward only: a request is worked (new → investigating) and closed
 * (supported or rejected); a closed one stays closed, so two admins acting at
 * once cannot reopen each other's decision.
 */
const NEXT: Record<SupportRequestStatus, readonly SupportRequestStatus[]> = {
  new: ["investigating", "supported", "rejected"],
  investigating: ["supported", "rejected"],
  supported: [],
  rejected: [],
};

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

/** A requester's own requests: scoped to them by the route, newest first. */
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

type SupportRequestRow = typeof supportRequests.$inferSelect & { requesterEmail: string | null };

/** The fields admins and the requester both see. */
const requestBase = (row: typeof supportRequests.$inferSelect) => ({
  id: row.id,
  vin: row.vin,
  make: row.make,
  model: row.model,
  year: row.year,
  ecuIds: row.ecuIds,
  readFile: row.readFileSha256 ? { sha256: row.readFileSha256, size: row.readFileSize! } : null,
  status: row.status,
  firmwareId: row.firmwareId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const supportRequestToApi = (row: SupportRequestRow): SupportRequest => ({
  ...requestBase(row),
  requesterUid: row.requesterUid,
  requesterEmail: row.requesterEmail,
  notes: row.notes,
});

const ownSupportRequestToApi = (row: typeof supportRequests.$inferSelect): OwnSupportRequest => ({
  ...requestBase(row),
  // An admin may note a candidate firmware while investigating; the requester learns it only once it is the answer.
  firmwareId: row.status === "supported" ? row.firmwareId : null,
  history: row.history,
});

const withRequester = { ...getTableColumns(supportRequests), requesterEmail: users.email };

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

/** What the requester is told when an admin moves their request on; `note` is the admin's note given with that change. */
function supportRequestNotification(
  request: typeof supportRequests.$inferSelect,
  note: string | undefined,
): NotificationInput {
  const vehicle = `${request.make} ${request.model} (${request.year}, VIN ${request.vin})`;
  const base = { recipientUid: request.requesterUid };
  switch (request.status) {
    case "investigating":
      return {
        ...base,
        kind: "support-request.investigating",
        title: `We are looking into your ${request.make} ${request.model}`,
        body: `An administrator is working on support for your ${vehicle}.${note ? ` Note: ${note}` : ""}`,
        link: `/vehicle-support/show/${request.id}`,
      };
    case "supported":
      return {
        ...base,
        kind: "support-request.supported",
        title: `Your ${request.make} ${request.model} is supported`,
        body: `Your ${vehicle} is now supported with firmware ${request.firmwareId}. Tunes for it can be bought and flashed from the app.${note ? ` Note: ${note}` : ""}`,
        link: "/my-tunes",
      };
    case "rejected":
      return {
        ...base,
        kind: "support-request.rejected",
        title: `Your ${request.make} ${request.model} cannot be supported`,
        body: `We cannot support your ${vehicle}. ${note ? `Reason: ${note}` : "No reason was given; contact us to ask."}`,
        link: "/contact-us",
      };
    case "new":
      throw new Error("a request never returns to new");
  }
}

export async function supportRequestRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  async function createSupportRequest(request: FastifyRequest, body: unknown, upload?: Upload) {
    const caller = callerOf(request);
    const input = supportRequestInput(body);
    const file = upload?.file ?? null;
    if (file) await ctx.blobs.adopt(file.path, file.sha256);
    const [row] = await ctx.db
      .insert(supportRequests)
      .values({
        ...input,
        requesterUid: caller.uid,
        readFileSha256: file?.sha256 ?? null,
        readFileSize: file?.size ?? null,
      })
      .returning();
    return supportRequestToApi({ ...row, requesterEmail: caller.email ?? null });
  }

  // Any signed-in user; the body is checked here because it may arrive as multipart.
  app.post(SUPPORT_REQUESTS, { schema: { response: { 201: supportRequestSchema } } }, async (request, reply) => {
    const created = request.isMultipart()
      ? await withUpload(request, ctx, (upload) => createSupportRequest(request, fieldsAsInput(upload.fields), upload))
      : await createSupportRequest(request, request.body);
    return reply.status(201).send(created);
  });

  // Static paths: find-my-way matches them before the admins' `${SUPPORT_REQUESTS}/:id`, so "mine" is never taken for an id.
  app.get(
    MINE,
    { config: { list: ownSupportRequestListSpec }, schema: { response: { 200: ownSupportRequestPageSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const query = listQueryOf(request, ownSupportRequestListSpec);
      const page = await runList(
        ctx.db,
        ownSupportRequestListSpec,
        query,
        ({ where, orderBy, limit, offset }) =>
          ctx.db
            .select()
            .from(supportRequests)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .offset(offset),
        eq(supportRequests.requesterUid, caller.uid),
      );
      return { ...page, data: page.data.map(ownSupportRequestToApi) };
    },
  );

  // Another user's request answers 404 like one that does not exist, so ids reveal nothing.
  app.get(
    `${MINE}/:id`,
    { schema: { params: idParams, response: { 200: ownSupportRequestSchema } } },
    async (request) => {
      const { id } = request.params;
      const [row] = await ctx.db
        .select()
        .from(supportRequests)
        .where(and(eq(supportRequests.id, id), eq(supportRequests.requesterUid, callerOf(request).uid)));
      if (!row) throw notFound(`Support request ${id}`);
      return ownSupportRequestToApi(row);
    },
  );

  app.get(
    SUPPORT_REQUESTS,
    { config: { ...admin, list: supportRequestListSpec }, schema: { response: { 200: supportRequestPageSchema } } },
    async (request) => {
      const query = listQueryOf(request, supportRequestListSpec);
      const page = await runList(ctx.db, supportRequestListSpec, query, ({ where, orderBy, limit, offset }) =>
        ctx.db
          .select(withRequester)
          .from(supportRequests)
          .leftJoin(users, eq(users.uid, supportRequests.requesterUid))
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset),
      );
      return { ...page, data: page.data.map(supportRequestToApi) };
    },
  );

  async function supportRequestRow(id: string) {
    const [row] = await ctx.db
      .select(withRequester)
      .from(supportRequests)
      .leftJoin(users, eq(users.uid, supportRequests.requesterUid))
      .where(eq(supportRequests.id, id));
    if (!row) throw notFound(`Support request ${id}`);
    return row;
  }

  app.get(
    `${SUPPORT_REQUESTS}/:id`,
    { config: admin, schema: { params: idParams, response: { 200: supportRequestSchema } } },
    async (request) => supportRequestToApi(await supportRequestRow(request.params.id)),
  );

  app.patch(
    `${SUPPORT_REQUESTS}/:id`,
    {
      config: admin,
      schema: { params: idParams, body: supportRequestUpdateSchema, response: { 200: supportRequestSchema } },
    },
    async (request) => {
      const { id } = request.params;
      const update = request.body;
      const caller = callerOf(request);
      await ctx.notifications.transaction(async (tx, notify) => {
        const [current] = await tx.select().from(supportRequests).where(eq(supportRequests.id, id)).for("update");
        if (!current) throw notFound(`Support request ${id}`);
        if (update.status && update.status !== current.status && !NEXT[current.status].includes(update.status)) {
          throw new HttpError(409, "Conflict", `A ${current.status} request cannot become ${update.status}`, [
            { path: "status", message: `allowed from ${current.status}: ${NEXT[current.status].join(", ") || "none"}` },
          ]);
        }
        if (update.firmwareId) await lockFirmwareIds(tx, [update.firmwareId], "firmwareId");
        const at = new Date();
        const status = update.status ?? current.status;
        const notes = update.note
          ? [...current.notes, { at: at.toISOString(), by: caller.email ?? caller.uid, text: update.note }]
          : current.notes;
        const history =
          status !== current.status
            ? [...current.history, { at: at.toISOString(), status, note: update.note ?? null }]
            : current.history;
        const [changed] = await tx
          .update(supportRequests)
          .set({ status, notes, history, firmwareId: update.firmwareId ?? current.firmwareId, updatedAt: at })
          .where(eq(supportRequests.id, id))
          .returning();
        if (changed.status !== current.status) await notify(supportRequestNotification(changed, update.note));
        const fields = changedFields(
          { status: current.status, firmwareId: current.firmwareId },
          { status: changed.status, firmwareId: changed.firmwareId },
        );
        await writeAudit(tx, actorFrom(request), {
          action: "support-request.updated",
          targetType: "support-request",
          targetId: id,
          subjectUid: current.requesterUid,
          before: fields.before,
          after: { ...fields.after, ...(update.note && { note: update.note }) },
        });
      });
      return supportRequestToApi(await supportRequestRow(id));
    },
  );

  app.get(
    `${SUPPORT_REQUESTS}/:id/read-file`,
    { config: admin, schema: { params: idParams } },
    async (request, reply) => {
      const row = await supportRequestRow(request.params.id);
      if (!row.readFileSha256) throw notFound(`A read file for support request ${row.id}`);
      return reply
        .header("content-type", "application/octet-stream")
        .header("content-disposition", `attachment; filename="${row.vin}-read.bin"`)
        .send(ctx.blobs.stream(row.readFileSha256));
    },
  );
}
