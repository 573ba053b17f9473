/**
 * A vehicle's side of tuning: the caller's vehicles, the stock read (upload
 * and download), the tunes bought for a vehicle with its bakes, and baking a
 * tune (temporary, from a bought tune) or a supplied image (direct, dealers)
 * onto the stock read. Who reaches a vehicle is decided by vehicleFor in
 * services/tune-access.ts.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  bakedTuneFileSchema,
  bakeRequestSchema,
  tuneVehicleSchema,
  type VehicleTunes,
  vehicleTunesSchema,
} from "../../contracts/tune-files";
import type { AppContext } from "../context";
import type { Tx } from "../db/handle";
import type { bakedTuneFiles } from "../db/schema";
import { badRequest, forbidden, HttpError } from "../errors";
import { callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import { fieldsOf, patchIdsField } from "../http/multipart-fields";
import { requireFile, withUpload } from "../http/uploads";
import { sendStockRead } from "../http/vehicle-files";
import type { ZodTypeProvider } from "../http/zod";
import { auditChangeTo } from "../services/audit";
import {
  boughtFor,
  dumpOf,
  liveBakesOf,
  replaceStockRead,
  storeBake,
  TEMP_BAKE_MS,
  tunesBoughtFor,
} from "../services/bakes";
import { accessOf, isAdmin, tuneRow, type VehicleRow, vehicleFor, versionRow } from "../services/tune-access";
import { bakeFromBlobs } from "../services/tune-files";
import { bakedToApi, tuneToApi, vehicleToApi } from "../services/tune-responses";
import { acceptStockRead, firmwareOfImage, imageOf } from "../services/tune-uploads";

const VEHICLES = `/${apiPaths["user-vehicles"].list}`;

const dealer = { role: "dealer" as const };

const slotParams = z.strictObject({
  id: z.uuid("id must be a UUID"),
  x: z.coerce.number().int("slot is a whole number").min(0).max(15, "slot is 0 to 15"),
});

/** A bake made on someone else's car (its dealer, an admin): one audit row in the bake's transaction. */
const auditBake = (request: FastifyRequest, vehicle: VehicleRow) => (tx: Tx, row: typeof bakedTuneFiles.$inferSelect) =>
  auditChangeTo(tx, request, vehicle.ownerUid, {
    action: "baked-tune-file.created",
    targetType: "baked-tune-file",
    targetId: row.id,
    after: {
      vehicleId: vehicle.id,
      tuneFileId: row.tuneFileId,
      tuneVersion: row.tuneVersion,
      patchIds: row.patchIds,
      sha256: row.sha256,
      temporary: row.expiresAt !== null,
    },
  });

export async function vehicleBakeRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerStockReadRoutes(plugin, ctx);
  registerBakeRoutes(plugin, ctx);
  registerVehicleTuneRoutes(plugin, ctx);
}

