/**
 * The audit trail: one row per change an admin (or a dealer, to someone else's data) makes,
 * written by the server in the transaction of the change, so the row exists exactly when the
 * change does. The browser never writes it (an audit written by the client could be forged).
 * The table refuses updates and deletes (a trigger in migration 0020).
 */
import { createHash } from "node:crypto";
import type { Role } from "../../contracts/account";
import type { Db, Tx } from "../db/handle";
import { auditEvents } from "../db/schema";
import type { VerifiedCaller } from "./identity";

export interface AuditActor {
  /** Null when the server acts on its own (a job). */
  uid: string | null;
  role: Role | "system";
  requestId: string | null;
}

export interface AuditChange {
  /** "<resource>.<verb>": "user.role-changed", "supported-vehicle.updated"… */
  action: string;
  targetType: string;
  targetId: string;
  /** The user the change concerns, for that user's audit. */
  subjectUid?: string | null;
  before?: unknown;
  after?: unknown;
}

/** Who made the request: a route's caller and the request's id (the one in the logs). */
export function actorFrom(request: { caller: VerifiedCaller | null; id: string }): AuditActor {
  return { uid: request.caller?.uid ?? null, role: request.caller?.role ?? "system", requestId: request.id };
}

export const SYSTEM_ACTOR: AuditActor = { uid: null, role: "system", requestId: null };

/** JSON of a value as stored: dates as ISO strings, undefined dropped, so before/after compare as the API shows them. */
function snapshot(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(
    JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? item.toString() : item)),
  ) as unknown;
}

export async function writeAudit(db: Db | Tx, actor: AuditActor, change: AuditChange): Promise<void> {
  await db.insert(auditEvents).values({
    actorUid: actor.uid,
    actorRole: actor.role,
    action: change.action,
    targetType: change.targetType,
    targetId: change.targetId,
    subjectUid: change.subjectUid ?? null,
    before: snapshot(change.before),
    after: snapshot(change.after),
    requestId: actor.requestId,
  });
}

/** Whether a change by this caller to data owned by `ownerUid` is audited: admins always; anyone else only on someone else's data. */
export function auditsChangeBy(actor: AuditActor, ownerUid: string | null): boolean {
  return actor.role === "admin" || (actor.uid !== null && ownerUid !== null && actor.uid !== ownerUid);
}

/**
 * One row when the change is audited (an admin's, or anyone's on data `ownerUid` owns; see
 * auditsChangeBy), nothing otherwise; the owner is the row's subject unless the change names one.
 */
export async function auditChangeTo(
  db: Db | Tx,
  request: { caller: VerifiedCaller | null; id: string },
  ownerUid: string | null,
  change: AuditChange,
): Promise<void> {
  const actor = actorFrom(request);
  if (auditsChangeBy(actor, ownerUid)) await writeAudit(db, actor, { subjectUid: ownerUid, ...change });
}

/**
 * The fields of `after` whose stored value differs from `before`'s, each side with only those
 * fields: the before/after of a partial update (a PATCH that sets one field records one field).
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const changed = Object.keys(after).filter(
    (field) => canonical(snapshot(before[field])) !== canonical(snapshot(after[field])),
  );
  return {
    before: Object.fromEntries(changed.map((field) => [field, before[field] ?? null])),
    after: Object.fromEntries(changed.map((field) => [field, after[field] ?? null])),
  };
}

/** JSON with every object's keys sorted: the same document read back from jsonb (which reorders keys) gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A large document (a definition, a map) as its SHA-256: the trail shows whether it changed without copying it. */
export function digestOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return `sha256:${createHash("sha256")
    .update(canonical(snapshot(value)))
    .digest("hex")}`;
}
