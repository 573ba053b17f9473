/**
 * Who may act on a vehicle: its owner and admins always; a dealer when its
 * owner bought a tune of theirs for it (a purchase row; until the vehicles
 * issue adds tuning requests and shares, nothing else links a dealer to a
 * car). A dealer cannot make that link themselves: `grant` only reaches cars
 * they already reach. Anyone else is told the vehicle does not exist, so ids
 * cannot be probed. What a managing dealer may change is decided per route:
 * never the owner's stock read.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/connection";
import { tuneFilePurchases, tuneFiles, userVehicles } from "../db/schema";
import { notFound } from "../errors";
import type { VerifiedCaller } from "./identity";

export type VehicleRow = typeof userVehicles.$inferSelect;

export async function dealerManages(db: Db, dealerUid: string, vehicleId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: tuneFilePurchases.id })
    .from(tuneFilePurchases)
    .innerJoin(tuneFiles, eq(tuneFiles.id, tuneFilePurchases.tuneFileId))
    .where(and(eq(tuneFilePurchases.vehicleId, vehicleId), eq(tuneFiles.dealerUid, dealerUid)))
    .limit(1);
  return Boolean(row);
}

export async function vehicleFor(db: Db, id: string, caller: VerifiedCaller): Promise<{ vehicle: VehicleRow; owner: boolean }> {
  const [vehicle] = await db.select().from(userVehicles).where(eq(userVehicles.id, id));
  if (vehicle && (caller.role === "admin" || vehicle.ownerUid === caller.uid)) return { vehicle, owner: vehicle.ownerUid === caller.uid };
  if (vehicle && caller.role === "dealer" && (await dealerManages(db, caller.uid, id))) return { vehicle, owner: false };
  throw notFound(`Vehicle ${id}`);
}
