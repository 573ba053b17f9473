/**
 * Flash logs of a vehicle (spec: GET and POST /user-vehicles/{id}/flash-logs), grown into flash
 * sessions: the app starts one with the grant of its pre-flight, reports its steps as it goes
 * (`…/{logId}/steps`) and ends it (`…/{logId}/end`); the vehicle's event stream
 * (`/user-vehicles/{id}/listen`) shows it live. A flash reported after the fact (no grant) is
 * still taken: what the app says it wrote is checked against the bake or the stock read it
 * names, so the history shows what is really on the car.
 */
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiRoutes } from "../../contracts/api-paths";
import {
  flashLogCreateSchema,
  flashLogSchema,
  flashSessionDetailSchema,
  flashSessionEndSchema,
  flashSessionStartSchema,
  flashStepEventSchema,
  flashStepsReportSchema,
  orderEventSchema,
  preflightEventSchema,
  vehicleEventNames,
} from "../../contracts/flash-logs";
import { listResponseSchema } from "../../contracts/list-response";
import type { AppContext } from "../context";
import { bakedTuneFiles, flashLogs, tuneFiles } from "../db/schema";
import { fieldIssues, HttpError, notFound, RequestValidationError } from "../errors";
import { callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import { EventStreams } from "../http/event-stream";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import type { ZodTypeProvider } from "../http/zod";
import { auditChangeTo } from "../services/audit";
import {
  endSession,
  type FlashLogRow,
  flashLogsToApi,
  flashLogToApi,
  markAbandoned,
  publishSessions,
  reportSteps,
  sessionDetail,
  startSession,
} from "../services/flash-sessions";
import { vehicleFor } from "../services/tune-access";

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

const unprocessable = (path: string, message: string) =>
  new HttpError(422, "Flash does not match", message, [{ path, message }]);

const sessionParams = z.strictObject({ id: z.uuid("id must be a UUID"), logId: z.uuid("logId must be a UUID") });
const flashLogPageSchema = listResponseSchema(flashLogSchema);

/** A body parsed by the schema its shape calls for; its problems are a 400 naming each field. */
function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new RequestValidationError("body", fieldIssues(parsed.error));
  return parsed.data;
}

