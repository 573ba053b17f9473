/**
 * What happened to a car: its ECU snapshots (at each connect, before and after
 * each flash), its timeline (connects, stock read, bakes, flashes, tuning requests, returns to
 * stock, logs; grouped, a page at a time, by kind), and any file attached to it, served with
 * the rules of the file's own endpoint.
 */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiRoutes } from "../../../contracts/api-paths";
import { snapshotPageSchema, timelineQuerySchema, timelineSchema } from "../../../contracts/user-vehicles";
import type { AppContext } from "../../context";
import { vehicleSnapshots } from "../../db/schema";
import { callerOf } from "../../http/auth";
import { sendBlob } from "../../http/byte-ranges";
import { idParams } from "../../http/crud";
import { type ListSpec, listQueryOf, runList } from "../../http/list";
import { bytesAnswer } from "../../http/media";
import { sendBakedFile, sendStockRead } from "../../http/vehicle-files";
import type { ZodTypeProvider } from "../../http/zod";
import { attachedFileOf, snapshotPageOf } from "../../services/user-vehicles/history";
import { timelineOf } from "../../services/user-vehicles/timeline";
import { VEHICLES } from "./common";

const snapshotListSpec: ListSpec = {
  table: vehicleSnapshots,
  id: vehicleSnapshots.id,
  allowed: { sort: ["recordedAt"], filter: ["kind", "recordedAt", "flashLogId"] },
  fields: {
    kind: { column: vehicleSnapshots.kind, kind: "text" },
    recordedAt: { column: vehicleSnapshots.recordedAt, kind: "timestamp" },
    flashLogId: { column: vehicleSnapshots.flashLogId, kind: "uuid" },
  },
  defaultSort: [{ field: "recordedAt", order: "desc" }],
};

/** `stock-read`, or the id of a baked file or data log of the car. */
const attachParams = z.strictObject({
  id: z.uuid("id must be a UUID"),
  fileId: z.union([z.literal("stock-read"), z.uuid("fileId is stock-read or a file's id")]),
});

export async function vehicleHistoryRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    `/${apiRoutes.vehicles.snapshots(":id")}`,
    { config: { list: snapshotListSpec }, schema: { params: idParams, response: { 200: snapshotPageSchema } } },
    async (request) =>
      snapshotPageOf(db, callerOf(request), request.params.id, (select, scope) =>
        runList(db, snapshotListSpec, listQueryOf(request, snapshotListSpec), select, scope),
      ),
  );

  app.get(
    `/${apiRoutes.vehicles.timeline(":id")}`,
    { schema: { params: idParams, querystring: timelineQuerySchema, response: { 200: timelineSchema } } },
    async (request) => timelineOf(db, callerOf(request), request.params.id, request.query),
  );

  /** A file of the car, with the access rules and headers of the file's own endpoint. */
  const attached = { media: bytesAnswer({ ranges: true }) };
  app.get(
    `${VEHICLES}/:id/attach-file/:fileId`,
    { config: attached, schema: { params: attachParams } },
    async (request, reply) => {
      const grant = request.headers["x-flash-grant"];
      const file = await attachedFileOf(
        ctx,
        callerOf(request),
        request.params.id,
        request.params.fileId,
        typeof grant === "string" ? grant : undefined,
      );
      if (file.kind === "stock-read") return sendStockRead(reply, ctx, file.vehicle);
      if (file.kind === "bake") return sendBakedFile(reply, ctx, file.baked);
      const { log } = file;
      const { fileSha256: sha256, fileSize: size, fileName: filename } = log;
      return sendBlob(request, reply, ctx.dataLogBlobs, { sha256, size, filename });
    },
  );
}
