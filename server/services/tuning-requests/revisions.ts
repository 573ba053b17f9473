/**
 * The dealer delivers a revision: the file must be the car's firmware with valid checksums (or
 * fixed, when asked); it becomes the next version of the request's tune file, licensed to the car
 * at once, with its map-level changes against the stock read and the previous revision.
 */
import { and, eq } from "drizzle-orm";
import type { ChecksumScheme } from "../../../contracts/tune-definition";
import type { MapChange, RevisionCheck, TuningRequest } from "../../../contracts/tuning-requests";
import { diffImages, summarizeChanges } from "../../../domain/tune";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/handle";
import { tuneFilePurchases, tuneFiles, tuneFileVersions, tuningRequestFiles } from "../../db/schema";
import { conflict } from "../errors";
import { definitionOf } from "../firmware-support/reads";
import type { VerifiedCaller } from "../identity";
import type { Notify } from "../notifications";
import { readImage } from "../tune-files";
import { acceptImage, checkImage } from "../tune-uploads";
import type { UploadedFile } from "../uploaded-file";
import { ticketFor } from "./answers";
import { addToThread, announceChange, moveRequest } from "./moves";
import { type Handle, mustMove, paidOrderOf, type RequestRow, referenceOf, requestFor, type Side } from "./sides";
import { auditMove, type RequestOrigin } from "./trail";

export interface Delivery {
  file: UploadedFile;
  note: string;
  fixChecksums: boolean;
}

type AcceptedImage = Awaited<ReturnType<typeof acceptImage>>;

/** The request the caller may deliver to now, checked before the upload is read. */
export async function deliverableRequest(
  ctx: AppContext,
  caller: VerifiedCaller,
  id: string,
): Promise<{ row: RequestRow; side: Side }> {
  const found = await requestFor(ctx.db, caller, id);
  mustMove(found.row, "deliver", found.side.party);
  if (!found.row.vehicleId)
    throw conflict("the car was removed by its owner: there is nothing to deliver to", [
      { path: "action", message: "the car was removed" },
    ]);
  return found;
}

/** What a revision for the request must be, in the request's terms. */
const expectedFor = (row: RequestRow) => ({ firmwareId: row.firmwareId, of: "This request" });

/** The request's last delivered revision file, or null before the first. */
export async function lastRevisionOf(db: Handle, row: Pick<RequestRow, "id" | "revisions">) {
  if (!row.revisions) return null;
  const [last] = await db
    .select()
    .from(tuningRequestFiles)
    .where(
      and(
        eq(tuningRequestFiles.requestId, row.id),
        eq(tuningRequestFiles.kind, "revision"),
        eq(tuningRequestFiles.revision, row.revisions),
      ),
    );
  return last ?? null;
}

/** The revision's changes from the stock read and from the previous revision (null for the first). */
async function changesOf(ctx: AppContext, before: RequestRow, revised: Uint8Array, checksums: ChecksumScheme[]) {
  const definition = await definitionOf(ctx.db, before.firmwareId);
  const stock = await readImage(ctx, before.stockSha256);
  const changes = async (base: Uint8Array) =>
    summarizeChanges(await diffImages(base, revised, { definition: definition ?? undefined, checksums }));
  const previous = await lastRevisionOf(ctx.db, before);
  const fromStock = await changes(stock);
  const fromPrevious = previous ? await changes(await readImage(ctx, previous.sha256)) : null;
  return { fromStock, fromPrevious };
}

/** The request's tune file (made on the first delivery) with the revision as its next version, licensed to the car. */
async function storeVersion(tx: Tx, locked: RequestRow, image: AcceptedImage, delivery: Delivery, uid: string) {
  const number = locked.revisions + 1;
  const now = new Date();
  let tuneFileId = locked.tuneFileId;
  if (!tuneFileId) {
    const [tune] = await tx
      .insert(tuneFiles)
      .values({
        dealerUid: locked.dealerUid,
        firmwareId: locked.firmwareId,
        title: `Custom tune ${referenceOf(locked)} for ${locked.vehicleName}`,
        description: `Made for ${locked.vehicleName} (${locked.vin ?? "no VIN"}) on request ${referenceOf(locked)}`,
      })
      .returning();
    tuneFileId = tune.id;
  }
  await tx.insert(tuneFileVersions).values({
    tuneFileId,
    number,
    label: `revision ${number}`,
    notes: delivery.note,
    sha256: image.sha256,
    size: image.size,
    checksums: image.checksums,
    createdBy: uid,
  });
  await tx.update(tuneFiles).set({ currentVersion: number, updatedAt: now }).where(eq(tuneFiles.id, tuneFileId));
  const order = await paidOrderOf(tx, locked.id);
  await tx
    .insert(tuneFilePurchases)
    .values({
      customerUid: locked.customerUid,
      tuneFileId,
      vehicleId: locked.vehicleId!,
      orderId: order?.id ?? null,
      grantedBy: order ? null : locked.dealerUid,
    })
    .onConflictDoNothing();
  return { number, now, tuneFileId };
}

