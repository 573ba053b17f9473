/**
 * What happened to a car: its ECU snapshots and the files attached to it, each found for a caller
 * who reaches the car (services/tune-access.ts vehicleFor). Its timeline is timeline.ts.
 */
import { and, eq, gt, isNull, or } from "drizzle-orm";
import type { Snapshot } from "../../../contracts/user-vehicles";
import type { AppContext } from "../../context";
import type { Db } from "../../db/connection";
import { bakedTuneFiles, dataLogs, vehicleSnapshots } from "../../db/schema";
import { forbidden, notFound } from "../errors";
import { grantOfToken } from "../flash-grants";
import type { VerifiedCaller } from "../identity";
import type { Lister } from "../list-pages";
import { snapshotToApi } from "../snapshots";
import { bakeAccess, type VehicleRow, vehicleFor } from "../tune-access";

type SnapshotRow = typeof vehicleSnapshots.$inferSelect;
type BakedRow = typeof bakedTuneFiles.$inferSelect;
type LogRow = typeof dataLogs.$inferSelect;

/** A page of the car's ECU snapshots. */
export async function snapshotPageOf<Page extends { data: SnapshotRow[] }>(
  db: Db,
  caller: VerifiedCaller,
  vehicleId: string,
  list: Lister<SnapshotRow, Page>,
): Promise<Omit<Page, "data"> & { data: Snapshot[] }> {
  const { vehicle } = await vehicleFor(db, vehicleId, caller);
  const page = await list(
    ({ where, orderBy, limit, offset }) =>
      db
        .select()
        .from(vehicleSnapshots)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    eq(vehicleSnapshots.vehicleId, vehicle.id),
  );
  return { ...page, data: page.data.map(snapshotToApi) };
}

/** Unexpired bakes of the car: kept ones and live previews. */
export const liveBakeOf = (vehicleId: string) =>
  and(
    eq(bakedTuneFiles.vehicleId, vehicleId),
    or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date())),
  );

/** A file attached to a car, with the car it belongs to. */
export type AttachedFile =
  | { kind: "stock-read"; vehicle: VehicleRow }
  | { kind: "bake"; vehicle: VehicleRow; baked: BakedRow }
  | { kind: "log"; vehicle: VehicleRow; log: LogRow };

/**
 * `stock-read`, or a baked file or data log of the car, once the caller may have it: a protected
 * tune's bake only with the download right or the grant of its pre-flight (`grantToken`), a log
 * only for its owner, the car's owner and admins (a dealer who manages the car sees it only when shared).
 */
export async function attachedFileOf(
  ctx: Pick<AppContext, "db" | "secrets">,
  caller: VerifiedCaller,
  vehicleId: string,
  fileId: string,
  grantToken: string | undefined,
): Promise<AttachedFile> {
  const { db } = ctx;
  const { vehicle, owner } = await vehicleFor(db, vehicleId, caller);
  if (fileId === "stock-read") return { kind: "stock-read", vehicle };
  const [baked] = await db
    .select()
    .from(bakedTuneFiles)
    .where(and(eq(bakedTuneFiles.id, fileId), liveBakeOf(vehicle.id)));
  if (baked) {
    // The app reads a protected tune's bake only to write it, with the grant of its pre-flight for that file.
    const granted =
      grantToken !== undefined &&
      (await grantOfToken(db, ctx.secrets, grantToken, vehicle.id, { allowUsed: true })).bakedTuneFileId === baked.id;
    if (!granted && !(await bakeAccess(db, baked, caller)).download)
      throw forbidden("The tune's author does not let buyers download it; flash it from the app");
    return { kind: "bake", vehicle, baked };
  }
  const [log] = await db
    .select()
    .from(dataLogs)
    .where(and(eq(dataLogs.id, fileId), eq(dataLogs.vehicleId, vehicle.id)));
  if (log && (log.ownerUid === caller.uid || caller.role === "admin" || owner)) return { kind: "log", vehicle, log };
  throw notFound(`File ${fileId} of vehicle ${vehicle.id}`);
}
