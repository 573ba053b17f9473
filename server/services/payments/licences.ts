/**
 * Licences are used by verified flashes only: the first session that writes a tune and ends in
 * success marks the car's licence for it used. A failed flash, or one recovered by a stock write,
 * leaves it unused, so a customer never loses a licence to a flash that did not take.
 */
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Licence } from "../../../contracts/payments";
import type { AppContext } from "../../context";
import type { Db, Tx } from "../../db/handle";
import { orders, tuneFilePurchases, tuneFiles } from "../../db/schema";
import { auditChangeTo } from "../audit";
import { NotFoundRefusal, Refusal } from "../errors";
import type { VerifiedCaller } from "../identity";
import { isAdmin, vehicleFor } from "../tune-access";
import { requestRefund } from "./orders";

export async function consumeLicence(db: Db | Tx, flash: { vehicleId: string; tuneFileId: string }): Promise<void> {
  await db
    .update(tuneFilePurchases)
    .set({ consumedAt: new Date() })
    .where(
      and(
        eq(tuneFilePurchases.vehicleId, flash.vehicleId),
        eq(tuneFilePurchases.tuneFileId, flash.tuneFileId),
        isNull(tuneFilePurchases.consumedAt),
      ),
    );
}

/** The car's licences, newest first, with each tune's title and dealer. */
export async function licencesOf(db: Db | Tx, vehicleId: string): Promise<Licence[]> {
  const rows = await db
    .select({ purchase: tuneFilePurchases, title: tuneFiles.title, dealerUid: tuneFiles.dealerUid })
    .from(tuneFilePurchases)
    .innerJoin(tuneFiles, eq(tuneFiles.id, tuneFilePurchases.tuneFileId))
    .where(eq(tuneFilePurchases.vehicleId, vehicleId))
    .orderBy(desc(tuneFilePurchases.createdAt));
  return rows.map(({ purchase, title, dealerUid }) => ({
    id: purchase.id,
    tuneFileId: purchase.tuneFileId,
    vehicleId: purchase.vehicleId,
    customerUid: purchase.customerUid,
    title,
    dealerUid,
    orderId: purchase.orderId,
    grantedBy: purchase.grantedBy,
    boundTo: { vin: purchase.vin, ecuSerial: purchase.ecuSerial, softwareId: purchase.softwareId },
    consumedAt: purchase.consumedAt?.toISOString() ?? null,
    createdAt: purchase.createdAt.toISOString(),
  }));
}

/** The licences of a car the caller reaches. */
export async function licencesFor(db: Db, caller: VerifiedCaller, vehicleId: string): Promise<Licence[]> {
  const { vehicle } = await vehicleFor(db, vehicleId, caller);
  return licencesOf(db, vehicle.id);
}

/**
 * Removes a licence of a car the caller reaches (an admin, or the dealer who sold it), with the reason the
 * customer is told. A paid one is refunded: the provider's refund event removes the licence and
 * reverses the ledger. A granted one is removed at once, with its audit row and notification.
 * Answers the car's licences after.
 */
export async function removeLicence(
  ctx: AppContext,
  asker: { caller: VerifiedCaller; id: string },
  vehicleId: string,
  removal: { tuneFileId: string; reason: string },
): Promise<Licence[]> {
  const { vehicle } = await vehicleFor(ctx.db, vehicleId, asker.caller);
  await withdrawLicence(ctx, asker, vehicle.id, removal);
  return licencesOf(ctx.db, vehicle.id);
}

async function withdrawLicence(
  ctx: AppContext,
  asker: { caller: VerifiedCaller; id: string },
  vehicleId: string,
  { tuneFileId, reason }: { tuneFileId: string; reason: string },
): Promise<void> {
  const { caller } = asker;
  const [licence] = await ctx.db
    .select({ purchase: tuneFilePurchases, dealerUid: tuneFiles.dealerUid, title: tuneFiles.title })
    .from(tuneFilePurchases)
    .innerJoin(tuneFiles, eq(tuneFiles.id, tuneFilePurchases.tuneFileId))
    .where(and(eq(tuneFilePurchases.vehicleId, vehicleId), eq(tuneFilePurchases.tuneFileId, tuneFileId)));
  if (!licence) throw new NotFoundRefusal(`A licence of tune ${tuneFileId} for this car`);
  if (!isAdmin(caller) && licence.dealerUid !== caller.uid)
    throw new Refusal("forbidden", "Forbidden", "Only an admin or the dealer who sold it removes a licence");
  const [order] = licence.purchase.orderId
    ? await ctx.db.select().from(orders).where(eq(orders.id, licence.purchase.orderId))
    : [];
  const { purchase } = licence;
  const change = (action: string) => ({
    action,
    targetType: "licence",
    targetId: purchase.id,
    before: {
      tuneFileId: purchase.tuneFileId,
      title: licence.title,
      vehicleId: purchase.vehicleId,
      orderId: purchase.orderId,
      grantedBy: purchase.grantedBy,
      ...(order && { orderStatus: order.status, amountCents: order.amountCents, currency: order.currency }),
    },
    after: { reason },
  });
  if (order?.status === "paid" && order.paymentId) {
    await requestRefund(ctx, order, reason, (tx) =>
      auditChangeTo(tx, asker, purchase.customerUid, change("licence.refund-requested")),
    );
    return;
  }
  await ctx.notifications.transaction(async (tx, notify) => {
    await tx.delete(tuneFilePurchases).where(eq(tuneFilePurchases.id, purchase.id));
    await auditChangeTo(tx, asker, purchase.customerUid, change("licence.removed"));
    await notify({
      recipientUid: purchase.customerUid,
      kind: "order.refunded",
      title: `Licence removed: ${licence.title}`,
      body: `Reason: ${reason}`,
      link: `/my-devices/${vehicleId}`,
    });
  });
}
