/**
 * The vehicles themselves: what the phone app sends when it meets a car
 * (connect), the lists (the caller's cars, every car for admins, the cars a
 * dealer manages), one car, the owner's fields, and the app's device
 * attributes. Who reaches a car: `vehicleFor` in services/tune-access.ts.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  deviceAttributesSchema,
  type Vehicle,
  type VehicleConnected,
  vehicleConnectedSchema,
  vehicleConnectSchema,
  vehicleList,
  vehiclePageSchema,
  vehiclePatchSchema,
  vehicleSchema,
} from "../../../contracts/user-vehicles";
import type { AppContext } from "../../context";
import { users, userVehicles, vehicleSnapshots } from "../../db/schema";
import { forbidden, notFound } from "../../errors";
import { callerOf } from "../../http/auth";
import { idParams } from "../../http/crud";
import { type ListSpec, listQueryOf, runList } from "../../http/list";
import type { ZodTypeProvider } from "../../http/zod";
import { auditChangeTo, changedFields } from "../../services/audit";
import type { VerifiedCaller } from "../../services/identity";
import { snapshotValues } from "../../services/snapshots";
import { dealerManagesSql, isAdmin, vehicleFor } from "../../services/tune-access";
import { firmwareForSoftware, seesPrivateFields, vehiclesToApi, vehicleToApiFull } from "../../services/vehicles";
import { VEHICLES } from "./common";

const ownerText = sql`(SELECT coalesce(${users.email}, '') || ' ' || coalesce(${users.displayName}, '') FROM ${users} WHERE ${users.uid} = ${userVehicles.ownerUid})`;

const listSpec = (searchOwner: boolean): ListSpec => ({
  table: userVehicles,
  id: userVehicles.id,
  allowed: vehicleList,
  fields: {
    name: { column: userVehicles.name, kind: "text" },
    vin: { column: userVehicles.vin, kind: "text" },
    ownerUid: { column: userVehicles.ownerUid, kind: "text" },
    firmwareId: { column: userVehicles.firmwareId, kind: "text" },
    softwareId: { column: userVehicles.softwareId, kind: "text" },
    ecuSerial: { column: userVehicles.ecuSerial, kind: "text" },
    lastConnectedAt: { column: userVehicles.lastConnectedAt, kind: "timestamp" },
    createdAt: { column: userVehicles.createdAt, kind: "timestamp" },
    updatedAt: { column: userVehicles.updatedAt, kind: "timestamp" },
  },
  // VIN or nickname; admins also find a car by its owner's email or name.
  search: searchOwner
    ? sql`(coalesce(${userVehicles.vin}, '') || ' ' || ${userVehicles.name} || ' ' || coalesce(${userVehicles.firmwareId}, '') || ' ' || ${ownerText})`
    : sql`(coalesce(${userVehicles.vin}, '') || ' ' || ${userVehicles.name})`,
  defaultSort: [{ field: "name", order: "asc" }],
});
const ownListSpec = listSpec(false);
const adminListSpec = listSpec(true);

/** Cars a dealer manages (services/tune-access dealerManagesSql). */
const managedBy = (dealerUid: string): SQL => dealerManagesSql(dealerUid, userVehicles.id);

const userVehicleParams = z.strictObject({
  id: z.string().min(1).max(128),
  vehicleId: z.uuid("vehicleId must be a UUID"),
});

