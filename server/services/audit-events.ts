/**
 * Reading the audit trail: a page of events with each actor's label (email, else display name).
 * Events are written by services/audit.ts in the transaction of each change.
 */
import { inArray } from "drizzle-orm";
import type { AuditEvent } from "../../contracts/audit";
import type { Db } from "../db/handle";
import { auditEvents, users } from "../db/schema";
import type { Lister } from "./list-pages";

type AuditRow = typeof auditEvents.$inferSelect;

/** The labels of the actors the rows name, by uid. */
async function actorLabels(db: Db, rows: AuditRow[]): Promise<Map<string, string | null>> {
  const actorUids = [...new Set(rows.map((row) => row.actorUid).filter((uid): uid is string => uid !== null))];
  const actors = actorUids.length
    ? await db
        .select({ uid: users.uid, email: users.email, displayName: users.displayName })
        .from(users)
        .where(inArray(users.uid, actorUids))
    : [];
  return new Map(actors.map((actor) => [actor.uid, actor.email ?? actor.displayName]));
}

/** A page of the trail, each event with its actor's label. */
export async function auditEventPage<Page extends { data: AuditRow[] }>(db: Db, list: Lister<AuditRow, Page>) {
  const page = await list(({ where, orderBy, limit, offset }) =>
    db
      .select()
      .from(auditEvents)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset),
  );
  const labelOf = await actorLabels(db, page.data);
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
}
