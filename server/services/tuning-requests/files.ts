/**
 * Files of tuning requests: an attachment either side sends with its message, one file of a
 * ticket for download (a revision's bytes for a customer only when the dealer's protection lets
 * buyers download), and every file exchanged on a car's requests.
 */
import { and, eq, sql } from "drizzle-orm";
import type { TuningRequest, TuningRequestFile } from "../../../contracts/tuning-requests";
import type { AppContext } from "../../context";
import { tuneFiles, tuningRequestFiles, tuningRequests } from "../../db/schema";
import { forbidden, notFound } from "../errors";
import type { VerifiedCaller } from "../identity";
import { isAdmin, vehicleFor } from "../tune-access";
import type { UploadedFile } from "../uploaded-file";
import { touch } from "./actions";
import { fileToApi, ticketFor } from "./answers";
import { addToThread, announceChange, tellOthers } from "./moves";
import { type RequestRow, requestFor, type Side, sideOf } from "./sides";
import { auditMove, type RequestOrigin } from "./trail";

type FileRow = typeof tuningRequestFiles.$inferSelect;

/** Attaches the uploaded file to the thread of the request (as `requestFor` gave it before the upload), with its message; answers the ticket. */
export async function attachFile(
  ctx: AppContext,
  caller: VerifiedCaller,
  { row: before, side }: { row: RequestRow; side: Side },
  file: UploadedFile,
  text: string,
  origin: RequestOrigin,
): Promise<TuningRequest> {
  await ctx.blobs.adopt(file.path, file.sha256);
  const row = await ctx.notifications.transaction(async (tx, notify) => {
    const { row: locked } = await requestFor(tx, caller, before.id, true);
    const now = new Date();
    const [stored] = await tx
      .insert(tuningRequestFiles)
      .values({
        requestId: locked.id,
        vehicleId: locked.vehicleId,
        kind: "attachment",
        name: file.filename || "attachment",
        sha256: file.sha256,
        size: file.size,
        senderUid: caller.uid,
        sender: side.actor === "admin" ? "admin" : side.actor === "customer" ? "customer" : "dealer",
      })
      .returning();
    await addToThread(tx, locked.id, {
      kind: "message",
      actor: side.actor,
      actorUid: caller.uid,
      text: text || `Sent ${stored.name}`,
      fileIds: [stored.id],
      at: now,
    });
    await tellOthers(notify, locked, side.actor, {
      kind: "tuning-request.message",
      title: `${stored.name} from the ${side.actor}`,
      body: text,
    });
    const touched = await touch(tx, locked, side, now);
    await auditMove(tx, origin, side, "attachment", locked, touched, `${stored.name} (${stored.sha256})`);
    return touched;
  });
  announceChange(ctx, row.id);
  return ticketFor(ctx.db, row, caller);
}

/** A file of the ticket the caller may download: the stock read and attachments for both sides, revisions within the protection. */
export async function requestFileFor(
  ctx: AppContext,
  caller: VerifiedCaller,
  id: string,
  fileId: string,
): Promise<FileRow> {
  const { db } = ctx;
  const { row, side } = await requestFor(db, caller, id);
  const [file] = await db
    .select()
    .from(tuningRequestFiles)
    .where(and(eq(tuningRequestFiles.id, fileId), eq(tuningRequestFiles.requestId, row.id)));
  if (!file) throw notFound(`File ${fileId}`);
  if (file.kind === "revision" && side.party === "customer") {
    const [tune] = row.tuneFileId
      ? await db.select({ mayDownload: tuneFiles.mayDownload }).from(tuneFiles).where(eq(tuneFiles.id, row.tuneFileId))
      : [];
    if (!tune?.mayDownload)
      throw forbidden("The dealer does not let buyers download their tunes: flash it from the car's page");
  }
  return file;
}

/** Every file exchanged on the car's requests, with who sent it and when, newest first. */
export async function vehicleRequestFiles(
  ctx: AppContext,
  caller: VerifiedCaller,
  vehicleId: string,
): Promise<{ data: TuningRequestFile[]; total: number }> {
  const { db } = ctx;
  const { vehicle, owner } = await vehicleFor(db, vehicleId, caller);
  const rows = await db
    .select({
      file: tuningRequestFiles,
      customerUid: tuningRequests.customerUid,
      dealerUid: tuningRequests.dealerUid,
    })
    .from(tuningRequestFiles)
    .innerJoin(tuningRequests, eq(tuningRequests.id, tuningRequestFiles.requestId))
    .where(
      and(
        eq(tuningRequestFiles.vehicleId, vehicle.id),
        owner || isAdmin(caller) ? undefined : eq(tuningRequests.dealerUid, caller.uid),
      ),
    )
    .orderBy(sql`${tuningRequestFiles.createdAt} DESC`, tuningRequestFiles.id);
  const data = rows.filter((row) => sideOf(caller, row) !== null || owner).map((row) => fileToApi(row.file));
  return { data, total: data.length };
}
