/**
 * User vehicles as the API answers them: identity, support state, the owner's
 * fields (hidden from a dealer), the current tune and last flash. Rows are
 * turned into answers a page at a time, with one query per related table.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { flashingProfileSchema } from "../../contracts/firmware-support";
import type { DeviceAttributes, Vehicle } from "../../contracts/user-vehicles";
import type { Db, Tx } from "../db/handle";
import { firmwareSupport, flashLogs, supportedVehicles, supportRequests, users, type userVehicles } from "../db/schema";
import type { VerifiedCaller } from "./identity";

export type VehicleRow = typeof userVehicles.$inferSelect;
type Reader = Db | Tx;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The owner and admins see the owner's private fields; a dealer who manages the car does not. */
export const seesPrivateFields = (vehicle: Pick<VehicleRow, "ownerUid">, caller: VerifiedCaller) =>
  caller.role === "admin" || vehicle.ownerUid === caller.uid;

interface SupportFacts {
  ecuFamily: string;
  flashing: boolean;
}

/** What the catalogue says of each firmware id: its family and whether it can be flashed. */
async function supportOf(db: Reader, firmwareIds: string[]): Promise<Map<string, SupportFacts>> {
  if (firmwareIds.length === 0) return new Map();
  const rows = await db
    .select({
      firmwareId: firmwareSupport.firmwareId,
      ecuFamily: firmwareSupport.ecuFamily,
      enabled: firmwareSupport.flashingEnabled,
      profile: firmwareSupport.flashing,
    })
    .from(firmwareSupport)
    .where(inArray(firmwareSupport.firmwareId, firmwareIds));
  return new Map(
    rows.map((row) => [
      row.firmwareId,
      { ecuFamily: row.ecuFamily, flashing: row.enabled && flashingProfileSchema.safeParse(row.profile).success },
    ]),
  );
}

type CatalogueCar = NonNullable<Vehicle["catalogue"]>;

/** The supported-vehicle record of each firmware id: the car's make, model and engine. */
export async function catalogueOf(db: Reader, firmwareIds: string[]): Promise<Map<string, CatalogueCar>> {
  if (firmwareIds.length === 0) return new Map();
  const rows = await db
    .select({
      make: supportedVehicles.make,
      model: supportedVehicles.model,
      engine: supportedVehicles.engine,
      firmwareIds: supportedVehicles.firmwareIds,
    })
    .from(supportedVehicles)
    .where(
      sql`${supportedVehicles.firmwareIds} && ARRAY[${sql.join(
        firmwareIds.map((id) => sql`${id}`),
        sql`, `,
      )}]::text[]`,
    )
    .orderBy(supportedVehicles.make, supportedVehicles.model, supportedVehicles.id);
  const cars = new Map<string, CatalogueCar>();
  for (const { firmwareIds: ids, ...car } of rows)
    for (const id of ids) if (firmwareIds.includes(id) && !cars.has(id)) cars.set(id, car);
  return cars;
}

/** A car's name from its catalogue record: "Demo Motors Hatchback 2.0 turbo". */
export const catalogueName = (car: CatalogueCar) => `${car.make} ${car.model} ${car.engine}`.trim();

/** The firmware id the catalogue knows for an ECU software id, or null. */
export async function firmwareForSoftware(db: Reader, softwareId: string): Promise<string | null> {
  const [row] = await db
    .select({ firmwareId: firmwareSupport.firmwareId })
    .from(firmwareSupport)
    .where(sql`upper(${firmwareSupport.firmwareId}) = upper(${softwareId})`)
    .limit(1);
  return row?.firmwareId ?? null;
}

/** Each vehicle's newest flash, and its newest successful one (what is on the car now). */
async function flashesOf(db: Reader, vehicleIds: string[]) {
  const last = new Map<string, typeof flashLogs.$inferSelect>();
  const current = new Map<string, typeof flashLogs.$inferSelect>();
  if (vehicleIds.length === 0) return { last, current };
  const newest = await db
    .selectDistinctOn([flashLogs.vehicleId])
    .from(flashLogs)
    .where(inArray(flashLogs.vehicleId, vehicleIds))
    .orderBy(flashLogs.vehicleId, desc(flashLogs.flashedAt), desc(flashLogs.id));
  for (const row of newest) last.set(row.vehicleId, row);
  const succeeded = await db
    .selectDistinctOn([flashLogs.vehicleId])
    .from(flashLogs)
    .where(and(inArray(flashLogs.vehicleId, vehicleIds), eq(flashLogs.result, "success")))
    .orderBy(flashLogs.vehicleId, desc(flashLogs.flashedAt), desc(flashLogs.id));
  for (const row of succeeded) current.set(row.vehicleId, row);
  return { last, current };
}

