/**
 * Who may do what with tune files, their versions, bakes and vehicles. Every
 * function takes the database handle to query through: inside a transaction
 * pass the transaction, never the outer handle.
 *
 * - admins: everything;
 * - a dealer: their own tune files, and the vehicles they manage: vehicles
 *   whose owner bought a tune file of theirs or asked them for a custom tune
 *   (dealerManagesSql). A dealer cannot make that link themselves:
 *   `grant` only reaches cars they already reach. What a managing dealer may
 *   change is decided per route: never the owner's stock read;
 * - a customer: their own vehicles, and a bought tune within its protection
 *   (mayView: the map-level changes; mayDownload: the bytes).
 *
 * Anyone else is told the tune or vehicle does not exist, so ids cannot be probed.
 */
import { type AnyColumn, and, desc, eq, getTableColumns, gt, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { TuneFile } from "../../contracts/tune-files";
import type { Db } from "../db/connection";
import type { Tx } from "../db/handle";
import {
  bakedTuneFiles,
  dealerProfiles,
  tuneFilePurchases,
  tuneFiles,
  tuneFileVersions,
  tuningRequests,
  users,
  userVehicles,
} from "../db/schema";
import { forbidden, notFound } from "./errors";
import type { VerifiedCaller } from "./identity";
import { offerOf } from "./tune-offers";

type Handle = Tx | Db;

export type TuneRow = typeof tuneFiles.$inferSelect & { dealerName: string | null };
export type VersionRow = typeof tuneFileVersions.$inferSelect;
export type BakedRow = typeof bakedTuneFiles.$inferSelect;
export type VehicleRow = typeof userVehicles.$inferSelect;

export const isAdmin = (caller: VerifiedCaller) => caller.role === "admin";

/**
 * A tune file's columns with its seller's name: the dealer profile's business name, the one the
 * directory, the request form and the orders show, and the user's display name only without a profile.
 */
export const tuneColumns = {
  ...getTableColumns(tuneFiles),
  dealerName: sql<
    string | null
  >`coalesce((SELECT ${dealerProfiles.businessName} FROM ${dealerProfiles} WHERE ${dealerProfiles.userUid} = ${tuneFiles.dealerUid}), ${users.displayName})`,
};

export async function tuneRow(db: Handle, id: string): Promise<TuneRow> {
  const [row] = await db
    .select(tuneColumns)
    .from(tuneFiles)
    .leftJoin(users, eq(users.uid, tuneFiles.dealerUid))
    .where(eq(tuneFiles.id, id));
  if (!row) throw notFound(`Tune file ${id}`);
  return row;
}

/** Which of these tune files the customer bought (for any vehicle). */
export async function boughtBy(db: Handle, uid: string, tuneFileIds: string[]): Promise<Set<string>> {
  if (tuneFileIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ id: tuneFilePurchases.tuneFileId })
    .from(tuneFilePurchases)
    .where(and(eq(tuneFilePurchases.customerUid, uid), inArray(tuneFilePurchases.tuneFileId, tuneFileIds)));
  return new Set(rows.map((row) => row.id));
}

export function accessOf(row: TuneRow, caller: VerifiedCaller, bought: boolean): TuneFile["access"] {
  const owner = isAdmin(caller) || row.dealerUid === caller.uid;
  return { owner, bought, view: owner || (bought && row.mayView), download: owner || (bought && row.mayDownload) };
}

/** Not visible is 404, not 403: an unpublished tune's existence is the dealer's business. */
export async function visibleTune(db: Db, id: string, caller: VerifiedCaller) {
  const row = await tuneRow(db, id);
  const access = accessOf(row, caller, (await boughtBy(db, caller.uid, [row.id])).has(row.id));
  if (!access.owner && !access.bought && !(row.published && (await offerOf(db, row, caller)).offered))
    throw notFound(`Tune file ${id}`);
  return { row, access };
}

