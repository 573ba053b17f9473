/**
 * Support requests for vehicles the catalogue does not cover: storing one (with the ECU read the
 * requester sent), the requester's own and the admins' views of them, and an admin moving one on
 * (forward only, noted, audited, the requester notified in the same transaction).
 */
import { and, eq, getTableColumns } from "drizzle-orm";
import type { z } from "zod";
import type {
  OwnSupportRequest,
  SupportRequest,
  SupportRequestStatus,
  supportRequestInputSchema,
  supportRequestUpdateSchema,
} from "../../contracts/firmware-support";
import type { AppContext } from "../context";
import type { Db } from "../db/handle";
import { supportRequests, users } from "../db/schema";
import { type AuditActor, changedFields, writeAudit } from "./audit";
import { conflict, notFound } from "./errors";
import { lockFirmwareIds } from "./firmware-support/references";
import type { VerifiedCaller } from "./identity";
import type { Lister } from "./list-pages";
import type { NotificationInput } from "./notifications";

type SupportRequestInput = z.output<typeof supportRequestInputSchema>;
type SupportRequestUpdate = z.output<typeof supportRequestUpdateSchema>;
type RequestRow = typeof supportRequests.$inferSelect;
type SupportRequestRow = RequestRow & { requesterEmail: string | null };

/** The ECU read sent with a request, already stored under its hash by the upload. */
export interface ReadFile {
  path: string;
  sha256: string;
  size: number;
}

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

/** The fields admins and the requester both see. */
const requestBase = (row: RequestRow) => ({
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

const ownSupportRequestToApi = (row: RequestRow): OwnSupportRequest => ({
  ...requestBase(row),
  // An admin may note a candidate firmware while investigating; the requester learns it only once it is the answer.
  firmwareId: row.status === "supported" ? row.firmwareId : null,
  history: row.history,
});

const withRequester = { ...getTableColumns(supportRequests), requesterEmail: users.email };

/** What the requester is told when an admin moves their request on; `note` is the admin's note given with that change. */
function supportRequestNotification(request: RequestRow, note: string | undefined): NotificationInput {
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

/** Stores the caller's request; the read file, if any, moves into the blob store first. */
export async function createSupportRequest(
  ctx: Pick<AppContext, "db" | "blobs">,
  caller: VerifiedCaller,
  input: SupportRequestInput,
  file: ReadFile | null,
): Promise<SupportRequest> {
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

/** A page of the requester's own requests. */
export async function ownSupportRequestPage<Page extends { data: RequestRow[] }>(
  db: Db,
  requesterUid: string,
  list: Lister<RequestRow, Page>,
) {
  const page = await list(
    ({ where, orderBy, limit, offset }) =>
      db
        .select()
        .from(supportRequests)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    eq(supportRequests.requesterUid, requesterUid),
  );
  return { ...page, data: page.data.map(ownSupportRequestToApi) };
}

/** One of the requester's own requests; another user's is not found, like one that does not exist. */
export async function ownSupportRequest(db: Db, requesterUid: string, id: string): Promise<OwnSupportRequest> {
  const [row] = await db
    .select()
    .from(supportRequests)
    .where(and(eq(supportRequests.id, id), eq(supportRequests.requesterUid, requesterUid)));
  if (!row) throw notFound(`Support request ${id}`);
  return ownSupportRequestToApi(row);
}

/** A page of every request, with the requester's email, for admins. */
export async function supportRequestPage<Page extends { data: SupportRequestRow[] }>(
  db: Db,
  list: Lister<SupportRequestRow, Page>,
) {
  const page = await list(({ where, orderBy, limit, offset }) =>
    db
      .select(withRequester)
      .from(supportRequests)
      .leftJoin(users, eq(users.uid, supportRequests.requesterUid))
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset),
  );
  return { ...page, data: page.data.map(supportRequestToApi) };
}

async function supportRequestRow(db: Db, id: string): Promise<SupportRequestRow> {
  const [row] = await db
    .select(withRequester)
    .from(supportRequests)
    .leftJoin(users, eq(users.uid, supportRequests.requesterUid))
    .where(eq(supportRequests.id, id));
  if (!row) throw notFound(`Support request ${id}`);
  return row;
}

/** One request as admins see it. */
export async function supportRequest(db: Db, id: string): Promise<SupportRequest> {
  return supportRequestToApi(await supportRequestRow(db, id));
}

/** Where the request's ECU read is stored and the VIN its download is named after; none sent is not found. */
export async function supportRequestReadFile(db: Db, id: string): Promise<{ sha256: string; vin: string }> {
  const row = await supportRequestRow(db, id);
  if (!row.readFileSha256) throw notFound(`A read file for support request ${row.id}`);
  return { sha256: row.readFileSha256, vin: row.vin };
}

/**
 * An admin's change: a status further on (never back), a note, the firmware it was supported
 * with. A change of status is kept in the request's history and told to the requester.
 */
export async function updateSupportRequest(
  ctx: Pick<AppContext, "db" | "notifications">,
  actor: AuditActor,
  caller: VerifiedCaller,
  id: string,
  update: SupportRequestUpdate,
): Promise<SupportRequest> {
  await ctx.notifications.transaction(async (tx, notify) => {
    const [current] = await tx.select().from(supportRequests).where(eq(supportRequests.id, id)).for("update");
    if (!current) throw notFound(`Support request ${id}`);
    if (update.status && update.status !== current.status && !NEXT[current.status].includes(update.status)) {
      throw conflict(`A ${current.status} request cannot become ${update.status}`, [
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
    await writeAudit(tx, actor, {
      action: "support-request.updated",
      targetType: "support-request",
      targetId: id,
      subjectUid: current.requesterUid,
      before: fields.before,
      after: { ...fields.after, ...(update.note && { note: update.note }) },
    });
  });
  return supportRequest(ctx.db, id);
}
