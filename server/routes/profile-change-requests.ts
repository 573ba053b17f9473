/**
 * Profile change requests (contracts/profile-change-requests.ts): a dealer asks to change their
 * business identity with documents, an admin approves (the changes reach the dealer profile in the
 * same transaction) or rejects with a note, and the dealer is told either way. One open request
 * per dealer, by a partial unique index: a second PUT, even a concurrent one, replaces it. The
 * requests themselves are kept by services/profile-change-requests.ts.
 */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  DOCUMENT_MAX_BYTES,
  DOCUMENT_TYPES,
  LOGO_MAX_BYTES,
  MAX_DOCUMENTS,
  profileChangeDecisionSchema,
  profileChangeFieldsSchema,
  profileChangeQueuePageSchema,
  profileChangeRequestList,
  profileChangeStatusSchema,
} from "../../contracts/profile-change-requests";
import type { AppContext } from "../context";
import { profileChangeRequests } from "../db/schema";
import { badRequest, forbidden } from "../errors";
import { assertSelfOrAdmin, callerOf } from "../http/auth";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { bytesAnswer, multipartBody } from "../http/media";
import { fieldsOf } from "../http/multipart-fields";
import { tooLarge, type UploadedFile, withUploads } from "../http/uploads";
import type { ZodTypeProvider } from "../http/zod";
import { actorFrom } from "../services/audit";
import { documentTypeOf } from "../services/profile-change-files";
import {
  decideProfileChange,
  type ProfileChangeUploads,
  profileChangeFile,
  profileChangeQueuePage,
  profileChangeStatus,
  requesterProfile,
  submitProfileChange,
} from "../services/profile-change-requests";

const userParams = z.strictObject({ id: z.string().min(1).max(128) });
const fileParams = userParams.extend({ fileId: z.uuid("fileId must be a UUID") });
const QUEUE = `/${apiPaths["profile-change-requests"].list}`;

const listSpec: ListSpec = {
  table: profileChangeRequests,
  id: profileChangeRequests.id,
  allowed: profileChangeRequestList,
  fields: {
    state: { column: profileChangeRequests.state, kind: "text" },
    submittedAt: { column: profileChangeRequests.submittedAt, kind: "timestamp" },
    decidedAt: { column: profileChangeRequests.decidedAt, kind: "timestamp" },
  },
  defaultSort: [{ field: "submittedAt", order: "asc" }],
};

/** The form's files sorted into documents and the logo, each checked; a refusal names the field and the file. */
async function sortFiles(files: UploadedFile[]): Promise<ProfileChangeUploads> {
  const documents: ProfileChangeUploads["documents"] = [];
  let logo: UploadedFile | null = null;
  for (const file of files) {
    if (file.field === "logo") {
      if (logo) throw badRequest("One logo only", "Send one logo", [{ path: "logo", message: "one logo only" }]);
      if (file.size > LOGO_MAX_BYTES) throw tooLarge(LOGO_MAX_BYTES, "logo");
      logo = file;
    } else if (file.field === "documents") {
      documents.push({ ...file, contentType: await documentTypeOf(file) });
    } else {
      throw badRequest(
        "Unknown file field",
        `A file was sent as "${file.field}": send documents as "documents" and the logo as "logo"`,
        [{ path: file.field, message: "send files as documents or logo" }],
      );
    }
  }
  if (documents.length === 0) {
    throw badRequest(
      "Documents missing",
      "Attach at least one document that shows the change (a company-register extract, a VAT certificate)",
      [{ path: "documents", message: "attach at least one document (PDF, PNG, JPEG or WebP)" }],
    );
  }
  if (documents.length > MAX_DOCUMENTS)
    throw badRequest("Too many documents", `Send at most ${MAX_DOCUMENTS} documents`, [
      { path: "documents", message: `at most ${MAX_DOCUMENTS} documents` },
    ]);
  return { documents, logo };
}

export async function profileChangeRequestRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerDealerRoutes(plugin, ctx);
  registerReviewRoutes(plugin, ctx);
}

/** The dealer's side: their status, asking for a change, and the request's files. */
function registerDealerRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  /** The dealer themself and admins: the identity, the open request and the last decided one with its note. */
  app.get(
    `/${apiRoutes.users.profileChangeRequest(":id")}`,
    { schema: { params: userParams, response: { 200: profileChangeStatusSchema } } },
    async (request) => {
      assertSelfOrAdmin(callerOf(request), request.params.id);
      return profileChangeStatus(ctx.db, request.params.id);
    },
  );

  /** The dealer asks for a change, with documents (and a logo); it replaces their open request, if any. */
  app.put(
    `/${apiRoutes.users.profileChangeRequest(":id")}`,
    {
      config: {
        media: multipartBody(
          { logo: "The new logo", documents: "A document proving the change (several parts)" },
          { fields: profileChangeFieldsSchema, required: [] },
        ),
      },
      schema: { params: userParams, response: { 200: profileChangeStatusSchema } },
    },
    async (request) => {
      const caller = callerOf(request);
      if (caller.uid !== request.params.id)
        throw forbidden("Only the dealer themself asks to change their business identity");
      const profile = await requesterProfile(ctx.db, caller.uid);
      return withUploads(
        request,
        ctx,
        async ({ files, fields }) => {
          const { input } = fieldsOf(profileChangeFieldsSchema, fields);
          return submitProfileChange(ctx, profile, input, await sortFiles(files));
        },
        { limitBytes: DOCUMENT_MAX_BYTES, maxFiles: MAX_DOCUMENTS + 1 },
      );
    },
  );

  /** A request's document or logo, to the dealer and admins only, with its type and name. */
  app.get(
    `/${apiRoutes.users.profileChangeFile(":id", ":fileId")}`,
    { config: { media: bytesAnswer({ types: DOCUMENT_TYPES, attachment: false }) }, schema: { params: fileParams } },
    async (request, reply) => {
      assertSelfOrAdmin(callerOf(request), request.params.id);
      const file = await profileChangeFile(ctx, request.params.id, request.params.fileId);
      const name = file.name.replace(/["\\\r\n]/g, "_");
      const body = await ctx.blobs.stream(file.sha256);
      return (
        reply
          .header("content-type", file.contentType)
          // Shown in the browser (a PDF or an image) but never run as our page: no scripts, no plugins.
          .header(
            "content-disposition",
            `inline; filename="${name}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
          )
          .header("content-security-policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
          .header("x-content-type-options", "nosniff")
          .send(body)
      );
    },
  );
}

/** The admins' side: the decision and the review queue. */
function registerReviewRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  /** Admin: approve (the changes are applied to the profile) or reject with a note; the dealer is told either way. */
  app.post(
    `/${apiRoutes.users.profileChangeDecision(":id")}`,
    {
      config: { role: "admin" },
      schema: { params: userParams, body: profileChangeDecisionSchema, response: { 200: profileChangeStatusSchema } },
    },
    async (request) => decideProfileChange(ctx, actorFrom(request), request.params.id, request.body),
  );

  /** Admins: the requests, `state[eq]=open` being the review queue, with each dealer's current identity. */
  app.get(
    QUEUE,
    { config: { role: "admin", list: listSpec }, schema: { response: { 200: profileChangeQueuePageSchema } } },
    async (request) =>
      profileChangeQueuePage(ctx.db, (select) => runList(ctx.db, listSpec, listQueryOf(request, listSpec), select)),
  );
}
