/**
 * Profile change requests (contracts/profile-change-requests.ts): a dealer asks to change their
 * business identity with documents, an admin approves (the changes reach the dealer profile in the
 * same transaction) or rejects with a note, and the dealer is told either way. One open request
 * per dealer, by a partial unique index: a second PUT, even a concurrent one, replaces it.
 */
import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  BUSINESS_IDENTITY_FIELDS,
  type BusinessIdentity,
  DOCUMENT_MAX_BYTES,
  type IdentityChanges,
  LOGO_MAX_BYTES,
  MAX_DOCUMENTS,
  type ProfileChangeRequest,
  profileChangeDecisionSchema,
  profileChangeFieldsSchema,
  profileChangeQueuePageSchema,
  profileChangeRequestList,
  profileChangeStatusSchema,
} from "../../contracts/profile-change-requests";
import type { AppContext } from "../context";
import type { Db, Tx } from "../db/handle";
import { dealerProfiles, profileChangeFiles, profileChangeRequests, users } from "../db/schema";
import { badRequest, conflict, forbidden, notFound } from "../errors";
import { assertSelfOrAdmin, callerOf } from "../http/auth";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { fieldsOf } from "../http/multipart-fields";
import { tooLarge, type UploadedFile, withUploads } from "../http/uploads";
import type { ZodTypeProvider } from "../http/zod";
import { actorFrom, writeAudit } from "../services/audit";
import { documentTypeOf, storeLogo } from "../services/profile-change-files";

type RequestRow = typeof profileChangeRequests.$inferSelect;
type FileRow = typeof profileChangeFiles.$inferSelect;
type ProfileRow = typeof dealerProfiles.$inferSelect;

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

export const identityOf = (row: ProfileRow): BusinessIdentity => ({
  dealerId: row.id,
  businessName: row.businessName,
  registrationNumber: row.registrationNumber,
  vatNumber: row.vatNumber,
  address: row.address,
  logoSha256: row.logoSha256,
});

const fileToApi = (file: FileRow) => ({
  id: file.id,
  kind: file.kind,
  name: file.name,
  contentType: file.contentType,
  size: file.size,
});

