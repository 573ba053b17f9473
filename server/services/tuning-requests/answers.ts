/**
 * What the API answers of tuning requests: the summaries of a list (names, unread messages) and
 * the whole ticket for one of its sides, with the revisions' changes within the dealer's
 * protection of the request's tune file.
 */
import { and, asc, count, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import {
  AUTO_ACCEPT_DAYS,
  actionsFor,
  FINAL_STATES,
  type MapChange,
  type TuningRequest,
  type TuningRequestSummary,
} from "../../../contracts/tuning-requests";
import {
  dealerProfiles,
  orders,
  tuneFiles,
  tuningRequestEvents,
  tuningRequestFiles,
  tuningRequests,
  users,
} from "../../db/schema";
import type { VerifiedCaller } from "../identity";
import { DAY_MS, freeRevisionsUntil, type Handle, type RequestRow, referenceOf, requestFor, sideOf } from "./sides";

/** Summaries with names, the dealer's profile id and the caller's unread messages, in the rows' order. */
export async function summariesOf(
  db: Handle,
  rows: RequestRow[],
  caller: VerifiedCaller,
): Promise<TuningRequestSummary[]> {
  if (rows.length === 0) return [];
  const uids = [...new Set(rows.flatMap((row) => [row.customerUid, row.dealerUid]))];
  const people = await db
    .select({
      uid: users.uid,
      name: sql<string | null>`coalesce(${dealerProfiles.businessName}, ${users.displayName}, ${users.email})`,
      dealerId: dealerProfiles.id,
    })
    .from(users)
    .leftJoin(dealerProfiles, eq(dealerProfiles.userUid, users.uid))
    .where(inArray(users.uid, uids));
  const person = new Map(people.map((p) => [p.uid, p]));
  // Unread, in one query: messages and deliveries from the other side after the caller last read the thread (admins read no side's).
  const counted = await db
    .select({ id: tuningRequests.id, n: count() })
    .from(tuningRequestEvents)
    .innerJoin(tuningRequests, eq(tuningRequests.id, tuningRequestEvents.requestId))
    .where(
      and(
        inArray(
          tuningRequests.id,
          rows.map((row) => row.id),
        ),
        inArray(tuningRequestEvents.kind, ["message", "revision"]),
        or(
          and(
            eq(tuningRequests.customerUid, caller.uid),
            inArray(tuningRequestEvents.actor, ["dealer", "admin"]),
            or(isNull(tuningRequests.customerReadAt), gt(tuningRequestEvents.at, tuningRequests.customerReadAt)),
          ),
          and(
            eq(tuningRequests.dealerUid, caller.uid),
            eq(tuningRequestEvents.actor, "customer"),
            or(isNull(tuningRequests.dealerReadAt), gt(tuningRequestEvents.at, tuningRequests.dealerReadAt)),
          ),
        ),
      ),
    )
    .groupBy(tuningRequests.id);
  const unread = new Map(counted.map((row) => [row.id, row.n]));
  return rows.map((row) => ({
    id: row.id,
    reference: referenceOf(row),
    state: row.state,
    customerUid: row.customerUid,
    customerName: person.get(row.customerUid)?.name ?? null,
    dealerUid: row.dealerUid,
    dealerId: person.get(row.dealerUid)?.dealerId ?? null,
    dealerName: person.get(row.dealerUid)?.name ?? null,
    vehicleId: row.vehicleId,
    vehicleName: row.vehicleName,
    firmwareId: row.firmwareId,
    assignee: row.assignee,
    quote:
      row.quotePriceCents !== null && row.quoteCurrency && row.quoteExpectedDays !== null && row.quotedAt
        ? {
            priceCents: row.quotePriceCents,
            currency: row.quoteCurrency as "EUR",
            expectedDays: row.quoteExpectedDays,
            quotedAt: row.quotedAt.toISOString(),
          }
        : null,
    dueAt: row.dueAt?.toISOString() ?? null,
    revisions: row.revisions,
    lastCustomerActionAt: row.lastCustomerActionAt.toISOString(),
    unread: unread.get(row.id) ?? 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

/** The whole ticket for one of its sides: thread, files, revisions with their changes (within the dealer's protection) and what the caller may do. */
export async function ticketOf(
  db: Handle,
  row: RequestRow,
  caller: VerifiedCaller,
  mayView: boolean,
): Promise<TuningRequest> {
  const side = sideOf(caller, row)!;
  const [summary] = await summariesOf(db, [row], caller);
  const events = await db
    .select()
    .from(tuningRequestEvents)
    .where(eq(tuningRequestEvents.requestId, row.id))
    .orderBy(asc(tuningRequestEvents.at), asc(tuningRequestEvents.id));
  const files = await db
    .select()
    .from(tuningRequestFiles)
    .where(eq(tuningRequestFiles.requestId, row.id))
    .orderBy(asc(tuningRequestFiles.createdAt), asc(tuningRequestFiles.id));
  const order = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.tuningRequestId, row.id), inArray(orders.status, ["paid", "refunded"])))
    .limit(1);
  const hidden = (changes: MapChange[] | null) => (mayView || side.party === "dealer" ? changes : null);
  // The table's moves for the caller's side (after payment the dealer's cancel is `cancel-paid`), and what is always open.
  const actions = [
    ...actionsFor(row.state, side.party),
    "message",
    ...(side.party === "dealer" && !FINAL_STATES.includes(row.state) ? ["assign"] : []),
  ];
  return {
    ...summary,
    questionnaire: row.questionnaire,
    logIds: row.logIds,
    vehicle: {
      vin: row.vin,
      ecuSerial: row.ecuSerial,
      softwareId: row.softwareId,
      stockSha256: row.stockSha256,
      stockSize: row.stockSize,
    },
    orderId: order[0]?.id ?? null,
    tuneFileId: row.tuneFileId,
    freeRevisionDays: row.freeRevisionDays,
    freeRevisionsUntil: freeRevisionsUntil(row)?.toISOString() ?? null,
    autoAcceptAt:
      row.state === "delivered" && row.lastDeliveredAt
        ? new Date(row.lastDeliveredAt.getTime() + AUTO_ACCEPT_DAYS * DAY_MS).toISOString()
        : null,
    closedReason: row.closedReason,
    actions,
    revisionList: files
      .filter((file) => file.kind === "revision" && file.revision !== null)
      .map((file) => ({
        number: file.revision!,
        fileId: file.id,
        tuneFileId: row.tuneFileId ?? "",
        sha256: file.sha256,
        size: file.size,
        note: file.note,
        changesFromStock: hidden(file.changesFromStock),
        changesFromPrevious: file.revision === 1 ? null : hidden(file.changesFromPrevious),
        deliveredAt: file.createdAt.toISOString(),
      })),
    events: events.map((event) => ({
      id: event.id,
      at: event.at.toISOString(),
      actorUid: event.actorUid,
      actor: event.actor,
      kind: event.kind,
      from: event.fromState,
      to: event.toState,
      text: event.text,
      logIds: event.logIds,
      fileIds: event.fileIds,
    })),
    files: files.map(fileToApi),
  };
}

export const fileToApi = (file: typeof tuningRequestFiles.$inferSelect) => ({
  id: file.id,
  requestId: file.requestId,
  kind: file.kind,
  name: file.name,
  size: file.size,
  sha256: file.sha256,
  senderUid: file.senderUid,
  sender: file.sender,
  revision: file.revision,
  createdAt: file.createdAt.toISOString(),
});

/** The ticket for the caller; the revisions' changes follow the request's tune file's protection. */
export async function ticketFor(db: Handle, row: RequestRow, caller: VerifiedCaller): Promise<TuningRequest> {
  const [tune] = row.tuneFileId
    ? await db.select({ mayView: tuneFiles.mayView }).from(tuneFiles).where(eq(tuneFiles.id, row.tuneFileId))
    : [];
  return ticketOf(db, row, caller, tune?.mayView ?? true);
}

/** The request's ticket as it is now, or null once the request is gone. */
export async function currentTicket(db: Handle, id: string, caller: VerifiedCaller): Promise<TuningRequest | null> {
  const [fresh] = await db.select().from(tuningRequests).where(eq(tuningRequests.id, id));
  return fresh ? ticketFor(db, fresh, caller) : null;
}

/** The ticket of the request `id` for the caller; anyone else is told it does not exist. */
export async function requestTicket(db: Handle, caller: VerifiedCaller, id: string): Promise<TuningRequest> {
  const { row } = await requestFor(db, caller, id);
  return ticketFor(db, row, caller);
}
