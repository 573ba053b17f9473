/**
 * What happened to a car: its ECU snapshots (at each connect, before and after
 * each flash), its timeline (connects, stock read, bakes, flashes, tuning requests, returns to
 * stock, logs), and any file attached to it, served with the rules of the
 * file's own endpoint.
 */
import { and, desc, eq, gt, inArray, isNull, or } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiRoutes } from "../../../contracts/api-paths";
import { snapshotPageSchema, type TimelineEntry, timelineSchema } from "../../../contracts/user-vehicles";
import type { AppContext } from "../../context";
import {
  bakedTuneFiles,
  dataLogs,
  flashLogs,
  tuningRequestEvents,
  tuningRequests,
  vehicleSnapshots,
} from "../../db/schema";
import { forbidden, notFound } from "../../errors";
import { callerOf } from "../../http/auth";
import { sendFile } from "../../http/byte-ranges";
import { idParams } from "../../http/crud";
import { type ListSpec, listQueryOf, runList } from "../../http/list";
import { sendBakedFile, sendStockRead } from "../../http/vehicle-files";
import type { ZodTypeProvider } from "../../http/zod";
import { grantOfToken } from "../../services/flash-grants";
import { snapshotToApi } from "../../services/snapshots";
import { bakeAccess, vehicleFor } from "../../services/tune-access";
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

