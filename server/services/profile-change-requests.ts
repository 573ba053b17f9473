/**
 * Profile change requests (contracts/profile-change-requests.ts): a dealer's open request to change
 * their business identity, its documents and logo, an admin's decision (an approval reaches the
 * dealer profile in the same transaction) and the review queue. One open request per dealer, by a
 * partial unique index: a second submission, even a concurrent one, replaces it.
 */
import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  BUSINESS_IDENTITY_FIELDS,
  type BusinessIdentity,
  type IdentityChanges,
  type ProfileChangeQueueItem,
  type ProfileChangeRequest,
  type ProfileChangeStatus,
  type profileChangeDecisionSchema,
  type profileChangeFieldsSchema,
} from "../../contracts/profile-change-requests";
import type { AppContext } from "../context";
import type { Db, Tx } from "../db/handle";
import { dealerProfiles, profileChangeFiles, profileChangeRequests, users } from "../db/schema";
import { type AuditActor, writeAudit } from "./audit";
import { type ProfileRow, profileRowOfUser } from "./dealers/profiles";
import { conflict, forbidden, invalid, notFound } from "./errors";
import type { Lister } from "./list-pages";
import type { NotificationInput } from "./notifications";
import { storeLogo } from "./profile-change-files";
import type { UploadedFile } from "./uploaded-file";

type RequestRow = typeof profileChangeRequests.$inferSelect;
type FileRow = typeof profileChangeFiles.$inferSelect;
type FileOfRequest = typeof profileChangeFiles.$inferInsert;

/** The form's fields, as the contract parses them. */
export type ProfileChangeInput = z.output<typeof profileChangeFieldsSchema>;
export type DecisionInput = z.output<typeof profileChangeDecisionSchema>;
/** The form's files, sorted and checked: documents with the type their bytes show, and the logo if sent. */
export interface ProfileChangeUploads {
  documents: Array<UploadedFile & { contentType: string }>;
  logo: UploadedFile | null;
}

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
async function statusOf(db: Db, profile: ProfileRow): Promise<ProfileChangeStatus> {
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

/** The user's identity with their open request and the last decided one; 404 when they have no dealer profile. */
export async function profileChangeStatus(db: Db, uid: string): Promise<ProfileChangeStatus> {
  const profile = await profileRowOfUser(db, uid);
  if (!profile) throw notFound(`A dealer profile for user ${uid}`);
  return statusOf(db, profile);
}

/** The profile a dealer's change request is for; anyone without one (or rejected) is refused before the upload is read. */
export async function requesterProfile(db: Db, uid: string): Promise<ProfileRow> {
  const profile = await profileRowOfUser(db, uid);
  if (!profile || profile.status === "rejected")
    throw forbidden("Profile change requests are for dealers: apply to become a dealer first");
  return profile;
}

/** The requested values that differ from the profile's: only those are stored and applied. */
function changesFrom(profile: ProfileRow, input: ProfileChangeInput): IdentityChanges {
  const changes: Record<string, string | null> = {};
  for (const field of BUSINESS_IDENTITY_FIELDS) {
    const value = input[field];
    if (value !== undefined && value !== profile[field]) changes[field] = value;
  }
  return changes as IdentityChanges;
}

/** The request's file rows: every document, and the logo as the WebP it was stored as. */
function fileRowsOf(
  requestId: string,
  { documents, logo }: ProfileChangeUploads,
  storedLogo: { sha256: string; size: number } | null,
): FileOfRequest[] {
  return [
    ...documents.map((document) => ({
      requestId,
      kind: "document" as const,
      name: document.filename || "document",
      contentType: document.contentType,
      sha256: document.sha256,
      size: document.size,
    })),
    ...(storedLogo && logo
      ? [
          {
            requestId,
            kind: "logo" as const,
            name: logo.filename || "logo",
            contentType: "image/webp",
            sha256: storedLogo.sha256,
            size: storedLogo.size,
          },
        ]
      : []),
  ];
}

/** Stores the dealer's request (replacing their open one) with its files; answers the status it leaves. */
export async function submitProfileChange(
  ctx: AppContext,
  profile: ProfileRow,
  input: ProfileChangeInput,
  uploads: ProfileChangeUploads,
): Promise<ProfileChangeStatus> {
  const { db } = ctx;
  const changes = changesFrom(profile, input);
  if (Object.keys(changes).length === 0 && !uploads.logo) {
    throw invalid("Nothing to change", "Every value sent is the profile's current one: change a field or send a logo", [
      { path: "businessName", message: "no field differs from the current profile" },
    ]);
  }
  // Into the blob store before the rows: the collector keeps anything stored in the last hour.
  const storedLogo = uploads.logo ? await storeLogo(ctx.blobs, uploads.logo) : null;
  for (const document of uploads.documents) await ctx.blobs.adopt(document.path, document.sha256);
  await db.transaction(async (tx) => {
    const now = new Date();
    const values = { changes, comment: input.comment || null, submittedAt: now, dealerProfileId: profile.id };
    // The partial unique index makes a concurrent second PUT wait, then update this same row.
    const [row] = await tx
      .insert(profileChangeRequests)
      .values({ userUid: profile.userUid, state: "open", ...values })
      .onConflictDoUpdate({
        target: profileChangeRequests.userUid,
        targetWhere: sql`state = 'open'`,
        set: values,
      })
      .returning();
    await tx.delete(profileChangeFiles).where(eq(profileChangeFiles.requestId, row.id));
    await tx.insert(profileChangeFiles).values(fileRowsOf(row.id, uploads, storedLogo));
  });
  return statusOf(db, profile);
}

/** The user's open request, locked, and the profile it is for; 404 without one, 409 when it was replaced since `submittedAt`. */
async function openRequestOf(tx: Tx, uid: string, submittedAt: string | undefined) {
  const [open] = await tx
    .select()
    .from(profileChangeRequests)
    .where(and(eq(profileChangeRequests.userUid, uid), eq(profileChangeRequests.state, "open")))
    .for("update");
  if (!open) throw notFound(`An open profile change request of user ${uid}`);
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
  return { open, profile, logo: logo as FileRow | undefined };
}

/** What the dealer is told of the decision. */
function decisionNotice(
  open: RequestRow,
  after: ProfileRow,
  logo: FileRow | undefined,
  body: DecisionInput,
): NotificationInput {
  const { decision, note } = body;
  const what = [...Object.keys(open.changes), ...(logo ? ["logo"] : [])].join(", ");
  return decision === "approve"
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
      };
}

