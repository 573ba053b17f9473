/**
 * The audit trail of tuning requests: one row for a move of a customer's request by its dealer
 * or an admin (the customer's own moves are theirs), with the fields that changed and what was
 * said with it. Reading and the dealer's messages are the thread's, not the trail's.
 */
import type { Tx } from "../../db/handle";
import { auditChangeTo, changedFields } from "../audit";
import type { RequestRow, Side } from "./sides";

/** Who asked for the change: the caller and the request's id (the one in the logs). */
export type RequestOrigin = Parameters<typeof auditChangeTo>[1];

/** What the trail keeps of a request's state: where it is, the quote, who works it, why it closed. */
const requestAudited = (row: RequestRow) => ({
  state: row.state,
  quotePriceCents: row.quotePriceCents,
  quoteCurrency: row.quoteCurrency,
  quoteExpectedDays: row.quoteExpectedDays,
  assignee: row.assignee,
  closedReason: row.closedReason,
  revisions: row.revisions,
  tuneFileId: row.tuneFileId,
});

export async function auditMove(
  tx: Tx,
  origin: RequestOrigin,
  side: Side,
  action: string,
  before: RequestRow,
  after: RequestRow,
  said?: string | null,
): Promise<void> {
  if (action === "read" || (side.actor === "dealer" && (action === "message" || action === "attachment"))) return;
  const changed = changedFields(requestAudited(before), requestAudited(after));
  await auditChangeTo(tx, origin, before.customerUid, {
    action: `tuning-request.${action}`,
    targetType: "tuning-request",
    targetId: before.id,
    before: changed.before,
    after: { ...changed.after, ...(said && { said }) },
  });
}