/** Each source of the timeline gives at most this many of its newest entries. */
const TIMELINE_PER_SOURCE = 200;

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
    async (request) => {
      const { vehicle } = await vehicleFor(db, request.params.id, callerOf(request));
      const page = await runList(
        db,
        snapshotListSpec,
        listQueryOf(request, snapshotListSpec),
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
    },
  );

  app.get(
    `/${apiRoutes.vehicles.timeline(":id")}`,
    { schema: { params: idParams, response: { 200: timelineSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { vehicle, owner } = await vehicleFor(db, request.params.id, caller);
      const [connects, bakes, flashes, logs, requestMoves] = await Promise.all([
        db
          .select()
          .from(vehicleSnapshots)
          .where(and(eq(vehicleSnapshots.vehicleId, vehicle.id), eq(vehicleSnapshots.kind, "connect")))
          .orderBy(desc(vehicleSnapshots.recordedAt))
          .limit(TIMELINE_PER_SOURCE),
        db
          .select()
          .from(bakedTuneFiles)
          .where(
            and(
              eq(bakedTuneFiles.vehicleId, vehicle.id),
              or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date())),
            ),
          )
          .orderBy(desc(bakedTuneFiles.createdAt))
          .limit(TIMELINE_PER_SOURCE),
        db
          .select()
          .from(flashLogs)
          .where(eq(flashLogs.vehicleId, vehicle.id))
          .orderBy(desc(flashLogs.flashedAt))
          .limit(TIMELINE_PER_SOURCE),
        db
          .select({
            id: dataLogs.id,
            title: dataLogs.title,
            createdAt: dataLogs.createdAt,
            ownerUid: dataLogs.ownerUid,
          })
          .from(dataLogs)
          .where(eq(dataLogs.vehicleId, vehicle.id))
          .orderBy(desc(dataLogs.createdAt))
          .limit(TIMELINE_PER_SOURCE),
        // The car's tuning requests as they moved: the owner sees all, a dealer those made to them.
        db
          .select({ event: tuningRequestEvents, number: tuningRequests.number, id: tuningRequests.id })
          .from(tuningRequestEvents)
          .innerJoin(tuningRequests, eq(tuningRequests.id, tuningRequestEvents.requestId))
          .where(
            and(
              eq(tuningRequests.vehicleId, vehicle.id),
              inArray(tuningRequestEvents.kind, ["submitted", "transition"]),
              owner || caller.role === "admin" ? undefined : eq(tuningRequests.dealerUid, caller.uid),
            ),
          )
          .orderBy(desc(tuningRequestEvents.at))
          .limit(TIMELINE_PER_SOURCE),
      ]);
      const entries: TimelineEntry[] = [
        ...connects.map((row) => ({
          kind: "connect" as const,
          at: row.recordedAt.toISOString(),
          refId: row.id,
          title: "Connected with the app",
          detail: [
            row.softwareId && `software ${row.softwareId}`,
            row.batteryVolts !== null && `battery ${row.batteryVolts.toFixed(1)} V`,
            row.faultCodes.length > 0 && `${row.faultCodes.length} fault code(s)`,
          ]
            .filter(Boolean)
            .join(", "),
          result: null,
        })),
        ...(vehicle.stockDumpUploadedAt && vehicle.stockDumpSha256
          ? [
              {
                kind: "stock-read" as const,
                at: vehicle.stockDumpUploadedAt.toISOString(),
                refId: null,
                title: "Stock read uploaded",
                detail: `${vehicle.stockDumpSize ?? 0} bytes, ${vehicle.firmwareId ?? "firmware unknown"}`,
                result: null,
              },
            ]
          : []),
        ...bakes.map((row) => ({
          kind: "bake" as const,
          at: row.createdAt.toISOString(),
          refId: row.id,
          title: row.tuneFileId ? "Tune baked onto the stock read" : "Supplied image baked onto the stock read",
          detail: `${row.firmwareId}${row.tuneVersion ? `, version ${row.tuneVersion}` : ""}${row.expiresAt ? ", preview" : ""}`,
          result: null,
        })),
        ...flashes.map((row) => ({
          kind: row.kind === "stock" ? ("back-to-stock" as const) : ("flash" as const),
          at: row.flashedAt.toISOString(),
          refId: row.id,
          title:
            row.kind === "stock"
              ? "Back to stock"
              : `Flashed ${row.tuneTitle ?? "a supplied image"}${row.tuneVersion ? ` v${row.tuneVersion}` : ""}`,
          detail: row.message || (row.durationMs !== null ? `${Math.round(row.durationMs / 1000)} s` : ""),
          result: row.result,
        })),
        ...logs.map((row) => ({
          kind: "log" as const,
          at: row.createdAt.toISOString(),
          refId: row.id,
          title: `Data log: ${row.title}`,
          detail: "",
          result: null,
        })),
        ...requestMoves.map(({ event, number, id }) => ({
          kind: "tuning-request" as const,
          at: event.at.toISOString(),
          refId: id,
          title: `Custom tune TR-${number}: ${event.kind === "submitted" ? "asked for" : (event.toState ?? "").replace("-", " ")}`,
          detail: event.text.slice(0, 200),
          result: null,
        })),
      ];
      entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
      return { data: entries };
    },
  );

  /** A file of the car, with the access rules and headers of the file's own endpoint. */
  app.get(`${VEHICLES}/:id/attach-file/:fileId`, { schema: { params: attachParams } }, async (request, reply) => {
    const caller = callerOf(request);
    const { id, fileId } = request.params;
    const { vehicle, owner } = await vehicleFor(db, id, caller);
    if (fileId === "stock-read") return sendStockRead(reply, ctx, vehicle);
    const [baked] = await db
      .select()
      .from(bakedTuneFiles)
      .where(
        and(
          eq(bakedTuneFiles.id, fileId),
          eq(bakedTuneFiles.vehicleId, vehicle.id),
          or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date())),
        ),
      );
    if (baked) {
      // The app reads a protected tune's bake only to write it, with the grant of its pre-flight for that file.
      const header = request.headers["x-flash-grant"];
      const granted =
        typeof header === "string" &&
        (await grantOfToken(db, ctx.secrets, header, vehicle.id, { allowUsed: true })).bakedTuneFileId === baked.id;
      if (!granted && !(await bakeAccess(db, baked, caller)).download)
        throw forbidden("The tune's author does not let buyers download it; flash it from the app");
      return sendBakedFile(reply, ctx, baked);
    }
    const [log] = await db
      .select()
      .from(dataLogs)
      .where(and(eq(dataLogs.id, fileId), eq(dataLogs.vehicleId, vehicle.id)));
    // A log is its owner's (and admins'): a dealer who manages the car sees it only when shared.
    if (log && (log.ownerUid === caller.uid || caller.role === "admin" || owner)) {
      reply.header("content-disposition", `attachment; filename="${log.fileName.replace(/["\\\r\n]/g, "_")}"`);
      return sendFile(
        request,
        reply,
        ctx.dataLogBlobs.pathOf(log.fileSha256),
        log.fileSize,
        "application/octet-stream",
      );
    }
    throw notFound(`File ${fileId} of vehicle ${vehicle.id}`);
  });
}
