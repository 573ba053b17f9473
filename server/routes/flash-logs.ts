/**
 * Flash logs of a vehicle (spec: GET and POST /user-vehicles/{id}/flash-logs).
 * The app reports every flash it ran, finished or not; what it says it wrote
 * is checked against the bake or the stock read it names, so the history
 * shows what is really on the car.
 */
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { type FlashLog, flashLogCreateSchema } from "../../contracts/flash-logs";
import type { AppContext } from "../context";
import { bakedTuneFiles, flashLogs, tuneFiles } from "../db/schema";
import { HttpError } from "../errors";
import { callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { vehicleFor } from "../services/tune-access";
import type { ZodTypeProvider } from "../http/zod";
import { apiPaths } from "../../contracts/api-paths";

const VEHICLES = `/${apiPaths["my-devices"].list}`;

type FlashLogRow = typeof flashLogs.$inferSelect;

const listSpec: ListSpec = {
  table: flashLogs,
  id: flashLogs.id,
  allowed: { sort: ["flashedAt"], filter: ["result", "kind", "flashedAt", "tuneFileId"] },
  fields: {
    flashedAt: { column: flashLogs.flashedAt, kind: "timestamp" },
    result: { column: flashLogs.result, kind: "text" },
    kind: { column: flashLogs.kind, kind: "text" },
    tuneFileId: { column: flashLogs.tuneFileId, kind: "uuid" },
  },
  defaultSort: [{ field: "flashedAt", order: "desc" }],
};

const unprocessable = (path: string, message: string) => new HttpError(422, "Flash does not match", message, [{ path, message }]);

const iso = (date: Date | null) => (date ? date.toISOString() : null);

const toApi = (row: FlashLogRow): FlashLog => ({
  id: row.id,
  vehicleId: row.vehicleId,
  bakedTuneFileId: row.bakedTuneFileId,
  tuneFileId: row.tuneFileId,
  tuneTitle: row.tuneTitle,
  tuneVersion: row.tuneVersion,
  kind: row.kind,
  sha256: row.sha256,
  result: row.result,
  message: row.message,
  durationMs: row.durationMs,
  flashedAt: row.flashedAt.toISOString(),
  endedAt: iso(row.endedAt),
  lastReportAt: row.lastReportAt.toISOString(),
  reportedBy: row.reportedBy,
  grantId: row.grantId,
  recoversId: row.recoversId,
  recoveredById: null,
  resumeFromBlock: row.resumeFromBlock,
  firmwareId: row.firmwareId,
  ecuFamily: row.ecuFamily,
  adapterKind: row.adapterKind,
  adapterFirmware: row.adapterFirmware,
  appVersion: row.appVersion,
  batteryStartVolts: row.batteryStartVolts,
  batteryEndVolts: row.batteryEndVolts,
  identityBefore: row.identityBefore,
  identityAfter: row.identityAfter,
  failedStep: row.failedStep,
  failedBlock: row.failedBlock,
  failedNrc: row.failedNrc,
  progress: null,
});

export async function flashLogRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.post(`${VEHICLES}/:id/flash-logs`, { schema: { params: idParams, body: flashLogCreateSchema } }, async (request, reply) => {
    const caller = callerOf(request);
    const body = request.body;
    const { vehicle } = await vehicleFor(db, request.params.id, caller);
    let written: Pick<FlashLogRow, "kind" | "sha256" | "bakedTuneFileId" | "tuneFileId" | "tuneTitle" | "tuneVersion">;
    if (body.bakedTuneFileId) {
      const [bake] = await db
        .select({ id: bakedTuneFiles.id, vehicleId: bakedTuneFiles.vehicleId, sha256: bakedTuneFiles.sha256, tuneFileId: bakedTuneFiles.tuneFileId, tuneVersion: bakedTuneFiles.tuneVersion, tuneTitle: tuneFiles.title })
        .from(bakedTuneFiles)
        .leftJoin(tuneFiles, eq(tuneFiles.id, bakedTuneFiles.tuneFileId))
        .where(eq(bakedTuneFiles.id, body.bakedTuneFileId));
      // An expired temp bake still counts: the app may report a flash made before it expired.
      if (!bake || bake.vehicleId !== vehicle.id) throw unprocessable("bakedTuneFileId", `no baked file ${body.bakedTuneFileId} for vehicle ${vehicle.name}`);
      if (body.sha256 && body.sha256 !== bake.sha256) {
        throw unprocessable("sha256", `the flashed bytes (SHA-256 ${body.sha256}) are not the baked file (SHA-256 ${bake.sha256})`);
      }
      written = { kind: "tune", sha256: bake.sha256, bakedTuneFileId: bake.id, tuneFileId: bake.tuneFileId, tuneTitle: bake.tuneTitle, tuneVersion: bake.tuneVersion };
    } else {
      if (!vehicle.stockDumpSha256) throw unprocessable("bakedTuneFileId", `vehicle ${vehicle.name} has no stock read; name the baked file that was flashed`);
      if (body.sha256 !== vehicle.stockDumpSha256) {
        throw unprocessable("sha256", `SHA-256 ${body.sha256} is neither a baked file nor vehicle ${vehicle.name}'s stock read (${vehicle.stockDumpSha256}); send bakedTuneFileId`);
      }
      written = { kind: "stock", sha256: vehicle.stockDumpSha256, bakedTuneFileId: null, tuneFileId: null, tuneTitle: null, tuneVersion: null };
    }
    const [row] = await db
      .insert(flashLogs)
      .values({
        vehicleId: vehicle.id,
        ...written,
        result: body.result,
        message: body.message,
        durationMs: body.durationMs ?? null,
        ...(body.flashedAt && { flashedAt: new Date(body.flashedAt) }),
        reportedBy: caller.uid,
      })
      .returning();
    return reply.status(201).send(toApi(row));
  });

  app.get(`${VEHICLES}/:id/flash-logs`, { config: { list: listSpec }, schema: { params: idParams } }, async (request) => {
    const { vehicle } = await vehicleFor(db, request.params.id, callerOf(request));
    const page = await runList(
      db,
      listSpec,
      listQueryOf(request, listSpec),
      ({ where, orderBy, limit, offset }) => db.select().from(flashLogs).where(where).orderBy(...orderBy).limit(limit).offset(offset),
      sql`${flashLogs.vehicleId} = ${vehicle.id}`,
    );
    return { ...page, data: page.data.map(toApi) };
  });
}
