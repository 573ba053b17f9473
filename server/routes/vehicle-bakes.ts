/**
 * A vehicle's side of tuning: the caller's vehicles, the stock read (upload
 * and download), the tunes bought for a vehicle with its bakes, and baking a
 * tune (temporary, from a bought tune) or a supplied image (direct, dealers)
 * onto the stock read. Who reaches a vehicle is decided by vehicleFor in
 * services/tune-access.ts.
 */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  bakedTuneFileSchema,
  bakeRequestSchema,
  tuneVehicleSchema,
  vehicleTunesSchema,
} from "../../contracts/tune-files";
import type { AppContext } from "../context";
import { forbidden } from "../errors";
import { callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import { bytesAnswer, multipartBody } from "../http/media";
import { fieldsOf, patchIdsField } from "../http/multipart-fields";
import { requireFile, withUpload } from "../http/uploads";
import { sendStockRead } from "../http/vehicle-files";
import type { ZodTypeProvider } from "../http/zod";
import { dumpOf, replaceStockRead } from "../services/bakes";
import { isAdmin, vehicleFor } from "../services/tune-access";
import { vehicleToApi } from "../services/tune-responses";
import { acceptStockRead } from "../services/tune-uploads";
import { bakeBoughtTune, bakeSuppliedImage, vehicleTunesOf } from "../services/vehicle-bakes";

const VEHICLES = `/${apiPaths["user-vehicles"].list}`;

const dealer = { role: "dealer" as const };

const slotParams = z.strictObject({
  id: z.uuid("id must be a UUID"),
  x: z.coerce.number().int("slot is a whole number").min(0).max(15, "slot is 0 to 15"),
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
    {
      config: { media: multipartBody({ file: "The stock read of the ECU" }) },
      schema: { params: slotParams, response: { 200: tuneVehicleSchema } },
    },
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

  app.get(
    `${VEHICLES}/:id/download-tune-dump`,
    { config: { media: bytesAnswer() }, schema: { params: idParams } },
    async (request, reply) => {
      const { vehicle } = await vehicleFor(db, request.params.id, callerOf(request));
      return sendStockRead(reply, ctx, vehicle);
    },
  );
}

/** Baking a bought tune (temporary) or a dealer's supplied image (direct) onto the stock read. */
function registerBakeRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.post(
    `/${apiRoutes.vehicles.tempBake(":id", ":x")}`,
    { schema: { params: slotParams, body: bakeRequestSchema, response: { 201: bakedTuneFileSchema } } },
    async (request, reply) => {
      const { id, x } = request.params;
      const baked = await bakeBoughtTune(ctx, { caller: callerOf(request), id: request.id }, id, x, request.body);
      return reply.status(201).send(baked);
    },
  );

  app.post(
    `${VEHICLES}/:id/direct-bake`,
    {
      config: {
        ...dealer,
        media: multipartBody(
          { file: "The tune image to bake" },
          { fields: z.strictObject({ patchIds: z.string().optional() }), required: [] },
        ),
      },
      schema: { params: idParams, response: { 201: bakedTuneFileSchema } },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { vehicle } = await vehicleFor(db, request.params.id, caller);
      const dump = dumpOf(db, vehicle);
      const baked = await withUpload(request, ctx, async (upload) => {
        fieldsOf(z.strictObject({ patchIds: z.string().optional() }), upload.fields);
        const patchIds = patchIdsField(upload.fields.patchIds);
        const file = requireFile(upload);
        return bakeSuppliedImage(ctx, { caller, id: request.id }, vehicle, dump, file, patchIds);
      });
      return reply.status(201).send(baked);
    },
  );
}

/** The tunes bought for a vehicle and its live bakes. */
function registerVehicleTuneRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.get(
    `/${apiRoutes.vehicles.tuneFiles(":id")}`,
    { schema: { params: idParams, response: { 200: vehicleTunesSchema } } },
    async (request) => vehicleTunesOf(ctx, callerOf(request), request.params.id),
  );
}