export async function flashLogRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  const streams = new EventStreams(plugin);

  // A running session the app stopped reporting (phone died, app killed) is marked abandoned,
  // so the page offers recovery instead of showing it running for ever.
  const silence = ctx.config.flashSessionSilenceMs;
  const sweep = setInterval(
    () => {
      markAbandoned(db, silence)
        .then((rows) => (rows.length ? publishSessions(ctx, rows) : undefined))
        .catch((error: unknown) => plugin.log.warn({ err: error }, "marking silent flash sessions abandoned failed"));
    },
    Math.max(100, Math.min(30_000, Math.floor(silence / 3))),
  );
  sweep.unref();
  plugin.addHook("preClose", async () => clearInterval(sweep));

  /** A session started with a grant (`grant` in the body), or a flash reported after the fact. */
  app.post(
    `/${apiRoutes.vehicles.flashLogs(":id")}`,
    { schema: { params: idParams, body: z.record(z.string(), z.unknown()), response: { 201: flashLogSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { vehicle } = await vehicleFor(db, request.params.id, caller);
      if ("grant" in request.body) {
        const session = await startSession(ctx, vehicle, caller, parseBody(flashSessionStartSchema, request.body));
        await publishSessions(ctx, [session]);
        return reply.status(201).send(await flashLogToApi(db, session));
      }
      const body = parseBody(flashLogCreateSchema, request.body);
      let written: Pick<
        FlashLogRow,
        "kind" | "sha256" | "bakedTuneFileId" | "tuneFileId" | "tuneTitle" | "tuneVersion"
      >;
      if (body.bakedTuneFileId) {
        const [bake] = await db
          .select({
            id: bakedTuneFiles.id,
            vehicleId: bakedTuneFiles.vehicleId,
            sha256: bakedTuneFiles.sha256,
            tuneFileId: bakedTuneFiles.tuneFileId,
            tuneVersion: bakedTuneFiles.tuneVersion,
            tuneTitle: tuneFiles.title,
          })
          .from(bakedTuneFiles)
          .leftJoin(tuneFiles, eq(tuneFiles.id, bakedTuneFiles.tuneFileId))
          .where(eq(bakedTuneFiles.id, body.bakedTuneFileId));
        // An expired temp bake still counts: the app may report a flash made before it expired.
        if (!bake || bake.vehicleId !== vehicle.id)
          throw unprocessable("bakedTuneFileId", `no baked file ${body.bakedTuneFileId} for vehicle ${vehicle.name}`);
        if (body.sha256 && body.sha256 !== bake.sha256) {
          throw unprocessable(
            "sha256",
            `the flashed bytes (SHA-256 ${body.sha256}) are not the baked file (SHA-256 ${bake.sha256})`,
          );
        }
        written = {
          kind: "tune",
          sha256: bake.sha256,
          bakedTuneFileId: bake.id,
          tuneFileId: bake.tuneFileId,
          tuneTitle: bake.tuneTitle,
          tuneVersion: bake.tuneVersion,
        };
      } else {
        if (!vehicle.stockDumpSha256)
          throw unprocessable(
            "bakedTuneFileId",
            `vehicle ${vehicle.name} has no stock read; name the baked file that was flashed`,
          );
        if (body.sha256 !== vehicle.stockDumpSha256) {
          throw unprocessable(
            "sha256",
            `SHA-256 ${body.sha256} is neither a baked file nor vehicle ${vehicle.name}'s stock read (${vehicle.stockDumpSha256}); send bakedTuneFileId`,
          );
        }
        written = {
          kind: "stock",
          sha256: vehicle.stockDumpSha256,
          bakedTuneFileId: null,
          tuneFileId: null,
          tuneTitle: null,
          tuneVersion: null,
        };
      }
      const row = await db.transaction(async (tx) => {
        const [reported] = await tx
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
        // A flash written into someone else's car's history (its dealer, an admin): audited.
        await auditChangeTo(tx, request, vehicle.ownerUid, {
          action: "flash-log.reported",
          targetType: "vehicle",
          targetId: vehicle.id,
          after: {
            flashLogId: reported.id,
            kind: reported.kind,
            sha256: reported.sha256,
            result: reported.result,
            message: reported.message,
          },
        });
        return reported;
      });
      return reply.status(201).send(await flashLogToApi(db, row));
    },
  );

  app.post(
    `/${apiRoutes.vehicles.flashLog(":id", ":logId")}/steps`,
    { schema: { params: sessionParams, body: flashStepsReportSchema, response: { 200: flashLogSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { vehicle } = await vehicleFor(db, request.params.id, caller);
      const { row, stored } = await reportSteps(ctx, vehicle, caller, request.params.logId, request.body.steps);
      await publishSessions(ctx, [row], { flashLogId: row.id, rows: stored });
      return flashLogToApi(db, row);
    },
  );

  app.post(
    `/${apiRoutes.vehicles.flashLog(":id", ":logId")}/end`,
    { schema: { params: sessionParams, body: flashSessionEndSchema, response: { 200: flashLogSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { vehicle } = await vehicleFor(db, request.params.id, caller);
      const { row, recovered } = await endSession(ctx, vehicle, caller, request.params.logId, request.body);
      await publishSessions(ctx, [row, ...recovered]);
      return flashLogToApi(db, row);
    },
  );

  /** One session of the car with its steps and snapshots, for whoever may see the car. */
  app.get(
    `/${apiRoutes.vehicles.flashLog(":id", ":logId")}`,
    { schema: { params: sessionParams, response: { 200: flashSessionDetailSchema } } },
    async (request) => {
      const { vehicle } = await vehicleFor(db, request.params.id, callerOf(request));
      const [row] = await db
        .select()
        .from(flashLogs)
        .where(and(eq(flashLogs.id, request.params.logId), eq(flashLogs.vehicleId, vehicle.id)));
      if (!row) throw notFound(`Flash session ${request.params.logId}`);
      return sessionDetail(db, row);
    },
  );

  /** The vehicle's flash sessions and their steps as they happen, for whoever may see the car. */
  app.get(
    `/${apiRoutes.vehicles.listen(":id")}`,
    { handlerTimeout: streams.handlerTimeoutMs, schema: { params: idParams } },
    async (request, reply) => {
      const { vehicle } = await vehicleFor(db, request.params.id, callerOf(request));
      const stream = streams.start(reply);
      const unsubscribe = ctx.vehicleEvents.subscribe(vehicle.id, (event) => {
        if (event.type === "flash-log") stream.send(vehicleEventNames.flashLog, flashLogSchema.parse(event.log));
        else if (event.type === "flash-step")
          stream.send(
            vehicleEventNames.flashStep,
            flashStepEventSchema.parse({ flashLogId: event.flashLogId, step: event.step }),
          );
        else if (event.type === "preflight")
          stream.send(vehicleEventNames.preflight, preflightEventSchema.parse(event.preflight));
        else stream.send(vehicleEventNames.order, orderEventSchema.parse(event.order));
      });
      stream.onClose(unsubscribe);
      return reply;
    },
  );

  app.get(
    `/${apiRoutes.vehicles.flashLogs(":id")}`,
    { config: { list: listSpec }, schema: { params: idParams, response: { 200: flashLogPageSchema } } },
    async (request) => {
      const { vehicle } = await vehicleFor(db, request.params.id, callerOf(request));
      const page = await runList(
        db,
        listSpec,
        listQueryOf(request, listSpec),
        ({ where, orderBy, limit, offset }) =>
          db
            .select()
            .from(flashLogs)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .offset(offset),
        sql`${flashLogs.vehicleId} = ${vehicle.id}`,
      );
      return { ...page, data: await flashLogsToApi(db, page.data) };
    },
  );
}
