/**
 * The vehicles themselves: what the phone app sends when it meets a car (connect), the pages of
 * the caller's and the managed cars, one car, the owner's fields and the app's device attributes.
 * Who reaches a car: `vehicleFor` in services/tune-access.ts.
 */
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  DeviceAttributes,
  Vehicle,
  VehicleConnected,
  vehicleConnectSchema,
  vehiclePatchSchema,
} from "../../../contracts/user-vehicles";
import type { Db } from "../../db/connection";
import { userVehicles, vehicleSnapshots } from "../../db/schema";
import { auditChangeTo, changedFields } from "../audit";
import { forbidden, notFound } from "../errors";
import type { VerifiedCaller } from "../identity";
import type { Lister } from "../list-pages";
import { snapshotValues } from "../snapshots";
import { dealerManagesSql, isAdmin, vehicleFor } from "../tune-access";
import {
  catalogueName,
  catalogueOf,
  firmwareForSoftware,
  seesPrivateFields,
  type VehicleRow,
  vehiclesToApi,
  vehicleToApiFull,
} from "../vehicles";

/** Who asks, for the audit trail: the caller and the request's id. */
type Requester = { caller: VerifiedCaller; id: string };

/**
 * A page of cars: `own` is the caller's (an admin's: every car), `managed` those a dealer
 * manages (an admin's: every car), shown without their owners' private fields.
 */
export async function vehiclePageOf<Page extends { data: VehicleRow[] }>(
  db: Db,
  caller: VerifiedCaller,
  view: "own" | "managed",
  list: Lister<VehicleRow, Page>,
): Promise<Omit<Page, "data"> & { data: Vehicle[] }> {
  const scope = isAdmin(caller)
    ? undefined
    : view === "own"
      ? eq(userVehicles.ownerUid, caller.uid)
      : dealerManagesSql(caller.uid, userVehicles.id);
  const page = await list(
    ({ where, orderBy, limit, offset }) =>
      db
        .select()
        .from(userVehicles)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    scope,
  );
  return { ...page, data: await vehiclesToApi(db, page.data, caller) };
}

/** One car the caller reaches, as the API answers it. */
export async function vehicleOf(db: Db, caller: VerifiedCaller, id: string): Promise<Vehicle> {
  const { vehicle } = await vehicleFor(db, id, caller);
  return vehicleToApiFull(db, vehicle, caller);
}

/**
 * The phone app met a car: find or create the caller's vehicle by (VIN, ECU serial), refresh
 * the identity it read, identify the firmware from the software id and record a snapshot.
 */
export async function connectVehicle(
  db: Db,
  caller: VerifiedCaller,
  body: z.output<typeof vehicleConnectSchema>,
): Promise<VehicleConnected> {
  const known = await firmwareForSoftware(db, body.ecu.softwareId);
  // A car the catalogue knows is named by its make, model and engine until its owner names it.
  const car = known ? (await catalogueOf(db, [known])).get(known) : undefined;
  const now = new Date();
  const identity = {
    softwareId: body.ecu.softwareId,
    hardwareNumber: body.ecu.hardwareNumber ?? null,
    bootloaderVersion: body.ecu.bootloaderVersion ?? null,
    lastConnectedAt: now,
    lastBatteryVolts: body.batteryVolts,
    updatedAt: now,
  };
  // The app's settings page shows the adapter and app the car was last met with.
  const met = { adapter: body.adapter, appVersion: body.appVersion };
  const { row, created, snapshotId } = await db.transaction(async (tx) => {
    // One vehicle per owner, VIN and ECU serial, also when the app connects twice at once.
    const [upserted] = await tx
      .insert(userVehicles)
      .values({
        ownerUid: caller.uid,
        name: body.name ?? (car ? catalogueName(car) : `Car …${body.vin.slice(-6)}`),
        vin: body.vin,
        ecuSerial: body.ecu.ecuSerial,
        firmwareId: known,
        ...identity,
        deviceAttributes: met,
      })
      .onConflictDoUpdate({
        target: [userVehicles.ownerUid, userVehicles.vin, userVehicles.ecuSerial],
        targetWhere: sql`${userVehicles.vin} IS NOT NULL AND ${userVehicles.ecuSerial} IS NOT NULL`,
        // A software id the catalogue does not know leaves the firmware found from the stock read.
        set: {
          ...identity,
          firmwareId: known ? known : sql`${userVehicles.firmwareId}`,
          deviceAttributes: sql`${userVehicles.deviceAttributes} || ${JSON.stringify(met)}::jsonb`,
        },
      })
      .returning({ id: userVehicles.id, inserted: sql<boolean>`(xmax = 0)` });
    const [snapshot] = await tx
      .insert(vehicleSnapshots)
      .values(
        snapshotValues(
          { vehicleId: upserted.id, kind: "connect", firmwareId: known, recordedBy: caller.uid, recordedAt: now },
          body,
        ),
      )
      .returning({ id: vehicleSnapshots.id });
    const [row] = await tx.select().from(userVehicles).where(eq(userVehicles.id, upserted.id));
    return { row, created: Boolean(upserted.inserted), snapshotId: snapshot.id };
  });
  return { vehicle: await vehicleToApiFull(db, row, caller), created, snapshotId };
}

/** The owner's fields (the owner or an admin), audited when someone else's car is changed. */
export async function updateVehicle(
  db: Db,
  request: Requester,
  id: string,
  input: z.output<typeof vehiclePatchSchema>,
): Promise<Vehicle> {
  const { caller } = request;
  const { vehicle } = await vehicleFor(db, id, caller);
  if (!seesPrivateFields(vehicle, caller)) throw forbidden("Only the vehicle's owner (or an admin) changes it");
  const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(userVehicles)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(userVehicles.id, vehicle.id))
      .returning();
    const fields = Object.keys(changes) as (keyof typeof vehicle)[];
    await auditChangeTo(tx, request, vehicle.ownerUid, {
      action: "vehicle.updated",
      targetType: "vehicle",
      targetId: vehicle.id,
      ...changedFields(
        Object.fromEntries(fields.map((field) => [field, vehicle[field]])),
        Object.fromEntries(fields.map((field) => [field, updated[field]])),
      ),
    });
    return updated;
  });
  return vehicleToApiFull(db, row, caller);
}

/** Merges the phone app's settings into one car of a user: the user themself or an admin. */
export async function setDeviceAttributes(
  db: Db,
  request: Requester,
  ownerUid: string,
  vehicleId: string,
  attributes: DeviceAttributes,
): Promise<Vehicle> {
  const { caller } = request;
  if (ownerUid !== caller.uid && !isAdmin(caller)) throw notFound(`Vehicle ${vehicleId}`);
  const row = await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ deviceAttributes: userVehicles.deviceAttributes })
      .from(userVehicles)
      .where(and(eq(userVehicles.id, vehicleId), eq(userVehicles.ownerUid, ownerUid)))
      .for("update");
    if (!current) throw notFound(`Vehicle ${vehicleId}`);
    const [updated] = await tx
      .update(userVehicles)
      .set({
        deviceAttributes: sql`${userVehicles.deviceAttributes} || ${JSON.stringify(attributes)}::jsonb`,
        updatedAt: new Date(),
      })
      .where(eq(userVehicles.id, vehicleId))
      .returning();
    const previous = (current.deviceAttributes ?? {}) as Record<string, unknown>;
    await auditChangeTo(tx, request, ownerUid, {
      action: "vehicle.device-attributes-changed",
      targetType: "vehicle",
      targetId: vehicleId,
      ...changedFields(previous, attributes),
    });
    return updated;
  });
  return vehicleToApiFull(db, row, caller);
}
