/**
 * Buying a tune for one car: the order and its checkout, the sandbox's card form, cancelling an
 * unpaid checkout, the car's licences (and their removal, refunding a paid one), and the ledger
 * of a user's money movements. State changes of orders come only from the provider's events
 * (routes/stripe.ts); these routes ask the provider and answer what the browser needs.
 */
import { randomUUID } from "node:crypto";
import { and, desc, eq, getTableColumns, inArray, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiRoutes } from "../../contracts/api-paths";
import {
  type Checkout,
  checkoutSchema,
  connectedAccountStateSchema,
  expireSessionSchema,
  type LedgerEntry,
  LICENCES_EVENT,
  type Licence,
  ledgerAdjustmentSchema,
  ledgerEntrySchema,
  ledgerList,
  ledgerPageSchema,
  licenceListSchema,
  type OrderListItem,
  onboardingSchema,
  orderList,
  orderPageSchema,
  orderSchema,
  purchaseRemovalSchema,
  SANDBOX_CARDS,
  sandboxPaymentResultSchema,
  sandboxPaymentSchema,
  tuneFileOrderSchema,
  tuningRequestOrderSchema,
} from "../../contracts/payments";
import type { AppContext } from "../context";
import {
  connectedAccounts,
  dealerProfiles,
  ledgerEntries,
  orders,
  tuneFilePurchases,
  tuneFiles,
  users,
} from "../db/schema";
import { forbidden, HttpError, notFound } from "../errors";
import { assertSelfOrAdmin, callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import { EventStreams } from "../http/event-stream";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import type { ZodTypeProvider } from "../http/zod";
import { actorFrom, auditChangeTo, writeAudit } from "../services/audit";
import type { VerifiedCaller } from "../services/identity";
import { accountOf, accountToApi, readyAccountOf } from "../services/payments/accounts";
import {
  conflictOrder,
  dropUnpaidOrder,
  type OrderRow,
  orderToApi,
  platformFee,
  requestCancel,
  requestRefund,
} from "../services/payments/orders";
import { PaymentProviderError } from "../services/payments/provider";
import { paymentIntentOf } from "../services/payments/sandbox";
import { isAdmin, tuneRow, vehicleFor } from "../services/tune-access";
import { offerOf } from "../services/tune-offers";
import { referenceOf, requestFor } from "../services/tuning-requests";
import { STRIPE_EVENTS_PATH } from "./stripe";

/** An order still waiting for its payment: just made, or declined and open to another card. */
const OPEN = ["created", "failed"] as const;
const isOpen = (order: OrderRow) => (OPEN as readonly string[]).includes(order.status);

/** Where the sandbox's checkout page lives in the portal. */
export const sandboxCheckoutPath = (orderId: string) => `/checkout/${orderId}`;

const ledgerSpec: ListSpec = {
  table: ledgerEntries,
  id: ledgerEntries.id,
  allowed: ledgerList,
  fields: {
    kind: { column: ledgerEntries.kind, kind: "text" },
    currency: { column: ledgerEntries.currency, kind: "text" },
    orderId: { column: ledgerEntries.orderId, kind: "uuid" },
    createdAt: { column: ledgerEntries.createdAt, kind: "timestamp" },
  },
  search: sql`${ledgerEntries.description}`,
  defaultSort: [{ field: "createdAt", order: "desc" }],
};

const orderSpec: ListSpec = {
  table: orders,
  id: orders.id,
  allowed: orderList,
  fields: {
    status: { column: orders.status, kind: "text" },
    customerUid: { column: orders.customerUid, kind: "text" },
    dealerUid: { column: orders.dealerUid, kind: "text" },
    vehicleId: { column: orders.vehicleId, kind: "uuid" },
    currency: { column: orders.currency, kind: "text" },
    amountCents: { column: orders.amountCents, kind: "number" },
    createdAt: { column: orders.createdAt, kind: "timestamp" },
  },
  search: sql`${orders.title}`,
  defaultSort: [{ field: "createdAt", order: "desc" }],
};
/** The order's two parties, joined under their own names. */
const buyer = alias(users, "buyer");
const seller = alias(users, "seller");

const ledgerToApi = (row: typeof ledgerEntries.$inferSelect): LedgerEntry => ({
  id: row.id,
  userUid: row.userUid,
  orderId: row.orderId,
  eventId: row.eventId,
  kind: row.kind,
  amountCents: row.amountCents,
  currency: row.currency,
  description: row.description,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
});

const csvCell = (value: string | number | null) => {
  const text = value === null ? "" : String(value);
  // A cell starting with = + - @ is a formula to a spreadsheet: text gets a leading apostrophe; numbers stay numbers.
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

export async function paymentRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;
  const provider = ctx.payments;
  if (provider.kind === "sandbox") {
    // The sandbox delivers its signed events to the same webhook Stripe would call.
    provider.deliverTo(async (payload, signature) => {
      const answer = await plugin.inject({
        method: "POST",
        url: `/api/v1${STRIPE_EVENTS_PATH}`,
        headers: { "content-type": "application/json", "stripe-signature": signature },
        payload,
      });
      if (answer.statusCode !== 200)
        throw new HttpError(502, "Payment event refused", `the webhook answered ${answer.statusCode}: ${answer.body}`);
    });
  }

  /** `known`: the client secret the provider just answered (not asked again), or null to leave it out. */
  const checkoutOf = async (order: OrderRow, known?: string | null): Promise<Checkout> => ({
    order: orderToApi(order),
    provider: provider.kind,
    checkoutPath: provider.kind === "sandbox" && isOpen(order) ? sandboxCheckoutPath(order.id) : null,
    clientSecret:
      provider.kind === "stripe" && order.paymentId && isOpen(order)
        ? known !== undefined
          ? known
          : await provider.clientSecretOf(order.paymentId)
        : null,
    publishableKey: provider.publishableKey,
  });

  const ownOrder = async (caller: VerifiedCaller, orderId: string): Promise<OrderRow> => {
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    if (!order || (order.customerUid !== caller.uid && order.dealerUid !== caller.uid && !isAdmin(caller)))
      throw notFound(`Order ${orderId}`);
    return order;
  };

  /**
   * Makes the order and asks the provider for its payment (idempotency key `order-<id>`). An open
   * order the unique indexes already hold (`open`) is answered instead (201 made, 200 found); if
   * the provider does not answer, the order is removed and the answer is 503, nothing charged.
   */
  const openCheckout = async (
    values: typeof orders.$inferInsert,
    open: SQL | undefined,
    description: string,
    caller: VerifiedCaller,
  ): Promise<{ created: boolean; checkout: Checkout }> => {
    const [created] = await db.insert(orders).values(values).onConflictDoNothing().returning();
    if (!created) {
      const [found] = await db.select().from(orders).where(open);
      if (!found) throw new HttpError(503, "Try again", "another checkout of this was just closed; try again");
      if (found.customerUid !== caller.uid) throw conflictOrder("another checkout of this is open");
      return { created: false, checkout: await checkoutOf(found) };
    }
    try {
      const payment = await provider.createPayment({
        orderId: created.id,
        amountCents: created.amountCents,
        currency: created.currency,
        feeCents: created.feeCents,
        destination: created.destination,
        description,
        idempotencyKey: `order-${created.id}`,
      });
      const [order] = await db
        .update(orders)
        .set({ paymentId: payment.paymentId, updatedAt: new Date() })
        .where(eq(orders.id, created.id))
        .returning();
      return { created: true, checkout: await checkoutOf(order, payment.clientSecret) };
    } catch (error) {
      await dropUnpaidOrder(ctx, created.id);
      if (error instanceof PaymentProviderError)
        throw new HttpError(
          503,
          "Payment provider unavailable",
          "the payment provider did not answer; nothing was charged, try again in a moment",
        );
      throw error;
    }
  };

  /**
   * A checkout for a tune on one of the caller's cars: published and offered to them, for the
   * car's firmware, not already licensed for it, sold by an approved dealer. A second request
   * while one is open answers the same order.
   */
  app.post(
    `/${apiRoutes.payments.tuneFileOrder()}`,
    { schema: { body: tuneFileOrderSchema, response: { 200: checkoutSchema, 201: checkoutSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { tuneFileId, vehicleId } = request.body;
      const { vehicle, owner } = await vehicleFor(db, vehicleId, caller).catch((error: unknown) => {
        if (error instanceof HttpError && error.statusCode === 404)
          throw new HttpError(400, "Invalid body", `no vehicle ${vehicleId}`, [
            { path: "vehicleId", message: "no such vehicle of yours" },
          ]);
        throw error;
      });
      if (!owner) throw forbidden("Only the car's owner buys a licence for it");
      const tune = await tuneRow(db, tuneFileId).catch(() => {
        throw new HttpError(400, "Invalid body", `no tune file ${tuneFileId}`, [
          { path: "tuneFileId", message: "no such tune file" },
        ]);
      });
      const offer = await offerOf(db, tune, caller);
      if (!tune.published || !offer.offered) throw conflictOrder(`${tune.title} is not for sale to you`);
      if (!vehicle.firmwareId)
        throw new HttpError(
          422,
          "Unknown firmware",
          "the car's firmware is not known yet: read its stock with the app first",
          [{ path: "vehicleId", message: "firmware unknown" }],
        );
      if (vehicle.firmwareId !== tune.firmwareId) {
        const message = `the car runs firmware ${vehicle.firmwareId}, the tune is for ${tune.firmwareId}`;
        throw new HttpError(422, "Wrong firmware", message, [{ path: "tuneFileId", message }]);
      }
      if (tune.priceCents === null || tune.currency === null) throw conflictOrder(`${tune.title} has no price yet`);
      // A member of a repository its dealer gives at no charge pays nothing, as for a free tune.
      const priceCents = offer.free ? 0 : tune.priceCents;
      const [dealer] = await db
        .select({ status: dealerProfiles.status })
        .from(dealerProfiles)
        .where(eq(dealerProfiles.userUid, tune.dealerUid));
      if (dealer?.status !== "approved") throw conflictOrder(`the dealer selling ${tune.title} is not selling now`);
      const payout = priceCents > 0 ? await readyAccountOf(db, tune.dealerUid) : null;
      if (priceCents > 0 && !payout) throw conflictOrder(`the dealer selling ${tune.title} cannot take payments now`);
      const [licensed] = await db
        .select({ id: tuneFilePurchases.id })
        .from(tuneFilePurchases)
        .where(and(eq(tuneFilePurchases.tuneFileId, tune.id), eq(tuneFilePurchases.vehicleId, vehicle.id)));
      if (licensed) throw conflictOrder(`${tune.title} is already licensed for this car`);

      if (priceCents === 0) {
        // A free tune: no payment to take, the licence at once (its order says so, without ledger rows).
        const free = await db.transaction(async (tx) => {
          const [made] = await tx
            .insert(orders)
            .values({
              kind: "tune-file",
              customerUid: caller.uid,
              dealerUid: tune.dealerUid,
              tuneFileId: tune.id,
              vehicleId: vehicle.id,
              title: tune.title,
              amountCents: 0,
              currency: tune.currency as string,
              feeCents: 0,
              status: "paid",
              paidAt: new Date(),
              provider: provider.kind,
            })
            .returning();
          await tx
            .insert(tuneFilePurchases)
            .values({ customerUid: caller.uid, tuneFileId: tune.id, vehicleId: vehicle.id, orderId: made.id })
            .onConflictDoNothing();
          return made;
        });
        return reply.status(201).send(await checkoutOf(free));
      }
      const opened = await openCheckout(
        {
          kind: "tune-file",
          customerUid: caller.uid,
          dealerUid: tune.dealerUid,
          tuneFileId: tune.id,
          vehicleId: vehicle.id,
          title: tune.title,
          amountCents: priceCents,
          currency: tune.currency,
          feeCents: platformFee(priceCents, ctx.config.platformFeePercent),
          provider: provider.kind,
          destination: payout?.accountId ?? null,
        },
        and(eq(orders.tuneFileId, tune.id), eq(orders.vehicleId, vehicle.id), inArray(orders.status, OPEN)),
        `${tune.title} for ${vehicle.name}`,
        caller,
      );
      return reply.status(opened.created ? 201 : 200).send(opened.checkout);
    },
  );

  /**
   * A checkout for a tuning request's quote: the request's customer, while it is quoted, to an
   * approved dealer whose payout account takes charges. The order pays the request; its payment
   * event moves the request to paid. A second request while one is open answers the same order.
   */
  app.post(
    `/${apiRoutes.payments.tuningRequestOrder()}`,
    { schema: { body: tuningRequestOrderSchema, response: { 200: checkoutSchema, 201: checkoutSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { tuningRequestId } = request.body;
      const { row, side } = await requestFor(db, caller, tuningRequestId).catch((error: unknown) => {
        if (error instanceof HttpError && error.statusCode === 404)
          throw new HttpError(400, "Invalid body", `no tuning request ${tuningRequestId}`, [
            { path: "tuningRequestId", message: "no such tuning request of yours" },
          ]);
        throw error;
      });
      if (side.actor !== "customer") throw forbidden("Only the request's customer pays its quote");
      if (row.state !== "quoted" || row.quotePriceCents === null || !row.quoteCurrency) {
        const [paid] = await db
          .select({ id: orders.id })
          .from(orders)
          .where(and(eq(orders.tuningRequestId, row.id), eq(orders.status, "paid")));
        throw conflictOrder(
          paid
            ? `${referenceOf(row)} is paid already`
            : `${referenceOf(row)} is ${row.state}: only a quoted request is paid`,
          "tuningRequestId",
        );
      }
      const [dealer] = await db
        .select({ status: dealerProfiles.status })
        .from(dealerProfiles)
        .where(eq(dealerProfiles.userUid, row.dealerUid));
      if (dealer?.status !== "approved") throw conflictOrder("the dealer is not taking orders now", "tuningRequestId");
      const payout = await readyAccountOf(db, row.dealerUid);
      if (!payout) throw conflictOrder("the dealer cannot take payments now", "tuningRequestId");
      const opened = await openCheckout(
        {
          kind: "tuning-request",
          customerUid: caller.uid,
          dealerUid: row.dealerUid,
          tuningRequestId: row.id,
          vehicleId: row.vehicleId,
          title: `Custom tune ${referenceOf(row)} for ${row.vehicleName}`,
          amountCents: row.quotePriceCents,
          currency: row.quoteCurrency,
          feeCents: platformFee(row.quotePriceCents, ctx.config.platformFeePercent),
          provider: provider.kind,
          destination: payout.accountId,
        },
        and(eq(orders.tuningRequestId, row.id), inArray(orders.status, OPEN)),
        `Custom tune ${referenceOf(row)} for ${row.vehicleName}`,
        caller,
      );
      return reply.status(opened.created ? 201 : 200).send(opened.checkout);
    },
  );

  /** A customer's purchases and a dealer's sales (admins: every order), with both parties' names. */
  app.get(
    `/${apiRoutes.payments.orders()}`,
    { config: { list: orderSpec }, schema: { response: { 200: orderPageSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const scope = isAdmin(caller)
        ? undefined
        : or(eq(orders.customerUid, caller.uid), eq(orders.dealerUid, caller.uid));
      const page = await runList(
        db,
        orderSpec,
        listQueryOf(request, orderSpec),
        ({ where, orderBy, limit, offset }) =>
          db
            .select({
              ...getTableColumns(orders),
              customerName: sql<string | null>`coalesce(${buyer.displayName}, ${buyer.email})`,
              dealerName: sql<string | null>`coalesce(${dealerProfiles.businessName}, ${seller.displayName})`,
            })
            .from(orders)
            .leftJoin(buyer, eq(buyer.uid, orders.customerUid))
            .leftJoin(seller, eq(seller.uid, orders.dealerUid))
            .leftJoin(dealerProfiles, eq(dealerProfiles.userUid, orders.dealerUid))
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .offset(offset),
        scope,
      );
      return {
        ...page,
        data: page.data.map(
          (row): OrderListItem => ({ ...orderToApi(row), customerName: row.customerName, dealerName: row.dealerName }),
        ),
      };
    },
  );

  /** An order for its buyer, its dealer and admins; only the buyer gets what pays it (the client secret). */
  app.get(
    "/payments/orders/:id",
    { schema: { params: idParams, response: { 200: checkoutSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const order = await ownOrder(caller, request.params.id);
      const checkout = await checkoutOf(order, order.customerUid === caller.uid ? undefined : null);
      return order.customerUid === caller.uid ? checkout : { ...checkout, checkoutPath: null };
    },
  );

  /** Cancels an unpaid checkout: the provider's cancellation event expires the order. */
  app.post(
    "/payments/expire-session",
    { schema: { body: expireSessionSchema, response: { 200: orderSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const order = await ownOrder(caller, request.body.orderId);
      if (order.customerUid !== caller.uid && !isAdmin(caller))
        throw forbidden("Only the buyer cancels their checkout");
      if (!isOpen(order)) throw conflictOrder(`the order is ${order.status}`, "orderId");
      await requestCancel(ctx, order);
      // An admin cancelling someone's checkout: the provider's event makes the change, the trail says who asked.
      await auditChangeTo(db, request, order.customerUid, {
        action: "order.cancel-requested",
        targetType: "order",
        targetId: order.id,
        before: { status: order.status },
      });
      const [after] = await db.select().from(orders).where(eq(orders.id, order.id));
      return orderToApi(after);
    },
  );

  /** The sandbox's card form posts here: a test card pays, a decline card declines, as the provider's event says. */
  app.post(
    "/payments/sandbox/pay",
    { schema: { body: sandboxPaymentSchema, response: { 200: sandboxPaymentResultSchema } } },
    async (request) => {
      if (provider.kind !== "sandbox") throw notFound("The sandbox checkout (a real payment provider is configured)");
      const caller = callerOf(request);
      const order = await ownOrder(caller, request.body.orderId);
      if (order.customerUid !== caller.uid) throw forbidden("Only the buyer pays their order");
      if (!isOpen(order) || !order.paymentId) throw conflictOrder(`the order is ${order.status}`, "orderId");
      const card = SANDBOX_CARDS[request.body.cardNumber as keyof typeof SANDBOX_CARDS];
      if (!card) {
        const message = `the sandbox takes its test cards: ${Object.entries(SANDBOX_CARDS)
          .map(([number, known]) => `${number} (${known.label})`)
          .join(", ")}`;
        throw new HttpError(400, "Invalid body", message, [{ path: "cardNumber", message: "not a sandbox test card" }]);
      }
      const ref = {
        paymentId: order.paymentId,
        orderId: order.id,
        amountCents: order.amountCents,
        currency: order.currency,
      };
      const declined = card.outcome === "declined";
      await provider.emit(
        declined ? "payment_intent.payment_failed" : "payment_intent.succeeded",
        paymentIntentOf(
          ref,
          declined ? "requires_payment_method" : "succeeded",
          declined ? { last_payment_error: { code: card.label.split(": ")[1] } } : {},
        ),
      );
      const [after] = await db.select().from(orders).where(eq(orders.id, order.id));
      return {
        status: card.outcome,
        message: declined ? `The card was ${card.label}` : "Paid",
        order: orderToApi(after),
      };
    },
  );

  const licencesOf = async (vehicleId: string): Promise<Licence[]> => {
    const rows = await db
      .select({ purchase: tuneFilePurchases, title: tuneFiles.title, dealerUid: tuneFiles.dealerUid })
      .from(tuneFilePurchases)
      .innerJoin(tuneFiles, eq(tuneFiles.id, tuneFilePurchases.tuneFileId))
      .where(eq(tuneFilePurchases.vehicleId, vehicleId))
      .orderBy(desc(tuneFilePurchases.createdAt));
    return rows.map(({ purchase, title, dealerUid }) => ({
      id: purchase.id,
      tuneFileId: purchase.tuneFileId,
      vehicleId: purchase.vehicleId,
      customerUid: purchase.customerUid,
      title,
      dealerUid,
      orderId: purchase.orderId,
      grantedBy: purchase.grantedBy,
      boundTo: { vin: purchase.vin, ecuSerial: purchase.ecuSerial, softwareId: purchase.softwareId },
      consumedAt: purchase.consumedAt?.toISOString() ?? null,
      createdAt: purchase.createdAt.toISOString(),
    }));
  };

  /** The car's licences, for whoever may see the car. */
  app.get(
    `/${apiRoutes.vehicles.purchases(":id")}`,
    { schema: { params: idParams, response: { 200: licenceListSchema } } },
    async (request) => {
      const { vehicle } = await vehicleFor(db, request.params.id, callerOf(request));
      return { data: await licencesOf(vehicle.id) };
    },
  );

  /**
   * The car's licences as they change (Server-Sent Events): `licences` with the whole list on
   * connecting and after every paid, refunded or ended order. The app waits here after a checkout.
   */
  const streams = new EventStreams(plugin);
  app.get(
    `/${apiRoutes.vehicles.purchasesListen(":id")}`,
    { handlerTimeout: streams.handlerTimeoutMs, schema: { params: idParams } },
    async (request, reply) => {
      const { vehicle } = await vehicleFor(db, request.params.id, callerOf(request));
      const stream = streams.start(reply);
      const send = async () => stream.send(LICENCES_EVENT, { data: await licencesOf(vehicle.id) });
      const unsubscribe = ctx.vehicleEvents.subscribe(vehicle.id, (event) => {
        if (event.type === "order")
          void send().catch((error: unknown) => request.log.warn({ err: error }, "licences not sent"));
      });
      stream.onClose(unsubscribe);
      await send();
      return reply;
    },
  );

  /**
   * Removes a licence (an admin, or the dealer who sold it), with the reason the customer is
   * told. A paid one is refunded: the provider's refund event removes the licence and reverses
   * the ledger. A granted one is removed at once.
   */
  app.post(
    `/${apiRoutes.vehicles.purchases(":id")}`,
    { schema: { params: idParams, body: purchaseRemovalSchema, response: { 200: licenceListSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { vehicle } = await vehicleFor(db, request.params.id, caller);
      const { tuneFileId, reason } = request.body;
      const [licence] = await db
        .select({ purchase: tuneFilePurchases, dealerUid: tuneFiles.dealerUid, title: tuneFiles.title })
        .from(tuneFilePurchases)
        .innerJoin(tuneFiles, eq(tuneFiles.id, tuneFilePurchases.tuneFileId))
        .where(and(eq(tuneFilePurchases.vehicleId, vehicle.id), eq(tuneFilePurchases.tuneFileId, tuneFileId)));
      if (!licence) throw notFound(`A licence of tune ${tuneFileId} for this car`);
      if (!isAdmin(caller) && licence.dealerUid !== caller.uid)
        throw forbidden("Only an admin or the dealer who sold it removes a licence");
      const [order] = licence.purchase.orderId
        ? await db.select().from(orders).where(eq(orders.id, licence.purchase.orderId))
        : [];
      const { purchase } = licence;
      const removal = (action: string) => ({
        action,
        targetType: "licence",
        targetId: purchase.id,
        before: {
          tuneFileId: purchase.tuneFileId,
          title: licence.title,
          vehicleId: purchase.vehicleId,
          orderId: purchase.orderId,
          grantedBy: purchase.grantedBy,
          ...(order && { orderStatus: order.status, amountCents: order.amountCents, currency: order.currency }),
        },
        after: { reason },
      });
      if (order?.status === "paid" && order.paymentId) {
        await requestRefund(ctx, order, reason, (tx) =>
          auditChangeTo(tx, request, purchase.customerUid, removal("licence.refund-requested")),
        );
      } else {
        await ctx.notifications.transaction(async (tx, notify) => {
          await tx.delete(tuneFilePurchases).where(eq(tuneFilePurchases.id, licence.purchase.id));
          await auditChangeTo(tx, request, purchase.customerUid, removal("licence.removed"));
          await notify({
            recipientUid: licence.purchase.customerUid,
            kind: "order.refunded",
            title: `Licence removed: ${licence.title}`,
            body: `Reason: ${reason}`,
            link: `/my-devices/${vehicle.id}`,
          });
        });
      }
      return { data: await licencesOf(vehicle.id) };
    },
  );

  const userParams = z.strictObject({ id: z.string().min(1).max(128) });

  /** A dealer's payout account: its state, for the dealer and admins. */
  app.get(
    `/${apiRoutes.users.connectedAccount(":id")}`,
    { schema: { params: userParams, response: { 200: connectedAccountStateSchema } } },
    async (request) => {
      assertSelfOrAdmin(callerOf(request), request.params.id);
      const row = await accountOf(db, request.params.id);
      return { account: row ? accountToApi(row) : null };
    },
  );

  /** A dealer starts (or resumes) onboarding: the account is made once, and the answer says where to complete it. */
  app.post(
    `/${apiRoutes.users.connectedAccount(":id")}`,
    { config: { role: "dealer" }, schema: { params: userParams, response: { 200: onboardingSchema } } },
    async (request) => {
      const caller = callerOf(request);
      if (caller.uid !== request.params.id) throw forbidden("A dealer sets up their own payout account");
      let row = await accountOf(db, caller.uid);
      if (!row) {
        const accountId = await provider
          .createAccount({ uid: caller.uid, email: caller.email }, `account-${caller.uid}`)
          .catch((error: unknown) => {
            if (error instanceof PaymentProviderError)
              throw new HttpError(
                503,
                "Payment provider unavailable",
                "the payment provider did not answer; try again in a moment",
              );
            throw error;
          });
        await db
          .insert(connectedAccounts)
          .values({ userUid: caller.uid, provider: provider.kind, accountId })
          .onConflictDoNothing();
        row = (await accountOf(db, caller.uid)) as NonNullable<typeof row>;
      }
      const onboardingUrl = await provider.onboardingUrl(
        row.accountId,
        `${request.protocol}://${request.host}/my-tunes`,
      );
      return { account: accountToApi(row), onboardingUrl };
    },
  );

  /** The sandbox's onboarding page completes here: the provider's `account.updated` says the account takes charges. */
  app.post(
    "/payments/sandbox/onboard",
    { config: { role: "dealer" }, schema: { response: { 200: connectedAccountStateSchema } } },
    async (request) => {
      if (provider.kind !== "sandbox") throw notFound("The sandbox onboarding (a real payment provider is configured)");
      const caller = callerOf(request);
      const row = await accountOf(db, caller.uid);
      if (!row) throw conflictOrder("start the payout account's setup first", "account");
      await provider.emit("account.updated", {
        id: row.accountId,
        object: "account",
        charges_enabled: true,
        payouts_enabled: true,
        requirements: { currently_due: [] },
      });
      const after = await accountOf(db, caller.uid);
      return { account: after ? accountToApi(after) : null };
    },
  );

  /** A user's money movements (their own; admins anyone's), newest first, with balances per currency. */
  app.get(
    `/${apiRoutes.users.transactions(":id")}`,
    { config: { list: ledgerSpec }, schema: { params: userParams, response: { 200: ledgerPageSchema } } },
    async (request) => {
      const caller = callerOf(request);
      assertSelfOrAdmin(caller, request.params.id);
      const scope = eq(ledgerEntries.userUid, request.params.id);
      const page = await runList(
        db,
        ledgerSpec,
        listQueryOf(request, ledgerSpec),
        ({ where, orderBy, limit, offset }) =>
          db
            .select()
            .from(ledgerEntries)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .offset(offset),
        scope,
      );
      const balances = await db
        .select({
          currency: ledgerEntries.currency,
          amountCents: sql<number>`sum(${ledgerEntries.amountCents})::bigint`,
        })
        .from(ledgerEntries)
        .where(scope)
        .groupBy(ledgerEntries.currency)
        .orderBy(ledgerEntries.currency);
      return {
        ...page,
        data: page.data.map(ledgerToApi),
        balances: balances.map((b) => ({ currency: b.currency, amountCents: Number(b.amountCents) })),
      };
    },
  );

  /**
   * An admin adjusts a user's balance (a goodwill credit, a correction): one ledger row with the
   * reason the user reads and who made it; the user is told. Money at the provider is not moved:
   * this records what support agreed, as the file-service portals' credit adjustments do.
   */
  app.post(
    `/${apiRoutes.users.transactions(":id")}`,
    {
      config: { role: "admin" as const },
      schema: { params: userParams, body: ledgerAdjustmentSchema, response: { 201: ledgerEntrySchema } },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { amountCents, currency, reason } = request.body;
      const [user] = await db.select({ uid: users.uid }).from(users).where(eq(users.uid, request.params.id));
      if (!user) throw notFound(`User ${request.params.id}`);
      const row = await ctx.notifications.transaction(async (tx, notify) => {
        const [made] = await tx
          .insert(ledgerEntries)
          .values({
            userUid: user.uid,
            eventId: `adjustment-${randomUUID()}`,
            kind: "adjustment",
            amountCents,
            currency,
            description: `Adjustment: ${reason}`,
            createdBy: caller.uid,
          })
          .returning();
        await writeAudit(tx, actorFrom(request), {
          action: "ledger.adjusted",
          targetType: "ledger-entry",
          targetId: String(made.id),
          subjectUid: user.uid,
          after: { amountCents, currency, reason },
        });
        await notify({
          recipientUid: user.uid,
          kind: "ledger.adjusted",
          title: `Your balance was adjusted by ${(amountCents / 100).toFixed(2)} ${currency}`,
          body: reason,
          link: "/my-tunes",
        });
        return made;
      });
      return reply.status(201).send(ledgerToApi(row));
    },
  );

  /** The same movements as CSV, oldest first, for a spreadsheet or an accountant. */
  app.get(`/${apiRoutes.users.transactionsCsv(":id")}`, { schema: { params: userParams } }, async (request, reply) => {
    const caller = callerOf(request);
    assertSelfOrAdmin(caller, request.params.id);
    const rows = await db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userUid, request.params.id))
      .orderBy(ledgerEntries.createdAt, ledgerEntries.id);
    const lines = [["date", "kind", "description", "amount", "currency", "order", "event"].join(",")];
    for (const row of rows)
      lines.push(
        [
          row.createdAt.toISOString(),
          row.kind,
          row.description,
          (row.amountCents / 100).toFixed(2),
          row.currency,
          row.orderId,
          row.eventId,
        ]
          .map(csvCell)
          .join(","),
      );
    return reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="transactions-${request.params.id}.csv"`)
      .send(`${lines.join("\r\n")}\r\n`);
  });
}
