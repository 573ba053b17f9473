import { inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { apiPaths } from "../../contracts/api-paths";
import { type AuditEvent, auditList, auditPageSchema } from "../../contracts/audit";
import type { AppContext } from "../context";
import { auditEvents, users } from "../db/schema";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import type { ZodTypeProvider } from "../http/zod";

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
      const page = await runList(db, listSpec, listQueryOf(request, listSpec), ({ where, orderBy, limit, offset }) =>
        db
          .select()
          .from(auditEvents)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset),
      );
      const actorUids = [...new Set(page.data.map((row) => row.actorUid).filter((uid): uid is string => uid !== null))];
      const actors = actorUids.length
        ? await db
            .select({ uid: users.uid, email: users.email, displayName: users.displayName })
            .from(users)
            .where(inArray(users.uid, actorUids))
        : [];
      const labelOf = new Map(actors.map((actor) => [actor.uid, actor.email ?? actor.displayName]));
      const data: AuditEvent[] = page.data.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actorUid: row.actorUid,
        actorLabel: row.actorUid ? (labelOf.get(row.actorUid) ?? null) : null,
        actorRole: row.actorRole,
        action: row.action,
        targetType: row.targetType,
        targetId: row.targetId,
        subjectUid: row.subjectUid,
        before: row.before,
        after: row.after,
        requestId: row.requestId,
      }));
      return { ...page, data };
    },
  );
}