/** Approves (the changes reach the profile) or rejects the user's open request, audited, and tells the dealer. */
export async function decideProfileChange(
  ctx: AppContext,
  actor: AuditActor,
  uid: string,
  body: DecisionInput,
): Promise<ProfileChangeStatus> {
  const { decision, note, submittedAt } = body;
  const outcome = await ctx.notifications.transaction(async (tx, notify) => {
    const { open, profile, logo } = await openRequestOf(tx, uid, submittedAt);
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
        decidedBy: actor.uid,
        decisionNote: note || null,
      })
      .where(eq(profileChangeRequests.id, open.id))
      .returning();
    // The trail keeps the identity before and after, and what was asked, whatever is decided.
    await writeAudit(tx, actor, {
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
    await notify(decisionNotice(open, after, logo, body));
    return { identity: identityOf(after), decided: (await requestsToApi(tx, [decided]))[0] };
  });
  return { identity: outcome.identity, open: null, lastDecided: outcome.decided };
}

/** A document or logo of one of the user's requests, with its blob present; 404 otherwise. */
export async function profileChangeFile(ctx: AppContext, uid: string, fileId: string): Promise<FileRow> {
  const [found] = await ctx.db
    .select({ file: profileChangeFiles })
    .from(profileChangeFiles)
    .innerJoin(profileChangeRequests, eq(profileChangeRequests.id, profileChangeFiles.requestId))
    .where(and(eq(profileChangeFiles.id, fileId), eq(profileChangeRequests.userUid, uid)));
  if (!found || !(await ctx.blobs.exists(found.file.sha256))) throw notFound(`File ${fileId}`);
  return found.file;
}

type QueueRow = { request: RequestRow; profile: ProfileRow; email: string | null };

/** The requests for admins, each with its dealer's current identity and email, over the list's filter and page. */
export async function profileChangeQueuePage<Page extends { data: QueueRow[] }>(
  db: Db,
  list: Lister<QueueRow, Page>,
): Promise<Omit<Page, "data"> & { data: ProfileChangeQueueItem[] }> {
  const page = await list(({ where, orderBy, limit, offset }) =>
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
}