/** The support request each owner already made for each VIN (newest). */
async function supportRequestsOf(db: Reader, rows: VehicleRow[]): Promise<Map<string, string>> {
  const vins = [...new Set(rows.flatMap((row) => (row.vin ? [row.vin] : [])))];
  if (vins.length === 0) return new Map();
  const requests = await db
    .select({ id: supportRequests.id, vin: supportRequests.vin, requesterUid: supportRequests.requesterUid })
    .from(supportRequests)
    .where(inArray(supportRequests.vin, vins))
    .orderBy(desc(supportRequests.createdAt));
  const found = new Map<string, string>();
  for (const request of requests) {
    const key = `${request.requesterUid} ${request.vin}`;
    if (!found.has(key)) found.set(key, request.id);
  }
  return found;
}

export async function vehiclesToApi(db: Reader, rows: VehicleRow[], caller: VerifiedCaller): Promise<Vehicle[]> {
  const firmwareIds = [...new Set(rows.flatMap((row) => (row.firmwareId ? [row.firmwareId] : [])))];
  const ownerUids = [...new Set(rows.map((row) => row.ownerUid))];
  const [support, catalogue, flashes, requests, owners] = await Promise.all([
    supportOf(db, firmwareIds),
    catalogueOf(db, firmwareIds),
    flashesOf(
      db,
      rows.map((row) => row.id),
    ),
    supportRequestsOf(db, rows),
    ownerUids.length
      ? db
          .select({ uid: users.uid, email: users.email, displayName: users.displayName })
          .from(users)
          .where(inArray(users.uid, ownerUids))
      : [],
  ]);
  const ownerOf = new Map(owners.map((owner) => [owner.uid, owner]));
  return rows.map((row) => {
    const full = seesPrivateFields(row, caller);
    const facts = row.firmwareId ? support.get(row.firmwareId) : undefined;
    const owner = ownerOf.get(row.ownerUid);
    const last = flashes.last.get(row.id);
    const current = flashes.current.get(row.id);
    return {
      id: row.id,
      ownerUid: row.ownerUid,
      ownerName: owner?.displayName ?? null,
      ownerEmail: full ? (owner?.email ?? null) : null,
      name: row.name,
      vin: row.vin,
      ecu: {
        softwareId: row.softwareId,
        hardwareNumber: row.hardwareNumber,
        ecuSerial: row.ecuSerial,
        bootloaderVersion: row.bootloaderVersion,
      },
      firmwareId: row.firmwareId,
      catalogue: (row.firmwareId && catalogue.get(row.firmwareId)) || null,
      support: facts
        ? {
            state: "supported",
            reason: facts.flashing ? null : "flashing is not yet supported for this firmware",
            ecuFamily: facts.ecuFamily,
            flashing: facts.flashing,
            supportRequestId: null,
          }
        : {
            state: "unsupported",
            reason: row.softwareId
              ? `software ${row.softwareId} is not in the catalogue yet: ask for support and an admin will add it`
              : "the car's software is not known yet: connect it with the app",
            ecuFamily: null,
            flashing: false,
            supportRequestId: requests.get(`${row.ownerUid} ${row.vin}`) ?? null,
          },
      modifications: full ? row.modifications : null,
      notes: full ? row.notes : null,
      fuel: full ? row.fuel : null,
      dynoProfile: (row.dynoProfile as Vehicle["dynoProfile"]) ?? null,
      deviceAttributes: full ? (row.deviceAttributes as DeviceAttributes) : null,
      stockDump: row.stockDumpSha256
        ? {
            sha256: row.stockDumpSha256,
            size: row.stockDumpSize ?? 0,
            slot: row.stockDumpSlot,
            uploadedAt: iso(row.stockDumpUploadedAt),
          }
        : null,
      currentTune: current
        ? { tuneFileId: current.tuneFileId, title: current.tuneTitle, version: current.tuneVersion, kind: current.kind }
        : null,
      lastFlash: last ? { id: last.id, result: last.result, at: last.flashedAt.toISOString() } : null,
      lastConnectedAt: iso(row.lastConnectedAt),
      lastBatteryVolts: row.lastBatteryVolts,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

export async function vehicleToApiFull(db: Reader, row: VehicleRow, caller: VerifiedCaller): Promise<Vehicle> {
  const [answer] = await vehiclesToApi(db, [row], caller);
  return answer;
}
