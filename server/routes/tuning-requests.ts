/**
 * Tuning requests: a customer asks a dealer for a custom tune for one of their cars, and the two
 * work one ticket to an accepted tune (contracts/tuning-requests.ts for the states and who moves
 * them, services/tuning-requests.ts for the moves). Payment is the marketplace's order
 * (`POST /payments/tuning-request-order`); a cancellation or "not possible" after payment refunds
 * it there. A revision is checked as any tune upload (the car's firmware, valid checksums),
 * becomes a version of the request's tune file and is licensed to the car at once; the customer
 * reads it as map-level changes against the stock read and the previous revision.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  attachmentFieldsSchema,
  PAID_STATES,
  revisionFieldsSchema,
  TUNING_REQUEST_EVENT,
  type TuningRequest,
  type TuningRequestPatchBody,
  tuningRequestCreateSchema,
  tuningRequestFilesSchema,
  tuningRequestList,
  tuningRequestPageSchema,
  tuningRequestPatchSchema,
  tuningRequestSchema,
} from "../../contracts/tuning-requests";
import { diffImages, summarizeChanges } from "../../domain/tune";
import type { AppContext } from "../context";
import type { Tx } from "../db/handle";
import {
  dataLogs,
  dealerProfiles,
  orders,
  tuneFilePurchases,
  tuneFiles,
  tuneFileVersions,
  tuningRequestFiles,
  tuningRequests,
} from "../db/schema";
import { badRequest, forbidden, HttpError, notFound } from "../errors";
import { callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import { EventStreams } from "../http/event-stream";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { fieldsOf } from "../http/multipart-fields";
import { requireFile, withUpload } from "../http/uploads";
import type { ZodTypeProvider } from "../http/zod";
import { auditChangeTo, changedFields } from "../services/audit";
import { NotFoundRefusal } from "../services/errors";
import { definitionOf } from "../services/firmware-records";
import type { VerifiedCaller } from "../services/identity";
import type { Notify } from "../services/notifications";
import { requestCancel, requestRefund } from "../services/payments/orders";
import { isAdmin, vehicleFor } from "../services/tune-access";
import { readImage } from "../services/tune-files";
import { acceptImage, firmwareOfImage } from "../services/tune-uploads";
import {
  addToThread,
  closePaid,
  fileToApi,
  freeRevisionsUntil,
  moveRequest,
  mustMove,
  paidOrderOf,
  type RequestRow,
  referenceOf,
  requestFor,
  type Side,
  sideOf,
  summariesOf,
  tellOthers,
  ticketOf,
  visibleRequestsSql,
} from "../services/tuning-requests";

const REQUESTS = `/${apiPaths["tuning-requests"].list}`;
// Delivered requests are accepted after AUTO_ACCEPT_DAYS by the queue's "tuning-requests.auto-accept" job (services/background-jobs.ts).

const listSpec: ListSpec = {
  table: tuningRequests,
  id: tuningRequests.id,
  allowed: tuningRequestList,
  fields: {
    state: { column: tuningRequests.state, kind: "text" },
    vehicleId: { column: tuningRequests.vehicleId, kind: "uuid" },
    dealerUid: { column: tuningRequests.dealerUid, kind: "text" },
    customerUid: { column: tuningRequests.customerUid, kind: "text" },
    createdAt: { column: tuningRequests.createdAt, kind: "timestamp" },
    updatedAt: { column: tuningRequests.updatedAt, kind: "timestamp" },
    lastCustomerActionAt: { column: tuningRequests.lastCustomerActionAt, kind: "timestamp" },
  },
  search: sql`('TR-' || ${tuningRequests.number} || ' ' || ${tuningRequests.vehicleName} || ' ' || coalesce(${tuningRequests.vin}, '') || ' ' || ${tuningRequests.firmwareId} || ' ' || coalesce(${tuningRequests.assignee}, ''))`,
  defaultSort: [{ field: "updatedAt", order: "desc" }],
};

/** The caller's own data logs among `ids`; any other id is refused by name. */
async function ownLogs(ctx: AppContext, caller: VerifiedCaller, ids: string[], path = "logIds"): Promise<string[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)];
  const found = await ctx.db
    .select({ id: dataLogs.id })
    .from(dataLogs)
    .where(and(inArray(dataLogs.id, unique), eq(dataLogs.ownerUid, caller.uid)));
  const missing = unique.filter((id) => !found.some((row) => row.id === id));
  if (missing.length)
    throw badRequest("Invalid body", `no data log of yours: ${missing.join(", ")}`, [
      { path, message: `no data log of yours: ${missing.join(", ")}` },
    ]);
  return unique;
}

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

