/**
 * How a tune file reaches customers: publishing it on terms (a priced tune needs a payout account
 * that takes charges), withdrawing it, granting it to a vehicle without payment, and the version a
 * caller may download. What a caller may do is decided in ./tune-access.
 */
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { tuneFilePublishSchema } from "../../contracts/tune-files";
import type { Db } from "../db/connection";
import { tuneFilePurchases, tuneFiles } from "../db/schema";
import { auditChangeTo, changedFields } from "./audit";
import { forbidden, invalid, NotFoundRefusal, Refusal } from "./errors";
import type { VerifiedCaller } from "./identity";
import { readyAccountOf } from "./payments/accounts";
import type { Requester } from "./requester";
import { ownTune, vehicleFor, versionRow, visibleTune } from "./tune-access";
import { tuneAudited } from "./tune-file-records";

/** Publishes the tune on the terms given. */
export async function publishTuneFile(
  db: Db,
  by: Requester,
  id: string,
  body: z.output<typeof tuneFilePublishSchema>,
): Promise<void> {
  const tune = await ownTune(db, id, by.caller);
  // A sale is paid to the dealer's payout account: a priced tune waits for one that takes charges.
  if (body.priceCents > 0 && !(await readyAccountOf(db, tune.dealerUid))) {
    const message =
      "set up your payout account before selling (My tunes → Sales and payments); a free tune can be published without one";
    throw new Refusal("conflict", "No payout account", message, [
      { path: "priceCents", message: "needs a payout account that takes charges" },
    ]);
  }
  await db.transaction(async (tx) => {
    const [published] = await tx
      .update(tuneFiles)
      .set({
        published: true,
        priceCents: body.priceCents,
        currency: body.currency,
        buyerEmails: [...new Set(body.buyerEmails)],
        ...(body.mayView !== undefined && { mayView: body.mayView }),
        ...(body.mayDownload !== undefined && { mayDownload: body.mayDownload }),
        updatedAt: new Date(),
      })
      .where(eq(tuneFiles.id, id))
      .returning();
    await auditChangeTo(tx, by, tune.dealerUid, {
      action: "tune-file.published",
      targetType: "tune-file",
      targetId: id,
      ...changedFields(tuneAudited(tune), tuneAudited(published)),
    });
  });
}

/** Takes the tune off sale; licences bought stay. */
export async function unpublishTuneFile(db: Db, by: Requester, id: string): Promise<void> {
  const tune = await ownTune(db, id, by.caller);
  await db.transaction(async (tx) => {
    await tx.update(tuneFiles).set({ published: false, updatedAt: new Date() }).where(eq(tuneFiles.id, id));
    await auditChangeTo(tx, by, tune.dealerUid, {
      action: "tune-file.unpublished",
      targetType: "tune-file",
      targetId: id,
      before: { published: tune.published },
      after: { published: false },
    });
  });
}

/**
 * A purchase without payment (orders will replace it): an admin grants any tune to any vehicle;
 * a dealer grants their own tune only to a vehicle they already reach (its owner bought from them,
 * see vehicleFor). Any other vehicle gets the answer an unknown id gets, so a grant neither hands
 * a dealer a stranger's car nor tells that it exists.
 */
export async function grantTuneFile(db: Db, by: Requester, id: string, vehicleId: string) {
  const tune = await ownTune(db, id, by.caller);
  const { vehicle } = await vehicleFor(db, vehicleId, by.caller).catch((error: unknown) => {
    throw error instanceof NotFoundRefusal
      ? invalid("Invalid body", `no vehicle ${vehicleId}`, [{ path: "vehicleId", message: "no such vehicle" }])
      : error;
  });
  if (vehicle.firmwareId && vehicle.firmwareId !== tune.firmwareId) {
    const message = `the vehicle runs firmware ${vehicle.firmwareId}, the tune is for ${tune.firmwareId}`;
    throw new Refusal("unprocessable", "Wrong firmware", message, [{ path: "vehicleId", message }]);
  }
  // A licence on someone's car, given without payment: audited (an admin's or a dealer's gift alike).
  const created = await db.transaction(async (tx) => {
    const [made] = await tx
      .insert(tuneFilePurchases)
      .values({ customerUid: vehicle.ownerUid, tuneFileId: id, vehicleId, grantedBy: by.caller.uid })
      .onConflictDoNothing()
      .returning();
    if (made) {
      await auditChangeTo(tx, by, vehicle.ownerUid, {
        action: "licence.granted",
        targetType: "licence",
        targetId: made.id,
        after: { tuneFileId: id, title: tune.title, vehicleId },
      });
    }
    return made;
  });
  return { tuneFileId: id, vehicleId, customerUid: vehicle.ownerUid, created: Boolean(created) };
}

/** The tune and the version the caller may download: buyers the current one, when its author lets them. */
export async function downloadableVersion(db: Db, caller: VerifiedCaller, id: string, version: number | undefined) {
  const { row, access } = await visibleTune(db, id, caller);
  if (!access.download)
    throw forbidden(
      access.bought ? "The tune's author does not let buyers download it; flash it from the app" : "Buy the tune first",
    );
  if (version !== undefined && version !== row.currentVersion && !access.owner)
    throw forbidden("Buyers get the current version only");
  return { row, stored: await versionRow(db, row.id, version ?? row.currentVersion) };
}
