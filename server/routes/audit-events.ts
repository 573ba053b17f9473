/**
 * The audit trail for admins: the list, its filters and sort; the reading is services/audit-events.ts.
 */
import type { FastifyInstance } from "fastify";
import { apiPaths } from "../../contracts/api-paths";
import { auditList, auditPageSchema } from "../../contracts/audit";
import type { AppContext } from "../context";
import { auditEvents } from "../db/schema";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import type { ZodTypeProvider } from "../http/zod";
import { auditEventPage } from "../services/audit-events";

const AUDIT = `/${apiPaths["audit-events"].list}`;

const listSpec: ListSpec = {
  table: auditEvents,
  id: auditEvents.id,
  allowed: auditList,
  fields: {
    at: { column: auditEvents.at, kind: "timestamp" },
    actorUid: { column: auditEvents.actorUid, kind: "text" },
    subjectUid: { column: auditEvents.subjectUid, kind: "text" },
    action: { column: auditEvents.action, kind: "text" },
    targetType: { column: auditEvents.targetType, kind: "text" },
    targetId: { column: auditEvents.targetId, kind: "text" },
  },
  defaultSort: [{ field: "at", order: "desc" }],
};

/** The audit trail, for admins only: read here, written only by the server in the transaction of each change. */
export async function auditEventRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    AUDIT,
    { config: { role: "admin", list: listSpec }, schema: { response: { 200: auditPageSchema } } },
    async (request) => {
      const query = listQueryOf(request, listSpec);
      return auditEventPage(db, (select, scope) => runList(db, listSpec, query, select, scope));
    },
  );
}