/** Stores the revision and moves the request to delivered, in one transaction under the request's lock. */
async function recordDelivery(
  tx: Tx,
  notify: Notify,
  locked: RequestRow,
  side: Side,
  caller: VerifiedCaller,
  image: AcceptedImage,
  delivery: Delivery,
  changes: { fromStock: MapChange[]; fromPrevious: MapChange[] | null },
): Promise<RequestRow> {
  const to = mustMove(locked, "deliver", side.party);
  const { number, now, tuneFileId } = await storeVersion(tx, locked, image, delivery, caller.uid);
  const { fromStock } = changes;
  const [stored] = await tx
    .insert(tuningRequestFiles)
    .values({
      requestId: locked.id,
      vehicleId: locked.vehicleId,
      kind: "revision",
      name: delivery.file.filename || `revision-${number}.bin`,
      sha256: image.sha256,
      size: image.size,
      senderUid: caller.uid,
      sender: side.actor === "admin" ? "admin" : "dealer",
      revision: number,
      note: delivery.note,
      changesFromStock: fromStock,
      changesFromPrevious: changes.fromPrevious,
    })
    .returning();
  await addToThread(tx, locked.id, {
    kind: "revision",
    actor: side.actor,
    actorUid: caller.uid,
    text: delivery.note,
    fileIds: [stored.id],
    at: now,
  });
  return moveRequest(tx, notify, locked, {
    to,
    actor: side.actor,
    actorUid: caller.uid,
    text: `Revision ${number}: ${fromStock.length} map${fromStock.length === 1 ? "" : "s"} changed from stock${delivery.note ? `. ${delivery.note}` : ""}`,
    title: `revision ${number} delivered: flash it from the car's page`,
    set: {
      tuneFileId,
      revisions: number,
      lastDeliveredAt: now,
      firstDeliveredAt: locked.firstDeliveredAt ?? now,
      dealerReadAt: now,
    },
    at: now,
  });
}

/** Delivers the uploaded revision to the request `deliverableRequest` gave, and answers the ticket. */
export async function deliverRevision(
  ctx: AppContext,
  caller: VerifiedCaller,
  { row: before, side }: { row: RequestRow; side: Side },
  delivery: Delivery,
  origin: RequestOrigin,
): Promise<TuningRequest> {
  const image = await acceptImage(ctx, delivery.file, delivery.fixChecksums, expectedFor(before));
  const changes = await changesOf(ctx, before, await readImage(ctx, image.sha256), image.record.checksums);
  const moved = await ctx.notifications.transaction(async (tx, notify) => {
    const { row: locked } = await requestFor(tx, caller, before.id, true);
    const delivered = await recordDelivery(tx, notify, locked, side, caller, image, delivery, changes);
    await auditMove(tx, origin, side, "deliver", locked, delivered, delivery.note);
    return delivered;
  });
  ctx.vehicleEvents.publish(moved.vehicleId!, {
    type: "order",
    order: { id: moved.id, status: "delivered", tuneFileId: moved.tuneFileId },
  });
  announceChange(ctx, moved.id);
  return ticketFor(ctx.db, moved, caller);
}

/**
 * A revision checked as it would be delivered, and nothing stored: the firmware and size the
 * request needs, the checksums as they verify (or after the portal fixed them, when asked), and
 * the maps it would change, so the dealer sees what the customer will before delivering.
 */
export async function checkRevision(
  ctx: AppContext,
  { row }: { row: RequestRow },
  delivery: Omit<Delivery, "note">,
): Promise<RevisionCheck> {
  const checked = await checkImage(ctx, delivery.file, delivery.fixChecksums, expectedFor(row));
  const changes = await changesOf(ctx, row, checked.image, checked.record.checksums);
  return {
    revision: row.revisions + 1,
    firmwareId: checked.record.firmwareId,
    size: checked.size,
    checksums: checked.checksums,
    checksumsFixed: checked.fixed,
    changesFromStock: changes.fromStock,
    changesFromPrevious: changes.fromPrevious,
  };
}
