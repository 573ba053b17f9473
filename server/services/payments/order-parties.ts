/**
 * Who and what an order is between, for its checkout and receipt: the car as its vehicle card
 * names it and the selling dealer as the dealer directory names them. Read from the car and the
 * dealer's profile as they are now, since an order stores only their ids.
 */
import { eq } from "drizzle-orm";
import type { CheckoutVehicle } from "../../../contracts/payments";
import type { Db, Tx } from "../../db/handle";
import { dealerProfiles, userVehicles } from "../../db/schema";
import { catalogueOf } from "../vehicles";

type Reader = Db | Tx;

/** The car an order's licence binds to; null once the car is removed. */
export async function checkoutVehicleOf(db: Reader, vehicleId: string): Promise<CheckoutVehicle | null> {
  const [row] = await db.select().from(userVehicles).where(eq(userVehicles.id, vehicleId));
  if (!row) return null;
  const catalogue = row.firmwareId ? (await catalogueOf(db, [row.firmwareId])).get(row.firmwareId) : undefined;
  return { id: row.id, name: row.name, vin: row.vin, catalogue: catalogue ?? null };
}

/** The selling dealer's business name; null if they have no dealer profile. */
export async function dealerNameOf(db: Reader, dealerUid: string) {
  const [row] = await db
    .select({ uid: dealerProfiles.userUid, businessName: dealerProfiles.businessName })
    .from(dealerProfiles)
    .where(eq(dealerProfiles.userUid, dealerUid));
  return row ?? null;
}
