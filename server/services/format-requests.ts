/**
 * Format requests (contracts/format-requests.ts): a data log refused for its format, kept with the
 * uploader's consent for administrators to add the format, and closed by an admin as supported
 * (the uploader is told and offered the upload again) or declined. The file is kept in the data
 * logs' blob store only while the request is open.
 *
 * The number of open requests per user is checked under a transaction-scoped advisory lock on the
 * user, so concurrent requests cannot pass the limit together.
 */
import { rm } from "node:fs/promises";
import { and, count, eq, sql } from "drizzle-orm";
import {
  FORMAT_REFUSAL_CODES,
  type FormatRequest,
  type FormatRequestClosing,
  MAX_OPEN_FORMAT_REQUESTS,
} from "../../contracts/format-requests";
import type { AppContext } from "../context";
import type { Db, Tx } from "../db/handle";
import { formatRequests, users } from "../db/schema";
import { type AuditActor, writeAudit } from "./audit";
import { type LogUpload, lockHash, removeUnheldLogFiles } from "./data-logs";
import { conflict, notFound, Refusal } from "./errors";
import type { VerifiedCaller } from "./identity";
import type { Lister } from "./list-pages";
import { parseLogFile } from "./log-parse";

type RequestRow = typeof formatRequests.$inferSelect;
type ListedRow = { request: RequestRow; email: string | null };

const FORMAT_REFUSALS: ReadonlySet<string> = new Set(FORMAT_REFUSAL_CODES);

export const formatRequestToApi = ({ request, email }: ListedRow): FormatRequest => ({
  id: request.id,
  ownerUid: request.ownerUid,
  ownerEmail: email,
  state: request.state,
  tool: request.tool,
  note: request.note,
  fileName: request.fileName,
  fileSize: request.fileSize,
  fileKept: request.fileSha256 !== null,
  refusalCode: request.refusalCode,
  refusalMessage: request.refusalMessage,
  createdAt: request.createdAt.toISOString(),
  closedAt: request.closedAt?.toISOString() ?? null,
  closingNote: request.closingNote,
});

/** Admins see every request; anyone else only their own. */
const visibleTo = (caller: VerifiedCaller) =>
  caller.role === "admin" ? undefined : eq(formatRequests.ownerUid, caller.uid);

async function listed(db: Db | Tx, id: string, scope?: ReturnType<typeof visibleTo>): Promise<ListedRow> {
  const [row] = await db
    .select({ request: formatRequests, email: users.email })
    .from(formatRequests)
    .innerJoin(users, eq(users.uid, formatRequests.ownerUid))
    .where(and(eq(formatRequests.id, id), scope));
  if (!row) throw notFound(`Format request ${id}`);
  return row;
}

/** The parser's refusal of the file when it is one for its format; any other outcome is refused here. */
async function formatRefusalOf(file: LogUpload): Promise<{ code: string; message: string }> {
  const columnsPath = `${file.path}.columns`;
  try {
    const outcome = await parseLogFile({ inputPath: file.path, columnsPath, companions: [] });
    if (outcome.ok)
      throw conflict("The portal reads this file: upload it as a data log instead", [
        { path: "file", message: "this log is read; upload it as a data log" },
      ]);
    if (!FORMAT_REFUSALS.has(outcome.code))
      throw new Refusal(
        "unprocessable",
        "Not a format request",
        `The file was refused for what it holds, not for its format: ${outcome.message}`,
        { code: outcome.code },
      );
    return { code: outcome.code, message: outcome.message };
  } finally {
    await rm(columnsPath, { force: true });
  }
}