async function requestsToApi(db: Db | Tx, rows: RequestRow[]): Promise<ProfileChangeRequest[]> {
  const files = rows.length
    ? await db
        .select()
        .from(profileChangeFiles)
        .where(
          inArray(
            profileChangeFiles.requestId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(profileChangeFiles.createdAt, profileChangeFiles.id)
    : [];
  return rows.map((row) => {
    const own = files.filter((file) => file.requestId === row.id);
    const logo = own.find((file) => file.kind === "logo");
    return {
      id: row.id,
      userUid: row.userUid,
      dealerId: row.dealerProfileId,
      state: row.state,
      changes: row.changes,
      logo: logo ? fileToApi(logo) : null,
      documents: own.filter((file) => file.kind === "document").map(fileToApi),
      comment: row.comment,
      submittedAt: row.submittedAt.toISOString(),
      decidedAt: row.decidedAt?.toISOString() ?? null,
      decidedBy: row.decidedBy,
      decisionNote: row.decisionNote,
    };
  });
}

/** What the dealer and admins see: the identity, the open request and the last decided one. */
async function statusOf(db: Db, profile: ProfileRow) {
  const mine = eq(profileChangeRequests.userUid, profile.userUid);
  const [open] = await db
    .select()
    .from(profileChangeRequests)
    .where(and(mine, eq(profileChangeRequests.state, "open")));
  const [decided] = await db
    .select()
    .from(profileChangeRequests)
    .where(and(mine, isNotNull(profileChangeRequests.decidedAt)))
    .orderBy(desc(profileChangeRequests.decidedAt))
    .limit(1);
  const [first, second] = await requestsToApi(
    db,
    [open, decided].filter((row): row is RequestRow => row !== undefined),
  );
  return {
    identity: identityOf(profile),
    open: open ? first : null,
    lastDecided: decided ? (open ? second : first) : null,
  };
}

/** The requested values that differ from the profile's: only those are stored and applied. */
function changesFrom(profile: ProfileRow, input: z.output<typeof profileChangeFieldsSchema>): IdentityChanges {
  const changes: Record<string, string | null> = {};
  for (const field of BUSINESS_IDENTITY_FIELDS) {
    const value = input[field];
    if (value !== undefined && value !== profile[field]) changes[field] = value;
  }
  return changes as IdentityChanges;
}

/** The form's files sorted into documents and the logo, each checked; a refusal names the field and the file. */
async function sortFiles(
  files: UploadedFile[],
): Promise<{ documents: Array<UploadedFile & { contentType: string }>; logo: UploadedFile | null }> {
  const documents: Array<UploadedFile & { contentType: string }> = [];
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
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  async function profileOf(uid: string): Promise<ProfileRow> {
    const [profile] = await db.select().from(dealerProfiles).where(eq(dealerProfiles.userUid, uid));
    if (!profile) throw notFound(`A dealer profile for user ${uid}`);
    return profile;
  }

  /** The dealer themself and admins: the identity, the open request and the last decided one with its note. */
  app.get(
    `/${apiRoutes.users.profileChangeRequest(":id")}`,
    { schema: { params: userParams, response: { 200: profileChangeStatusSchema } } },
    async (request) => {
      assertSelfOrAdmin(callerOf(request), request.params.id);
      return statusOf(db, await profileOf(request.params.id));
    },
  );

  /** The dealer asks for a change, with documents (and a logo); it replaces their open request, if any. */
  app.put(
    `/${apiRoutes.users.profileChangeRequest(":id")}`,
    { schema: { params: userParams, response: { 200: profileChangeStatusSchema } } },
    async (request) => {
      const caller = callerOf(request);
      if (caller.uid !== request.params.id)
        throw forbidden("Only the dealer themself asks to change their business identity");
      const [profile] = await db.select().from(dealerProfiles).where(eq(dealerProfiles.userUid, caller.uid));
      if (!profile || profile.status === "rejected")
        throw forbidden("Profile change requests are for dealers: apply to become a dealer first");
      return withUploads(
        request,
        ctx,
        async ({ files, fields }) => {
          const { input } = fieldsOf(profileChangeFieldsSchema, fields);
          const { documents, logo } = await sortFiles(files);
          const changes = changesFrom(profile, input);
          if (Object.keys(changes).length === 0 && !logo) {
            throw badRequest(
              "Nothing to change",
              "Every value sent is the profile's current one: change a field or send a logo",
              [{ path: "businessName", message: "no field differs from the current profile" }],
            );
          }
          // Into the blob store before the rows: the collector keeps anything stored in the last hour.
          const storedLogo = logo ? await storeLogo(ctx.blobs, logo) : null;
          for (const document of documents) await ctx.blobs.adopt(document.path, document.sha256);
          await db.transaction(async (tx) => {
            const now = new Date();
            const values = { changes, comment: input.comment || null, submittedAt: now, dealerProfileId: profile.id };
            // The partial unique index makes a concurrent second PUT wait, then update this same row.
            const [row] = await tx
              .insert(profileChangeRequests)
              .values({ userUid: caller.uid, state: "open", ...values })
              .onConflictDoUpdate({
                target: profileChangeRequests.userUid,
                targetWhere: sql`state = 'open'`,
                set: values,
              })
              .returning();
            await tx.delete(profileChangeFiles).where(eq(profileChangeFiles.requestId, row.id));
            await tx.insert(profileChangeFiles).values([
              ...documents.map((document) => ({
                requestId: row.id,
                kind: "document" as const,
                name: document.filename || "document",
                contentType: document.contentType,
                sha256: document.sha256,
                size: document.size,
              })),
              ...(storedLogo && logo
                ? [
                    {
                      requestId: row.id,
                      kind: "logo" as const,
                      name: logo.filename || "logo",
                      contentType: "image/webp",
                      sha256: storedLogo.sha256,
                      size: storedLogo.size,
                    },
                  ]
                : []),
            ]);
          });
          return statusOf(db, profile);
        },
        { limitBytes: DOCUMENT_MAX_BYTES, maxFiles: MAX_DOCUMENTS + 1 },
      );
    },
  );

  /** Admin: approve (the changes are applied to the profile) or reject with a note; the dealer is told either way. */
  app.post(
    `/${apiRoutes.users.profileChangeDecision(":id")}`,
    {
      config: { role: "admin" },
      schema: { params: userParams, body: profileChangeDecisionSchema, response: { 200: profileChangeStatusSchema } },
    },
    async (request) => {
      const caller = callerOf(request);
      const { decision, note, submittedAt } = request.body;
      const outcome = await ctx.notifications.transaction(async (tx, notify) => {
        const [open] = await tx
          .select()
          .from(profileChangeRequests)
          .where(and(eq(profileChangeRequests.userUid, request.params.id), eq(profileChangeRequests.state, "open")))
          .for("update");
        if (!open) throw notFound(`An open profile change request of user ${request.params.id}`);
        if (submittedAt && new Date(submittedAt).getTime() !== open.submittedAt.getTime()) {
          throw conflict("The dealer replaced the request after you opened it: review it again", [
            { path: "submittedAt", message: "the request was replaced" },
          ]);
        }
        const [profile] = await tx
          .select()
          .from(dealerProfiles)
          .where(eq(dealerProfiles.id, open.dealerProfileId))
          .for("update");
        const [logo] = await tx
          .select()
          .from(profileChangeFiles)
          .where(and(eq(profileChangeFiles.requestId, open.id), eq(profileChangeFiles.kind, "logo")));
        const now = new Date();
        const after =
          decision === "approve"
            ? (
                await tx
                  .update(dealerProfiles)
                  .set({ ...open.changes, ...(logo && { logoSha256: logo.sha256 }), updatedAt: now })
                  .where(eq(dealerProfiles.id, profile.id))
                  .returning()
              )[0]
            : profile;
        const [decided] = await tx
          .update(profileChangeRequests)
          .set({
            state: decision === "approve" ? "approved" : "rejected",
            decidedAt: now,
            decidedBy: caller.uid,
            decisionNote: note || null,
          })
          .where(eq(profileChangeRequests.id, open.id))
          .returning();
        // The trail keeps the identity before and after, and what was asked, whatever is decided.
        await writeAudit(tx, actorFrom(request), {
          action: `profile-change-request.${decided.state}`,
          targetType: "profile-change-request",
          targetId: open.id,
          subjectUid: open.userUid,
          before: {
            identity: identityOf(profile),
            requested: { changes: open.changes, logoSha256: logo?.sha256 ?? null },
            state: open.state,
          },
          after: { identity: identityOf(after), state: decided.state, note: decided.decisionNote },
        });
        const what = [...Object.keys(open.changes), ...(logo ? ["logo"] : [])].join(", ");
        await notify(
          decision === "approve"
            ? {
                recipientUid: open.userUid,
                kind: "profile-change.approved",
                title: `Your business details were changed: ${after.businessName}`,
                body: note ? `Approved (${what}). ${note}` : `Approved (${what}).`,
                link: "/profile",
              }
            : {
                recipientUid: open.userUid,
                kind: "profile-change.rejected",
                title: "Your change of business details was not approved",
                body: `Reason: ${note}`,
                link: "/profile",
              },
        );
        return { identity: identityOf(after), decided: (await requestsToApi(tx, [decided]))[0] };
      });
      return { identity: outcome.identity, open: null, lastDecided: outcome.decided };
    },
  );

  /** A request's document or logo, to the dealer and admins only, with its type and name. */
  app.get(
    `/${apiRoutes.users.profileChangeFile(":id", ":fileId")}`,
    { schema: { params: fileParams } },
    async (request, reply) => {
      assertSelfOrAdmin(callerOf(request), request.params.id);
      const [file] = await db
        .select({ file: profileChangeFiles })
        .from(profileChangeFiles)
        .innerJoin(profileChangeRequests, eq(profileChangeRequests.id, profileChangeFiles.requestId))
        .where(
          and(eq(profileChangeFiles.id, request.params.fileId), eq(profileChangeRequests.userUid, request.params.id)),
        );
      if (!file || !(await ctx.blobs.exists(file.file.sha256))) throw notFound(`File ${request.params.fileId}`);
      const name = file.file.name.replace(/["\\\r\n]/g, "_");
      return (
        reply
          .header("content-type", file.file.contentType)
          // Shown in the browser (a PDF or an image) but never run as our page: no scripts, no plugins.
          .header(
            "content-disposition",
            `inline; filename="${name}"; filename*=UTF-8''${encodeURIComponent(file.file.name)}`,
          )
          .header("content-security-policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
          .header("x-content-type-options", "nosniff")
          .send(ctx.blobs.stream(file.file.sha256))
      );
    },
  );

  /** Admins: the requests, `state[eq]=open` being the review queue, with each dealer's current identity. */
  app.get(
    QUEUE,
    { config: { role: "admin", list: listSpec }, schema: { response: { 200: profileChangeQueuePageSchema } } },
    async (request) => {
      const page = await runList(db, listSpec, listQueryOf(request, listSpec), ({ where, orderBy, limit, offset }) =>
        db
          .select({ request: profileChangeRequests, profile: dealerProfiles, email: users.email })
          .from(profileChangeRequests)
          .innerJoin(dealerProfiles, eq(dealerProfiles.id, profileChangeRequests.dealerProfileId))
          .innerJoin(users, eq(users.uid, profileChangeRequests.userUid))
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset),
      );
      const requests = await requestsToApi(
        db,
        page.data.map((row) => row.request),
      );
      return {
        ...page,
        data: page.data.map((row, i) => ({ ...requests[i], identity: identityOf(row.profile), email: row.email })),
      };
    },
  );
}
