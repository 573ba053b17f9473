/**
 * The flash log for support (spec: GET /flash-log, GET /flash-log/{id}): every flash session for
 * admins, and for a dealer the sessions of the cars they manage; one session with its steps,
 * snapshots and the facts of the grant it used; and the same as a downloadable bundle.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { apiRoutes } from "../../../contracts/api-paths";
import { flashLogList, flashLogSchema, flashSessionDetailSchema } from "../../../contracts/flash-logs";
import { listResponseSchema } from "../../../contracts/list-response";
import type { AppContext } from "../../context";
import { flashLogs } from "../../db/schema";
import { callerOf } from "../../http/auth";
import { idParams } from "../../http/crud";
import { type ListSpec, listQueryOf, runList } from "../../http/list";
import type { ZodTypeProvider } from "../../http/zod";
import { flashLogPage, visibleFlashSession } from "../../services/flash-logs/records";

const FLASH_LOG = `/${apiRoutes.flashLog.list()}`;
const dealer = { role: "dealer" as const };

const listSpec: ListSpec = {
  table: flashLogs,
  id: flashLogs.id,
  allowed: flashLogList,
  fields: {
    flashedAt: { column: flashLogs.flashedAt, kind: "timestamp" },
    result: { column: flashLogs.result, kind: "text" },
    kind: { column: flashLogs.kind, kind: "text" },
    vehicleId: { column: flashLogs.vehicleId, kind: "uuid" },
    firmwareId: { column: flashLogs.firmwareId, kind: "text" },
    ecuFamily: { column: flashLogs.ecuFamily, kind: "text" },
    adapterKind: { column: flashLogs.adapterKind, kind: "text" },
    appVersion: { column: flashLogs.appVersion, kind: "text" },
    failedStep: { column: flashLogs.failedStep, kind: "text" },
    failedNrc: { column: flashLogs.failedNrc, kind: "number" },
    durationMs: { column: flashLogs.durationMs, kind: "number" },
  },
  search: sql`(coalesce(${flashLogs.tuneTitle}, '') || ' ' || coalesce(${flashLogs.firmwareId}, '') || ' ' || ${flashLogs.message} || ' ' || ${flashLogs.sha256})`,
  defaultSort: [{ field: "flashedAt", order: "desc" }],
};

export async function flashLogAdminRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    FLASH_LOG,
    { config: { ...dealer, list: listSpec }, schema: { response: { 200: listResponseSchema(flashLogSchema) } } },
    async (request) => {
      const caller = callerOf(request);
      const query = listQueryOf(request, listSpec);
      return flashLogPage(db, caller, (select, scope) => runList(db, listSpec, query, select, scope));
    },
  );

  app.get(
    `/${apiRoutes.flashLog.record(":id")}`,
    { config: dealer, schema: { params: idParams, response: { 200: flashSessionDetailSchema } } },
    async (request) => visibleFlashSession(db, callerOf(request), request.params.id),
  );

  /** The session for support: one JSON file with everything above. */
  app.get(
    `/${apiRoutes.flashLog.record(":id")}/bundle`,
    { config: dealer, schema: { params: idParams } },
    async (request, reply) => {
      const detail = await visibleFlashSession(db, callerOf(request), request.params.id);
      return reply
        .header("content-type", "application/json; charset=utf-8")
        .header("content-disposition", `attachment; filename="flash-session-${detail.log.id}.json"`)
        .send(
          JSON.stringify({ kind: "flash-session-bundle", exportedAt: new Date().toISOString(), ...detail }, null, 2),
        );
    },
  );
}