/** Keeps the refused file with the uploader's words, within the open-request limit; audited. */
export async function createFormatRequest(
  ctx: Pick<AppContext, "db" | "dataLogBlobs">,
  actor: AuditActor,
  caller: VerifiedCaller,
  file: LogUpload,
  fields: { tool: string; note?: string },
): Promise<FormatRequest> {
  const refusal = await formatRefusalOf(file);
  const id = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`format-requests:${caller.uid}`}, 0))`);
    const [{ open }] = await tx
      .select({ open: count() })
      .from(formatRequests)
      .where(and(eq(formatRequests.ownerUid, caller.uid), eq(formatRequests.state, "open")));
    if (open >= MAX_OPEN_FORMAT_REQUESTS)
      throw conflict(
        `You have ${MAX_OPEN_FORMAT_REQUESTS} open format requests, the most one user may have: wait for one to be closed`,
        [{ path: "file", message: `at most ${MAX_OPEN_FORMAT_REQUESTS} open format requests` }],
      );
    await lockHash(tx, file.sha256);
    const [row] = await tx
      .insert(formatRequests)
      .values({
        ownerUid: caller.uid,
        tool: fields.tool,
        note: fields.note || null,
        fileName: file.filename || "log",
        fileSize: file.size,
        fileSha256: file.sha256,
        refusalCode: refusal.code,
        refusalMessage: refusal.message,
      })
      .returning();
    // Audited though it is the uploader's own: the row is the record of their consent to keeping the file.
    await writeAudit(tx, actor, {
      action: "format-request.created",
      targetType: "format-request",
      targetId: row.id,
      subjectUid: caller.uid,
      after: { tool: row.tool, fileName: row.fileName, fileSha256: file.sha256, refusalCode: refusal.code },
    });
    // Moved in last, inside the transaction: if the move fails the row rolls back with it.
    await ctx.dataLogBlobs.adopt(file.path, file.sha256);
    return row.id;
  });
  return formatRequestToApi(await listed(ctx.db, id));
}

/** A page of the requests the caller sees, each with its uploader's email. */
export async function formatRequestPage<Page extends { data: ListedRow[] }>(
  db: Db,
  caller: VerifiedCaller,
  list: Lister<ListedRow, Page>,
) {
  const page = await list(
    ({ where, orderBy, limit, offset }) =>
      db
        .select({ request: formatRequests, email: users.email })
        .from(formatRequests)
        .innerJoin(users, eq(users.uid, formatRequests.ownerUid))
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    visibleTo(caller),
  );
  return { ...page, data: page.data.map(formatRequestToApi) };
}

/** An open request's kept file, for admins; 404 once it is closed. */
export async function formatRequestFile(db: Db, id: string): Promise<{ name: string; size: number; sha256: string }> {
  const { request } = await listed(db, id);
  if (!request.fileSha256) throw notFound(`The file of format request ${id}`);
  return { name: request.fileName, size: request.fileSize, sha256: request.fileSha256 };
}

/** What the uploader is told: supported offers the upload again. */
function closingNotice(request: RequestRow, closing: FormatRequestClosing) {
  const said = closing.note ? ` ${closing.note}` : "";
  return closing.state === "supported"
    ? {
        recipientUid: request.ownerUid,
        kind: "format-request.supported" as const,
        title: `Your ${request.tool} logs can be uploaded now`,
        body: `${request.fileName} is a format the portal reads now: upload it again.${said}`,
        link: "/tuning-tools/data-logs",
      }
    : {
        recipientUid: request.ownerUid,
        kind: "format-request.declined" as const,
        title: `Your request to read ${request.tool} logs was declined`,
        body: `${request.fileName} was deleted.${said}`,
        link: "/tuning-tools/data-logs",
      };
}

/** Closes an open request as supported or declined, deletes its file, tells the uploader; audited. */
export async function closeFormatRequest(
  ctx: Pick<AppContext, "notifications" | "dataLogBlobs" | "db">,
  actor: AuditActor,
  id: string,
  closing: FormatRequestClosing,
): Promise<FormatRequest> {
  await ctx.notifications.transaction(async (tx, notify) => {
    const [open] = await tx.select().from(formatRequests).where(eq(formatRequests.id, id)).for("update");
    if (!open) throw notFound(`Format request ${id}`);
    if (open.state !== "open")
      throw conflict(`Format request ${id} is already ${open.state}`, [{ path: "state", message: "already closed" }]);
    if (open.fileSha256) await lockHash(tx, open.fileSha256);
    const [closed] = await tx
      .update(formatRequests)
      .set({
        state: closing.state,
        closedAt: new Date(),
        closedBy: actor.uid,
        closingNote: closing.note || null,
        fileSha256: null,
      })
      .where(eq(formatRequests.id, id))
      .returning();
    await writeAudit(tx, actor, {
      action: `format-request.${closed.state}`,
      targetType: "format-request",
      targetId: id,
      subjectUid: open.ownerUid,
      before: { state: open.state, fileSha256: open.fileSha256 },
      after: { state: closed.state, note: closed.closingNote, fileSha256: null },
    });
    await notify(closingNotice(open, closing));
    if (open.fileSha256) await removeUnheldLogFiles(tx, ctx.dataLogBlobs, [open.fileSha256]);
  });
  return formatRequestToApi(await listed(ctx.db, id));
}