/** The vehicle's stock read: replaced by its owner's upload, downloaded by whoever reaches the car. */
function registerStockReadRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.post(
    `/${apiRoutes.vehicles.uploadTuneDump(":id", ":x")}`,
    { schema: { params: slotParams, response: { 200: tuneVehicleSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { id, x } = request.params;
      const { vehicle, owner } = await vehicleFor(db, id, caller);
      // The stock read is the owner's (the app's read of their ECU): a dealer who manages the car reads it, never replaces it.
      if (!owner && !isAdmin(caller)) throw forbidden("Only the vehicle's owner (or an admin) replaces its stock read");
      return withUpload(request, ctx, async (upload) => {
        const file = requireFile(upload);
        const record = await acceptStockRead(ctx, file);
        const updated = await replaceStockRead(db, request, vehicle, file, record.firmwareId, x);
        return vehicleToApi(updated);
      });
    },
  );

  app.get(`${VEHICLES}/:id/download-tune-dump`, { schema: { params: idParams } }, async (request, reply) => {
    const { vehicle } = await vehicleFor(db, request.params.id, callerOf(request));
    return sendStockRead(reply, ctx, vehicle);
  });
}

/** Baking a bought tune (temporary) or a dealer's supplied image (direct) onto the stock read. */
function registerBakeRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.post(
    `/${apiRoutes.vehicles.tempBake(":id", ":x")}`,
    { schema: { params: slotParams, body: bakeRequestSchema, response: { 201: bakedTuneFileSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { id, x } = request.params;
      const { body } = request;
      const { vehicle } = await vehicleFor(db, id, caller);
      const dump = dumpOf(db, vehicle);
      const tune = await tuneRow(db, body.tuneFileId).catch(() => {
        throw badRequest("Invalid body", `no tune file ${body.tuneFileId}`, [
          { path: "tuneFileId", message: "no such tune file" },
        ]);
      });
      const isOwnerDealer = isAdmin(caller) || tune.dealerUid === caller.uid;
      if (!isOwnerDealer) {
        if (!(await boughtFor(db, tune.id, vehicle.id)))
          throw forbidden(`Tune "${tune.title}" was not bought for vehicle ${vehicle.name}`);
      }
      const record = await dump.record;
      if (tune.firmwareId !== record.firmwareId) {
        const message = `the tune is for ${tune.firmwareId}; the vehicle runs ${record.firmwareId}`;
        throw new HttpError(422, "Wrong firmware", message, [{ path: "tuneFileId", message }]);
      }
      const version = await versionRow(db, tune.id, tune.currentVersion);
      const patches = await ctx.catalogue.patches(body.patchIds);
      const result = await bakeFromBlobs(ctx, {
        record,
        dumpSha256: dump.sha256,
        tune: version.sha256,
        direct: false,
        patches,
      });
      const row = await storeBake(
        ctx,
        {
          vehicleId: vehicle.id,
          firmwareId: record.firmwareId,
          tuneFileId: tune.id,
          tuneVersion: version.number,
          patchIds: body.patchIds,
          slot: x,
          expiresAt: new Date(Date.now() + TEMP_BAKE_MS),
          createdBy: caller.uid,
        },
        result,
        auditBake(request, vehicle),
      );
      return reply.status(201).send(await bakedToApi(db, row, caller));
    },
  );

  app.post(
    `${VEHICLES}/:id/direct-bake`,
    { config: dealer, schema: { params: idParams, response: { 201: bakedTuneFileSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { vehicle } = await vehicleFor(db, request.params.id, caller);
      const dump = dumpOf(db, vehicle);
      const row = await withUpload(request, ctx, async (upload) => {
        fieldsOf(z.strictObject({ patchIds: z.string().optional() }), upload.fields);
        const patchIds = patchIdsField(upload.fields.patchIds);
        const file = requireFile(upload);
        const record = await dump.record;
        const supplied = await imageOf(file);
        await firmwareOfImage(ctx, supplied, record.firmwareId);
        const patches = await ctx.catalogue.patches(patchIds);
        const result = await bakeFromBlobs(ctx, {
          record,
          dumpSha256: dump.sha256,
          tune: supplied,
          direct: true,
          patches,
        });
        // Kept only once the bake succeeded: rebake-all starts again from it.
        await ctx.blobs.adopt(file.path, file.sha256);
        return storeBake(
          ctx,
          {
            vehicleId: vehicle.id,
            firmwareId: record.firmwareId,
            sourceSha256: file.sha256,
            patchIds,
            createdBy: caller.uid,
          },
          result,
          auditBake(request, vehicle),
        );
      });
      return reply.status(201).send(await bakedToApi(db, row, caller));
    },
  );
}

/** The tunes bought for a vehicle and its live bakes. */
function registerVehicleTuneRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    `/${apiRoutes.vehicles.tuneFiles(":id")}`,
    { schema: { params: idParams, response: { 200: vehicleTunesSchema } } },
    async (request): Promise<VehicleTunes> => {
      const caller = callerOf(request);
      const { vehicle } = await vehicleFor(db, request.params.id, caller);
      const purchases = await tunesBoughtFor(db, vehicle.id);
      const bought = [];
      for (const { tuneFileId } of purchases) {
        const row = await tuneRow(db, tuneFileId);
        // Bought for this vehicle: its owner holds the licence, whoever else is looking.
        bought.push(await tuneToApi(db, row, accessOf(row, caller, true), false));
      }
      const baked = await liveBakesOf(db, vehicle.id);
      return {
        vehicle: vehicleToApi(vehicle),
        bought,
        baked: await Promise.all(baked.map((row) => bakedToApi(db, row, caller))),
      };
    },
  );
}
