/**
 * The vehicles themselves: what the phone app sends when it meets a car
 * (connect), the lists (the caller's cars, every car for admins, the cars a
 * dealer manages), one car, the owner's fields, and the app's device
 * attributes. Who reaches a car: `vehicleFor` in services/tune-access.ts.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  deviceAttributesSchema,
  vehicleConnectedSchema,
  vehicleConnectSchema,
  vehicleList,
  vehiclePageSchema,
  vehiclePatchSchema,
  vehicleSchema,
} from "../../../contracts/user-vehicles";
import type { AppContext } from "../../context";
import { users, userVehicles } from "../../db/schema";
import { callerOf } from "../../http/auth";
import { idParams } from "../../http/crud";
import { type ListSpec, listQueryOf, runList } from "../../http/list";
import type { ZodTypeProvider } from "../../http/zod";
import { isAdmin } from "../../services/tune-access";
import {
  connectVehicle,
  setDeviceAttributes,
  updateVehicle,
  vehicleOf,
  vehiclePageOf,
} from "../../services/user-vehicles/records";
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

const userVehicleParams = z.strictObject({
  id: z.string().min(1).max(128),
  vehicleId: z.uuid("vehicleId must be a UUID"),
});

export async function vehicleRecordRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  /** The caller's cars; an admin's list is every car (the admin's user devices). */
  app.get(
    VEHICLES,
    { config: { list: adminListSpec }, schema: { response: { 200: vehiclePageSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const spec = isAdmin(caller) ? adminListSpec : ownListSpec;
      return vehiclePageOf(db, caller, "own", (select, scope) =>
        runList(db, spec, listQueryOf(request, spec), select, scope),
      );
    },
  );

  /** The cars a dealer manages (admins: every car), without their owners' private fields. */
  app.get(
    `${VEHICLES}/managed`,
    { config: { role: "dealer", list: adminListSpec }, schema: { response: { 200: vehiclePageSchema } } },
    async (request) =>
      vehiclePageOf(db, callerOf(request), "managed", (select, scope) =>
        runList(db, adminListSpec, listQueryOf(request, adminListSpec), select, scope),
      ),
  );

  /** The phone app met a car: 201 with a vehicle made for it, 200 with the one it already had. */
  app.post(
    `${VEHICLES}/connect`,
    { schema: { body: vehicleConnectSchema, response: { 200: vehicleConnectedSchema, 201: vehicleConnectedSchema } } },
    async (request, reply) => {
      const answer = await connectVehicle(db, callerOf(request), request.body);
      return reply.status(answer.created ? 201 : 200).send(answer);
    },
  );

  app.get(`${VEHICLES}/:id`, { schema: { params: idParams, response: { 200: vehicleSchema } } }, async (request) =>
    vehicleOf(db, callerOf(request), request.params.id),
  );

  /** The owner's fields; the identity is the app's (connect) and is refused here as an unknown field. */
  app.patch(
    `${VEHICLES}/:id`,
    { schema: { params: idParams, body: vehiclePatchSchema, response: { 200: vehicleSchema } } },
    async (request) =>
      updateVehicle(db, { caller: callerOf(request), id: request.id }, request.params.id, request.body),
  );

  /** The phone app's settings for one car of a user: the user themself or an admin. */
  app.patch(
    "/users/:id/vehicles/:vehicleId/device-attributes",
    { schema: { params: userVehicleParams, body: deviceAttributesSchema, response: { 200: vehicleSchema } } },
    async (request) =>
      setDeviceAttributes(
        db,
        { caller: callerOf(request), id: request.id },
        request.params.id,
        request.params.vehicleId,
        request.body,
      ),
  );
}
