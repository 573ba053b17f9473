/**
 * The audit trail as the API answers it: who changed what, when, on which request, with the
 * record before and after. Admins read it on a user's page (the changes that concern the user)
 * and on the server-management page (everything).
 */
import { z } from "zod";
import { listResponseSchema } from "./list-response";

export const auditEventSchema = z.strictObject({
  id: z.number().int(),
  at: z.iso.datetime({ offset: true }),
  actorUid: z.string().nullable(),
  /** The actor's email or name when the actor is a user we know (else null: the server itself, or a deleted account). */
  actorLabel: z.string().nullable(),
  actorRole: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  subjectUid: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  requestId: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditList = {
  sort: ["at"],
  filter: ["at", "actorUid", "subjectUid", "action", "targetType", "targetId"],
} as const;
export const auditPageSchema = listResponseSchema(auditEventSchema);
