/**
 * Licences are used by verified flashes only: the first session that writes a tune and ends in
 * success marks the car's licence for it used. A failed flash, or one recovered by a stock write,
 * leaves it unused, so a customer never loses a licence to a flash that did not take.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Db, Tx } from "../../db/handle";
import { tuneFilePurchases } from "../../db/schema";

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
