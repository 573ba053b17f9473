/**
 * Flash logs of a vehicle (spec: GET and POST /user-vehicles/{id}/flash-logs), grown into flash
 * sessions: the app starts one with the grant of its pre-flight, reports its steps as it goes
 * (`…/{logId}/steps`) and ends it (`…/{logId}/end`); the vehicle's event stream
 * (`/user-vehicles/{id}/listen`) shows it live. A flash reported after the fact (no grant) is
 * still taken: what the app says it wrote is checked against the bake or the stock read it
 * names, so the history shows what is really on the car.
 */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiRoutes } from "../../../contracts/api-paths";
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
} from "../../../contracts/flash-logs";
import { listResponseSchema } from "../../../contracts/list-response";
import type { AppContext } from "../../context";
import { flashLogs } from "../../db/schema";
import { fieldIssues, RequestValidationError } from "../../errors";
import { callerOf } from "../../http/auth";
import { idParams } from "../../http/crud";
import { EventStreams } from "../../http/event-stream";
import { type ListSpec, listQueryOf, runList } from "../../http/list";
import { EVENT_STREAM } from "../../http/media";
import type { ZodTypeProvider } from "../../http/zod";
import {
  abandonSilentSessions,
  endFlashSession,
  reportFlash,
  reportFlashSteps,
  startFlashSession,
  vehicleFlashLogPage,
  vehicleFlashSession,
} from "../../services/flash-logs/records";
import { vehicleFor } from "../../services/tune-access";

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

const sessionParams = z.strictObject({ id: z.uuid("id must be a UUID"), logId: z.uuid("logId must be a UUID") });
const flashLogPageSchema = listResponseSchema(flashLogSchema);

/** A body parsed by the schema its shape calls for; its problems are a 400 naming each field. */
function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new RequestValidationError("body", fieldIssues(parsed.error));
  return parsed.data;
}

/**
 * A running session the app stopped reporting (phone died, app killed) is marked abandoned,
 * so the page offers recovery instead of showing it running for ever.
 */
function installSilenceSweep(plugin: FastifyInstance, ctx: AppContext) {
  const silence = ctx.config.flashSessionSilenceMs;
  const sweep = setInterval(
    () => {
      abandonSilentSessions(ctx, silence).catch((error: unknown) =>
        plugin.log.warn({ err: error }, "marking silent flash sessions abandoned failed"),
      );
    },
    Math.max(100, Math.min(30_000, Math.floor(silence / 3))),
  );
  sweep.unref();
  plugin.addHook("preClose", async () => clearInterval(sweep));
}

/** What the app reports: a session's start, steps and end, or a flash after the fact. */
function registerReportRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  /** A session started with a grant (`grant` in the body), or a flash reported after the fact. */
  app.post(
    `/${apiRoutes.vehicles.flashLogs(":id")}`,
    { schema: { params: idParams, body: z.record(z.string(), z.unknown()), response: { 201: flashLogSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { vehicle } = await vehicleFor(db, request.params.id, caller);
      const log =
        "grant" in request.body
          ? await startFlashSession(ctx, vehicle, caller, parseBody(flashSessionStartSchema, request.body))
          : await reportFlash(db, request, vehicle, caller, parseBody(flashLogCreateSchema, request.body));
      return reply.status(201).send(log);
    },
  );

  app.post(
    `/${apiRoutes.vehicles.flashLog(":id", ":logId")}/steps`,
    { schema: { params: sessionParams, body: flashStepsReportSchema, response: { 200: flashLogSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { vehicle } = await vehicleFor(db, request.params.id, caller);
      return reportFlashSteps(ctx, vehicle, caller, request.params.logId, request.body.steps);
    },
  );

  app.post(
    `/${apiRoutes.vehicles.flashLog(":id", ":logId")}/end`,
    { schema: { params: sessionParams, body: flashSessionEndSchema, response: { 200: flashLogSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { vehicle } = await vehicleFor(db, request.params.id, caller);
      return endFlashSession(ctx, vehicle, caller, request.params.logId, request.body);
    },
  );
}

/** What whoever may see the car reads: one session, the sessions live, and the list. */
function registerReadRoutes(plugin: FastifyInstance, ctx: AppContext, streams: EventStreams) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  /** One session of the car with its steps and snapshots, for whoever may see the car. */
  app.get(
    `/${apiRoutes.vehicles.flashLog(":id", ":logId")}`,
    { schema: { params: sessionParams, response: { 200: flashSessionDetailSchema } } },
    async (request) => {
      const { vehicle } = await vehicleFor(db, request.params.id, callerOf(request));
      return vehicleFlashSession(db, vehicle.id, request.params.logId);
    },
  );

  /** The vehicle's flash sessions and their steps as they happen, for whoever may see the car. */
  app.get(
    `/${apiRoutes.vehicles.listen(":id")}`,
    { config: { media: EVENT_STREAM }, handlerTimeout: streams.handlerTimeoutMs, schema: { params: idParams } },
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
      const query = listQueryOf(request, listSpec);
      return vehicleFlashLogPage(db, vehicle.id, (select, scope) => runList(db, listSpec, query, select, scope));
    },
  );
}

export async function flashLogRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const streams = new EventStreams(plugin);
  installSilenceSweep(plugin, ctx);
  registerReportRoutes(plugin, ctx);
  registerReadRoutes(plugin, ctx, streams);
}