/**
 * One audit row for a move of a customer's request by its dealer or an admin (the customer's own
 * moves are theirs): the fields that changed and what was said with it. Reading and the dealer's
 * messages are the thread's, not the trail's.
 */
async function auditMove(
  tx: Tx,
  request: FastifyRequest,
  side: Side,
  action: string,
  before: RequestRow,
  after: RequestRow,
  said?: string | null,
): Promise<void> {
  if (action === "read" || (side.actor === "dealer" && (action === "message" || action === "attachment"))) return;
  const changed = changedFields(requestAudited(before), requestAudited(after));
  await auditChangeTo(tx, request, before.customerUid, {
    action: `tuning-request.${action}`,
    targetType: "tuning-request",
    targetId: before.id,
    before: changed.before,
    after: { ...changed.after, ...(said && { said }) },
  });
}

export async function tuningRequestRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;
  const streams = new EventStreams(plugin);
  const changed = (id: string) => ctx.tuningRequestEvents.publish(id, { type: "changed" });

  /** The ticket for the caller; the revisions' changes follow the request's tune file's protection. */
  const ticket = async (row: RequestRow, caller: VerifiedCaller): Promise<TuningRequest> => {
    const [tune] = row.tuneFileId
      ? await db.select({ mayView: tuneFiles.mayView }).from(tuneFiles).where(eq(tuneFiles.id, row.tuneFileId))
      : [];
    return ticketOf(db, row, caller, tune?.mayView ?? true);
  };

  /** An unpaid checkout still open on the request is cancelled at the provider first, so nobody pays a closed request. */
  const closeOpenCheckout = async (row: RequestRow) => {
    const open = await db
      .select()
      .from(orders)
      .where(and(eq(orders.tuningRequestId, row.id), inArray(orders.status, ["created", "failed"])));
    for (const order of open) await requestCancel(ctx, order);
  };

  /** Refunds the request's payment (the provider's event reverses the ledger and removes the revisions' licence). */
  const refundPayment = async (row: RequestRow, reason: string) => {
    const order = await paidOrderOf(db, row.id);
    if (order) await requestRefund(ctx, order, reason);
  };

  // -------------------------------------------------------------------------
  // The queue and asking

  app.get(
    REQUESTS,
    { config: { list: listSpec }, schema: { response: { 200: tuningRequestPageSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const page = await runList(
        db,
        listSpec,
        listQueryOf(request, listSpec),
        ({ where, orderBy, limit, offset }) =>
          db
            .select()
            .from(tuningRequests)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .offset(offset),
        visibleRequestsSql(caller),
      );
      return { ...page, data: await summariesOf(db, page.data, caller) };
    },
  );

  /**
   * A customer asks a dealer: the car must be theirs and have a stock read of the software it
   * runs now (its identity and that read are attached), the dealer approved, the logs theirs.
   */
  app.post(
    REQUESTS,
    { schema: { body: tuningRequestCreateSchema, response: { 201: tuningRequestSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const body = request.body;
      const field = (path: string, message: string, status = 400) =>
        new HttpError(status, status === 400 ? "Invalid body" : "Cannot ask yet", message, [{ path, message }]);
      const { vehicle, owner } = await vehicleFor(db, body.vehicleId, caller).catch((error: unknown) => {
        throw (error instanceof HttpError && error.statusCode === 404) || error instanceof NotFoundRefusal
          ? field("vehicleId", "no such vehicle of yours")
          : error;
      });
      if (!owner) throw field("vehicleId", "only the car's owner asks for a tune for it");
      const [dealer] = await db.select().from(dealerProfiles).where(eq(dealerProfiles.id, body.dealerId));
      if (dealer?.status !== "approved") throw field("dealerId", "no approved dealer with this id");
      if (dealer.userUid === caller.uid) throw field("dealerId", "you cannot ask yourself");
      if (!vehicle.stockDumpSha256 || !vehicle.stockDumpSize)
        throw field(
          "vehicleId",
          "the car has no stock read: read the ECU with the app first, so the dealer works from your car's own software",
          422,
        );
      // The read must be of the software the car runs now: a car flashed since has another base.
      const read = await firmwareOfImage(ctx, await readImage(ctx, vehicle.stockDumpSha256)).catch(() => null);
      if (!read || !vehicle.firmwareId || read.firmwareId !== vehicle.firmwareId) {
        throw field(
          "vehicleId",
          `the stock read is of ${read?.firmwareId ?? "firmware we do not know"} but the car now runs ${vehicle.softwareId ?? vehicle.firmwareId ?? "unknown software"}: read the stock again with the app`,
          422,
        );
      }
      const logIds = await ownLogs(ctx, caller, body.logIds);
      const row = await ctx.notifications.transaction(async (tx, notify) => {
        const [made] = await tx
          .insert(tuningRequests)
          .values({
            customerUid: caller.uid,
            dealerUid: dealer.userUid,
            vehicleId: vehicle.id,
            vehicleName: vehicle.name,
            vin: vehicle.vin,
            ecuSerial: vehicle.ecuSerial,
            softwareId: vehicle.softwareId,
            firmwareId: vehicle.firmwareId!,
            stockSha256: vehicle.stockDumpSha256!,
            stockSize: vehicle.stockDumpSize!,
            questionnaire: body.questionnaire,
            logIds,
            freeRevisionDays: dealer.freeRevisionDays,
          })
          .returning();
        const [stock] = await tx
          .insert(tuningRequestFiles)
          .values({
            requestId: made.id,
            vehicleId: vehicle.id,
            kind: "stock-read",
            name: `${vehicle.firmwareId}-stock.bin`,
            sha256: made.stockSha256,
            size: made.stockSize,
            senderUid: caller.uid,
            sender: "customer",
          })
          .returning();
        await addToThread(tx, made.id, {
          kind: "submitted",
          actor: "customer",
          actorUid: caller.uid,
          to: "submitted",
          text: body.questionnaire.notes,
          logIds,
          fileIds: [stock.id],
        });
        await tellOthers(notify, made, "customer", {
          title: `a custom tune asked for ${vehicle.name}`,
          body: `${vehicle.firmwareId}, ${body.questionnaire.fuel}${body.questionnaire.targetPowerHp ? `, aiming for ${body.questionnaire.targetPowerHp} hp` : ""}`,
        });
        return made;
      });
      return reply.status(201).send(await ticket(row, caller));
    },
  );

  app.get(
    `/${apiRoutes.tuningRequests.record(":id")}`,
    { schema: { params: idParams, response: { 200: tuningRequestSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { row } = await requestFor(db, caller, request.params.id);
      return ticket(row, caller);
    },
  );

  // -------------------------------------------------------------------------
  // Moving the ticket

  /** One action: a transition by the side allowed to make it (409 naming the state and who may), a message, an assignment or "read". */
  app.patch(
    `/${apiRoutes.tuningRequests.record(":id")}`,
    { schema: { params: idParams, body: tuningRequestPatchSchema, response: { 200: tuningRequestSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const body: TuningRequestPatchBody = request.body;
      const { row: before, side } = await requestFor(db, caller, request.params.id);

      // What must happen at the provider happens first; the move below checks the state again under its lock.
      if (body.action === "cancel" || body.action === "decline") {
        const action =
          body.action === "decline"
            ? "decline"
            : PAID_STATES.includes(before.state) && side.party === "dealer"
              ? "cancel-paid"
              : "cancel";
        const to = mustMove(before, action, side.party);
        if (PAID_STATES.includes(before.state)) {
          // Closed by the refund: the provider's event may arrive before this answer (the sandbox's does) or after (Stripe's).
          const close = {
            to: to as "cancelled" | "not-possible",
            actor: side.actor,
            actorUid: caller.uid,
            reason: body.reason,
          };
          await db.update(tuningRequests).set({ pendingClose: close }).where(eq(tuningRequests.id, before.id));
          try {
            await refundPayment(before, body.reason);
          } catch (error) {
            await db.update(tuningRequests).set({ pendingClose: null }).where(eq(tuningRequests.id, before.id));
            throw error;
          }
          const row = await ctx.notifications.transaction(async (tx, notify) => {
            const { row: locked } = await requestFor(tx, caller, before.id, true);
            const closed = PAID_STATES.includes(locked.state) ? await closePaid(tx, notify, locked, close) : locked;
            // Against the state before the refund: the provider's event may have closed it already.
            await auditMove(tx, request, side, body.action, before, closed, body.reason);
            return closed;
          });
          changed(row.id);
          return ticket(row, caller);
        }
        await closeOpenCheckout(before);
      }
      if (body.action === "quote") {
        mustMove(before, "quote", side.party);
        const [open] = await db
          .select({ id: orders.id })
          .from(orders)
          .where(and(eq(orders.tuningRequestId, before.id), inArray(orders.status, ["created", "failed"])));
        if (open)
          throw new HttpError(
            409,
            "Conflict",
            "the customer is paying the current quote: cancel the request instead of changing it",
            [{ path: "action", message: "a checkout of the current quote is open" }],
          );
      }
      const logIds = body.action === "request-revision" ? await ownLogs(ctx, caller, body.logIds) : [];

      const row = await ctx.notifications.transaction(async (tx, notify) => {
        const { row: locked } = await requestFor(tx, caller, before.id, true);
        const moved = await act(tx, notify, locked, side, caller, body, logIds);
        const said =
          "reason" in body ? body.reason : "note" in body ? body.note : "text" in body ? body.text : undefined;
        await auditMove(tx, request, side, body.action, locked, moved, said);
        return moved;
      });
      changed(row.id);
      return ticket(row, caller);
    },
  );

  async function act(
    tx: Tx,
    notify: Notify,
    row: RequestRow,
    side: Side,
    caller: VerifiedCaller,
    body: TuningRequestPatchBody,
    logIds: string[],
  ): Promise<RequestRow> {
    const who = { actor: side.actor, actorUid: caller.uid };
    const now = new Date();
    switch (body.action) {
      case "quote": {
        const to = mustMove(row, "quote", side.party);
        const [dealer] = await tx
          .select({ days: dealerProfiles.freeRevisionDays })
          .from(dealerProfiles)
          .where(eq(dealerProfiles.userUid, row.dealerUid));
        const price = `${(body.priceCents / 100).toFixed(2)} ${body.currency}`;
        return moveRequest(tx, notify, row, {
          to,
          ...who,
          text: [`${price}, ready in ${body.expectedDays} day${body.expectedDays === 1 ? "" : "s"}`, body.note]
            .filter(Boolean)
            .join(". "),
          title: `quoted ${price}`,
          set: {
            quotePriceCents: body.priceCents,
            quoteCurrency: body.currency,
            quoteExpectedDays: body.expectedDays,
            quotedAt: now,
            freeRevisionDays: dealer?.days ?? row.freeRevisionDays,
          },
        });
      }
      case "decline":
      case "cancel": {
        // Before payment only (a paid request is closed by its refund, above).
        const to = mustMove(row, body.action === "decline" ? "decline" : "cancel", side.party);
        return moveRequest(tx, notify, row, {
          ...who,
          to,
          text: body.reason,
          set: { closedReason: body.reason },
          title: to === "not-possible" ? "not possible" : "cancelled",
        });
      }
      case "start":
        return moveRequest(tx, notify, row, {
          ...who,
          to: mustMove(row, "start", side.party),
          text: body.note,
          title: "work started",
        });
      case "request-revision": {
        const to = mustMove(row, "request-revision", side.party);
        const until = freeRevisionsUntil(row);
        if (until && now > until) {
          const message = `free revisions ended on ${until.toISOString().slice(0, 10)} (${row.freeRevisionDays} days after the first delivery): accept this revision, or ask the dealer for a new request`;
          throw new HttpError(409, "Conflict", message, [{ path: "action", message }]);
        }
        return moveRequest(tx, notify, row, {
          ...who,
          to,
          text: body.note,
          logIds,
          title: `revision ${row.revisions + 1} asked for`,
        });
      }
      case "accept":
        return moveRequest(tx, notify, row, {
          ...who,
          to: mustMove(row, "accept", side.party),
          text: body.note,
          title: `revision ${row.revisions} accepted`,
        });
      case "message": {
        await addToThread(tx, row.id, { kind: "message", ...who, text: body.text, at: now });
        await tellOthers(notify, row, side.actor, {
          kind: "tuning-request.message",
          title: `message from the ${side.actor}`,
          body: body.text.slice(0, 200),
        });
        return touch(tx, row, side, now);
      }
      case "assign": {
        if (side.party !== "dealer") throw forbidden("Only the dealer assigns the request");
        await addToThread(tx, row.id, {
          kind: "assignment",
          ...who,
          text: body.assignee ? `Assigned to ${body.assignee}` : "Unassigned",
          at: now,
        });
        const [assigned] = await tx
          .update(tuningRequests)
          .set({ assignee: body.assignee, updatedAt: now })
          .where(eq(tuningRequests.id, row.id))
          .returning();
        return assigned;
      }
      case "read": {
        if (side.actor === "admin") return row;
        const [read] = await tx
          .update(tuningRequests)
          .set(side.party === "customer" ? { customerReadAt: now } : { dealerReadAt: now })
          .where(eq(tuningRequests.id, row.id))
          .returning();
        return read;
      }
    }
  }

  /** A message or file changes the ticket's age (and the customer's last action); the sender has read what came before. */
  async function touch(tx: Tx, row: RequestRow, side: Side, now: Date): Promise<RequestRow> {
    const [touched] = await tx
      .update(tuningRequests)
      .set({
        updatedAt: now,
        ...(side.actor === "customer" && { lastCustomerActionAt: now, customerReadAt: now }),
        ...(side.actor === "dealer" && { dealerReadAt: now }),
      })
      .where(eq(tuningRequests.id, row.id))
      .returning();
    return touched;
  }

  /**
   * The dealer delivers a revision: the file must be the car's firmware with valid checksums (or
   * fixed, with `fixChecksums=true`); it becomes the next version of the request's tune file,
   * licensed to the car at once, with its map-level changes against the stock read and the
   * previous revision.
   */
  app.post(
    `/${apiRoutes.tuningRequests.revisions(":id")}`,
    { schema: { params: idParams, response: { 201: tuningRequestSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { row: before, side } = await requestFor(db, caller, request.params.id);
      mustMove(before, "deliver", side.party);
      if (!before.vehicleId)
        throw new HttpError(409, "Conflict", "the car was removed by its owner: there is nothing to deliver to", [
          { path: "action", message: "the car was removed" },
        ]);
      const row = await withUpload(request, ctx, async (upload) => {
        const { input, flags } = fieldsOf(revisionFieldsSchema, upload.fields, ["fixChecksums"]);
        const file = requireFile(upload);
        const image = await acceptImage(ctx, file, flags.fixChecksums, before.firmwareId);
        const revised = await readImage(ctx, image.sha256);
        const definition = await definitionOf(db, before.firmwareId);
        const stock = await readImage(ctx, before.stockSha256);
        const changes = async (base: Uint8Array) =>
          summarizeChanges(
            await diffImages(base, revised, { definition: definition ?? undefined, checksums: image.record.checksums }),
          );
        const [previous] = before.revisions
          ? await db
              .select()
              .from(tuningRequestFiles)
              .where(
                and(
                  eq(tuningRequestFiles.requestId, before.id),
                  eq(tuningRequestFiles.kind, "revision"),
                  eq(tuningRequestFiles.revision, before.revisions),
                ),
              )
          : [];
        const fromStock = await changes(stock);
        const fromPrevious = previous ? await changes(await readImage(ctx, previous.sha256)) : null;
        const moved = await ctx.notifications.transaction(async (tx, notify) => {
          const { row: locked } = await requestFor(tx, caller, before.id, true);
          const to = mustMove(locked, "deliver", side.party);
          const number = locked.revisions + 1;
          const now = new Date();
          let tuneFileId = locked.tuneFileId;
          if (!tuneFileId) {
            const [tune] = await tx
              .insert(tuneFiles)
              .values({
                dealerUid: locked.dealerUid,
                firmwareId: locked.firmwareId,
                title: `Custom tune ${referenceOf(locked)} for ${locked.vehicleName}`,
                description: `Made for ${locked.vehicleName} (${locked.vin ?? "no VIN"}) on request ${referenceOf(locked)}`,
              })
              .returning();
            tuneFileId = tune.id;
          }
          await tx.insert(tuneFileVersions).values({
            tuneFileId,
            number,
            label: `revision ${number}`,
            notes: input.note,
            sha256: image.sha256,
            size: image.size,
            checksums: image.checksums,
            createdBy: caller.uid,
          });
          await tx
            .update(tuneFiles)
            .set({ currentVersion: number, updatedAt: now })
            .where(eq(tuneFiles.id, tuneFileId));
          const order = await paidOrderOf(tx, locked.id);
          await tx
            .insert(tuneFilePurchases)
            .values({
              customerUid: locked.customerUid,
              tuneFileId,
              vehicleId: locked.vehicleId!,
              orderId: order?.id ?? null,
              grantedBy: order ? null : locked.dealerUid,
            })
            .onConflictDoNothing();
          const [stored] = await tx
            .insert(tuningRequestFiles)
            .values({
              requestId: locked.id,
              vehicleId: locked.vehicleId,
              kind: "revision",
              name: file.filename || `revision-${number}.bin`,
              sha256: image.sha256,
              size: image.size,
              senderUid: caller.uid,
              sender: side.actor === "admin" ? "admin" : "dealer",
              revision: number,
              note: input.note,
              changesFromStock: fromStock,
              changesFromPrevious: fromPrevious,
            })
            .returning();
          await addToThread(tx, locked.id, {
            kind: "revision",
            actor: side.actor,
            actorUid: caller.uid,
            text: input.note,
            fileIds: [stored.id],
            at: now,
          });
          const delivered = await moveRequest(tx, notify, locked, {
            to,
            actor: side.actor,
            actorUid: caller.uid,
            text: `Revision ${number}: ${fromStock.length} map${fromStock.length === 1 ? "" : "s"} changed from stock${input.note ? `. ${input.note}` : ""}`,
            title: `revision ${number} delivered: flash it from the car's page`,
            set: {
              tuneFileId,
              revisions: number,
              lastDeliveredAt: now,
              firstDeliveredAt: locked.firstDeliveredAt ?? now,
              dealerReadAt: now,
            },
            at: now,
          });
          await auditMove(tx, request, side, "deliver", locked, delivered, input.note);
          return delivered;
        });
        ctx.vehicleEvents.publish(moved.vehicleId!, {
          type: "order",
          order: { id: moved.id, status: "delivered", tuneFileId: moved.tuneFileId },
        });
        return moved;
      });
      changed(row.id);
      return reply.status(201).send(await ticket(row, caller));
    },
  );

  /** A file attached to the thread by either side, with its message. */
  app.post(
    `/${apiRoutes.tuningRequests.files(":id")}`,
    { schema: { params: idParams, response: { 201: tuningRequestSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { row: before, side } = await requestFor(db, caller, request.params.id);
      const row = await withUpload(request, ctx, async (upload) => {
        const { input } = fieldsOf(attachmentFieldsSchema, upload.fields);
        const file = requireFile(upload);
        await ctx.blobs.adopt(file.path, file.sha256);
        return ctx.notifications.transaction(async (tx, notify) => {
          const { row: locked } = await requestFor(tx, caller, before.id, true);
          const now = new Date();
          const [stored] = await tx
            .insert(tuningRequestFiles)
            .values({
              requestId: locked.id,
              vehicleId: locked.vehicleId,
              kind: "attachment",
              name: file.filename || "attachment",
              sha256: file.sha256,
              size: file.size,
              senderUid: caller.uid,
              sender: side.actor === "admin" ? "admin" : side.actor === "customer" ? "customer" : "dealer",
            })
            .returning();
          await addToThread(tx, locked.id, {
            kind: "message",
            actor: side.actor,
            actorUid: caller.uid,
            text: input.text || `Sent ${stored.name}`,
            fileIds: [stored.id],
            at: now,
          });
          await tellOthers(notify, locked, side.actor, {
            kind: "tuning-request.message",
            title: `${stored.name} from the ${side.actor}`,
            body: input.text,
          });
          const touched = await touch(tx, locked, side, now);
          await auditMove(tx, request, side, "attachment", locked, touched, `${stored.name} (${stored.sha256})`);
          return touched;
        });
      });
      changed(row.id);
      return reply.status(201).send(await ticket(row, caller));
    },
  );

  /**
   * A file of the ticket: the stock read and attachments for both sides; a revision's bytes for
   * the dealer, and for the customer only when the dealer's protection lets buyers download.
   */
  app.get(
    `/${apiRoutes.tuningRequests.file(":id", ":fileId")}`,
    { schema: { params: idParams.extend({ fileId: z.uuid("fileId must be a UUID") }) } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { row, side } = await requestFor(db, caller, request.params.id);
      const [file] = await db
        .select()
        .from(tuningRequestFiles)
        .where(and(eq(tuningRequestFiles.id, request.params.fileId), eq(tuningRequestFiles.requestId, row.id)));
      if (!file) throw notFound(`File ${request.params.fileId}`);
      if (file.kind === "revision" && side.party === "customer") {
        const [tune] = row.tuneFileId
          ? await db
              .select({ mayDownload: tuneFiles.mayDownload })
              .from(tuneFiles)
              .where(eq(tuneFiles.id, row.tuneFileId))
          : [];
        if (!tune?.mayDownload)
          throw forbidden("The dealer does not let buyers download their tunes: flash it from the car's page");
      }
      return reply
        .header("content-type", "application/octet-stream")
        .header("content-disposition", `attachment; filename="${file.name.replace(/["\\\r\n]/g, "_")}"`)
        .header("x-content-sha256", file.sha256)
        .send(ctx.blobs.stream(file.sha256));
    },
  );

  /** The ticket as it changes (Server-Sent Events): the whole ticket on connecting and after every change. */
  app.get(
    `/${apiRoutes.tuningRequests.listen(":id")}`,
    { handlerTimeout: streams.handlerTimeoutMs, schema: { params: idParams } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { row } = await requestFor(db, caller, request.params.id);
      const stream = streams.start(reply);
      const send = async () => {
        const [fresh] = await db.select().from(tuningRequests).where(eq(tuningRequests.id, row.id));
        if (fresh) stream.send(TUNING_REQUEST_EVENT, await ticket(fresh, caller));
      };
      const unsubscribe = ctx.tuningRequestEvents.subscribe(
        row.id,
        () => void send().catch((error: unknown) => request.log.warn({ err: error }, "ticket not sent")),
      );
      stream.onClose(unsubscribe);
      await send();
      return reply;
    },
  );

  // -------------------------------------------------------------------------
  // Per car

  /** A car's requests, for whoever may see the car: its owner all of them, a dealer theirs. */
  app.get(
    `/${apiRoutes.vehicles.tuningRequests(":id")}`,
    { config: { list: listSpec }, schema: { params: idParams, response: { 200: tuningRequestPageSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { vehicle, owner } = await vehicleFor(db, request.params.id, caller);
      const scope = and(
        eq(tuningRequests.vehicleId, vehicle.id),
        owner || isAdmin(caller) ? undefined : eq(tuningRequests.dealerUid, caller.uid),
      );
      const page = await runList(
        db,
        listSpec,
        listQueryOf(request, listSpec),
        ({ where, orderBy, limit, offset }) =>
          db
            .select()
            .from(tuningRequests)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .offset(offset),
        scope,
      );
      return { ...page, data: await summariesOf(db, page.data, caller) };
    },
  );

  /** Every file exchanged on the car's requests, with who sent it and when, newest first. */
  app.get(
    `/${apiRoutes.vehicles.tuningRequestFiles(":id")}`,
    { schema: { params: idParams, response: { 200: tuningRequestFilesSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { vehicle, owner } = await vehicleFor(db, request.params.id, caller);
      const rows = await db
        .select({
          file: tuningRequestFiles,
          customerUid: tuningRequests.customerUid,
          dealerUid: tuningRequests.dealerUid,
        })
        .from(tuningRequestFiles)
        .innerJoin(tuningRequests, eq(tuningRequests.id, tuningRequestFiles.requestId))
        .where(
          and(
            eq(tuningRequestFiles.vehicleId, vehicle.id),
            owner || isAdmin(caller) ? undefined : eq(tuningRequests.dealerUid, caller.uid),
          ),
        )
        .orderBy(sql`${tuningRequestFiles.createdAt} DESC`, tuningRequestFiles.id);
      const data = rows.filter((row) => sideOf(caller, row) !== null || owner).map((row) => fileToApi(row.file));
      return { data, total: data.length };
    },
  );
}