/** The tune for its dealer (or an admin) to change: others who see it are refused, the rest told it does not exist. */
export async function ownTune(db: Handle, id: string, caller: VerifiedCaller) {
  const row = await tuneRow(db, id);
  if (!accessOf(row, caller, false).owner) {
    if (row.published || (await boughtBy(db, caller.uid, [row.id])).has(row.id))
      throw forbidden("Only the tune's dealer (or an admin) may change it");
    throw notFound(`Tune file ${id}`);
  }
  return row;
}

export async function versionsOf(db: Db, tuneFileId: string): Promise<VersionRow[]> {
  return db
    .select()
    .from(tuneFileVersions)
    .where(eq(tuneFileVersions.tuneFileId, tuneFileId))
    .orderBy(desc(tuneFileVersions.number));
}

export async function versionRow(db: Db, tuneFileId: string, number: number): Promise<VersionRow> {
  const [row] = await db
    .select()
    .from(tuneFileVersions)
    .where(and(eq(tuneFileVersions.tuneFileId, tuneFileId), eq(tuneFileVersions.number, number)));
  if (!row) throw notFound(`Version ${number} of tune file ${tuneFileId}`);
  return row;
}

// ---------------------------------------------------------------------------
// Vehicles

/**
 * True where the dealer manages the car in `vehicleId` (a column or a value): its owner bought (or
 * was granted) one of the dealer's tunes for it, or asked the dealer for a custom tune for it in a
 * request that was not cancelled or declined.
 */
export function dealerManagesSql(dealerUid: string, vehicleId: SQL | AnyColumn | string): SQL {
  return sql`(EXISTS (SELECT 1 FROM ${tuneFilePurchases} JOIN ${tuneFiles} ON ${tuneFiles.id} = ${tuneFilePurchases.tuneFileId}
      WHERE ${tuneFilePurchases.vehicleId} = ${vehicleId} AND ${tuneFiles.dealerUid} = ${dealerUid})
    OR EXISTS (SELECT 1 FROM ${tuningRequests} WHERE ${tuningRequests.vehicleId} = ${vehicleId} AND ${tuningRequests.dealerUid} = ${dealerUid}
      AND ${tuningRequests.state} NOT IN ('cancelled', 'not-possible')))`;
}

export async function dealerManages(db: Db, dealerUid: string, vehicleId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: userVehicles.id })
    .from(userVehicles)
    .where(and(eq(userVehicles.id, vehicleId), dealerManagesSql(dealerUid, userVehicles.id)));
  return Boolean(row);
}

export async function vehicleFor(
  db: Db,
  id: string,
  caller: VerifiedCaller,
): Promise<{ vehicle: VehicleRow; owner: boolean }> {
  const [vehicle] = await db.select().from(userVehicles).where(eq(userVehicles.id, id));
  if (vehicle && (caller.role === "admin" || vehicle.ownerUid === caller.uid))
    return { vehicle, owner: vehicle.ownerUid === caller.uid };
  if (vehicle && caller.role === "dealer" && (await dealerManages(db, caller.uid, id)))
    return { vehicle, owner: false };
  throw notFound(`Vehicle ${id}`);
}

// ---------------------------------------------------------------------------
// Bakes

/** A kept bake or an unexpired preview. */
export async function bakedRow(db: Db, id: string): Promise<BakedRow> {
  const [row] = await db
    .select()
    .from(bakedTuneFiles)
    .where(
      and(eq(bakedTuneFiles.id, id), or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date()))),
    );
  if (!row) throw notFound(`Baked tune file ${id}`);
  return row;
}

/** What the caller may do with a bake: protection follows the tune it was made from. Whoever may see the vehicle may see (and delete) its bakes; a direct bake carries no protection of a tune. */
export async function bakeAccess(
  db: Db,
  row: BakedRow,
  caller: VerifiedCaller,
): Promise<{ view: boolean; download: boolean }> {
  await vehicleFor(db, row.vehicleId, caller).catch(() => {
    throw notFound(`Baked tune file ${row.id}`);
  });
  if (!row.tuneFileId) return { view: true, download: true };
  const { view, download } = accessOf(await tuneRow(db, row.tuneFileId), caller, true);
  return { view, download };
}