export async function vehicleRecordRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  const page = async (
    caller: VerifiedCaller,
    spec: ListSpec,
    request: Parameters<typeof listQueryOf>[0],
    scope: SQL | undefined,
  ) => {
    const result = await runList(
      db,
      spec,
      listQueryOf(request, spec),
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
    return { ...result, data: await vehiclesToApi(db, result.data, caller) };
  };

  /** The caller's cars; an admin's list is every car (the admin's user devices). */
  app.get(
    VEHICLES,
    { config: { list: adminListSpec }, schema: { response: { 200: vehiclePageSchema } } },
    async (request) => {
      const caller = callerOf(request);
      return isAdmin(caller)
        ? page(caller, adminListSpec, request, undefined)
        : page(caller, ownListSpec, request, eq(userVehicles.ownerUid, caller.uid));
    },
  );

  /** The cars a dealer manages (admins: every car), without their owners' private fields. */
  app.get(
    `${VEHICLES}/managed`,
    { config: { role: "dealer", list: adminListSpec }, schema: { response: { 200: vehiclePageSchema } } },
    async (request) => {
      const caller = callerOf(request);
      return page(caller, adminListSpec, request, isAdmin(caller) ? undefined : managedBy(caller.uid));
    },
  );

  /**
   * The phone app met a car: find or create the caller's vehicle by (VIN, ECU serial), refresh
   * the identity it read, identify the firmware from the software id and record a snapshot.
   */
  app.post(
    `${VEHICLES}/connect`,
    { schema: { body: vehicleConnectSchema, response: { 200: vehicleConnectedSchema, 201: vehicleConnectedSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const body = request.body;
      const known = await firmwareForSoftware(db, body.ecu.softwareId);
      const now = new Date();
      const identity = {
        softwareId: body.ecu.softwareId,
        hardwareNumber: body.ecu.hardwareNumber ?? null,
        bootloaderVersion: body.ecu.bootloaderVersion ?? null,
        lastConnectedAt: now,
        lastBatteryVolts: body.batteryVolts,
        updatedAt: now,
      };
      const { row, created, snapshotId } = await db.transaction(async (tx) => {
        // One vehicle per owner, VIN and ECU serial, also when the app connects twice at once.
        const [upserted] = await tx
          .insert(userVehicles)
          .values({
            ownerUid: caller.uid,
            name: body.name ?? `Car …${body.vin.slice(-6)}`,
            vin: body.vin,
            ecuSerial: body.ecu.ecuSerial,
            firmwareId: known,
            ...identity,
          })
          .onConflictDoUpdate({
            target: [userVehicles.ownerUid, userVehicles.vin, userVehicles.ecuSerial],
            targetWhere: sql`${userVehicles.vin} IS NOT NULL AND ${userVehicles.ecuSerial} IS NOT NULL`,
            // A software id the catalogue does not know leaves the firmware found from the stock read.
            set: { ...identity, firmwareId: known ? known : sql`${userVehicles.firmwareId}` },
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
      const answer: VehicleConnected = { vehicle: await vehicleToApiFull(db, row, caller), created, snapshotId };
      return reply.status(created ? 201 : 200).send(answer);
    },
  );

  app.get(
    `${VEHICLES}/:id`,
    { schema: { params: idParams, response: { 200: vehicleSchema } } },
    async (request): Promise<Vehicle> => {
      const caller = callerOf(request);
      const { vehicle } = await vehicleFor(db, request.params.id, caller);
      return vehicleToApiFull(db, vehicle, caller);
    },
  );

  /** The owner's fields; the identity is the app's (connect) and is refused here as an unknown field. */
  app.patch(
    `${VEHICLES}/:id`,
    { schema: { params: idParams, body: vehiclePatchSchema, response: { 200: vehicleSchema } } },
    async (request): Promise<Vehicle> => {
      const caller = callerOf(request);
      const { vehicle } = await vehicleFor(db, request.params.id, caller);
      if (!seesPrivateFields(vehicle, caller)) throw forbidden("Only the vehicle's owner (or an admin) changes it");
      const changes = Object.fromEntries(Object.entries(request.body).filter(([, value]) => value !== undefined));
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
    },
  );

  /** The phone app's settings for one car of a user: the user themself or an admin. */
  app.patch(
    "/users/:id/vehicles/:vehicleId/device-attributes",
    { schema: { params: userVehicleParams, body: deviceAttributesSchema, response: { 200: vehicleSchema } } },
    async (request): Promise<Vehicle> => {
      const caller = callerOf(request);
      const { id, vehicleId } = request.params;
      if (id !== caller.uid && !isAdmin(caller)) throw notFound(`Vehicle ${vehicleId}`);
      const row = await db.transaction(async (tx) => {
        const [current] = await tx
          .select({ deviceAttributes: userVehicles.deviceAttributes })
          .from(userVehicles)
          .where(and(eq(userVehicles.id, vehicleId), eq(userVehicles.ownerUid, id)))
          .for("update");
        if (!current) throw notFound(`Vehicle ${vehicleId}`);
        const [updated] = await tx
          .update(userVehicles)
          .set({
            deviceAttributes: sql`${userVehicles.deviceAttributes} || ${JSON.stringify(request.body)}::jsonb`,
            updatedAt: new Date(),
          })
          .where(eq(userVehicles.id, vehicleId))
          .returning();
        const previous = (current.deviceAttributes ?? {}) as Record<string, unknown>;
        await auditChangeTo(tx, request, id, {
          action: "vehicle.device-attributes-changed",
          targetType: "vehicle",
          targetId: vehicleId,
          ...changedFields(previous, request.body),
        });
        return updated;
      });
      return vehicleToApiFull(db, row, caller);
    },
  );
}
