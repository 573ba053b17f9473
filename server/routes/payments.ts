/**
 * Buying a tune for one car: the order and its checkout, the sandbox's card form, cancelling an
 * unpaid checkout, the car's licences (and their removal, refunding a paid one), and the ledger
 * of a user's money movements. State changes of orders come only from the provider's events
 * (routes/stripe.ts); these routes check the request, ask services/payments and shape the answer.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiRoutes } from "../../contracts/api-paths";
import {
  checkoutSchema,
  connectedAccountStateSchema,
  expireSessionSchema,
  LICENCES_EVENT,
  ledgerAdjustmentSchema,
  ledgerEntrySchema,
  ledgerList,
  ledgerPageSchema,
  licenceListSchema,
  onboardingSchema,
  orderList,
  orderPageSchema,
  orderSchema,
  purchaseRemovalSchema,
  sandboxPaymentResultSchema,
  sandboxPaymentSchema,
  tuneFileOrderSchema,
  tuningRequestOrderSchema,
} from "../../contracts/payments";
import type { AppContext } from "../context";
import { ledgerEntries, orders } from "../db/schema";
import { forbidden, HttpError } from "../errors";
import { assertSelfOrAdmin, callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import { EventStreams } from "../http/event-stream";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import type { ZodTypeProvider } from "../http/zod";
import { Refusal } from "../services/errors";
import { accountOf, accountToApi, completeSandboxOnboarding, startOnboarding } from "../services/payments/accounts";
import {
  cancelCheckout,
  checkoutFor,
  orderTuneFile,
  orderTuningRequest,
  paySandboxOrder,
} from "../services/payments/checkouts";
import { adjustBalance, ledgerPageOf, ledgerRowsOf } from "../services/payments/ledger";
import { licencesOf, removeLicence } from "../services/payments/licences";
import { orderPageOf, orderToApi } from "../services/payments/orders";
import { tuneRow, vehicleFor } from "../services/tune-access";
import { requestFor } from "../services/tuning-requests";
import { STRIPE_EVENTS_PATH } from "./stripe";

export { sandboxCheckoutPath } from "../services/payments/checkouts";

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

const userParams = z.strictObject({ id: z.string().min(1).max(128) });

const csvCell = (value: string | number | null) => {
  const text = value === null ? "" : String(value);
  // A cell starting with = + - @ is a formula to a spreadsheet: text gets a leading apostrophe; numbers stay numbers.
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** A name the body gave that is not the caller's to use: the 400 names the field. */
const invalidBody = (description: string, path: string, message: string) =>
  new HttpError(400, "Invalid body", description, [{ path, message }]);

const notFoundToInvalid = (description: string, path: string, message: string) => (error: unknown) => {
  const missing =
    (error instanceof HttpError && error.statusCode === 404) ||
    (error instanceof Refusal && error.kind === "not_found");
  if (missing) throw invalidBody(description, path, message);
  throw error;
};

export async function paymentRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
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
  registerCheckoutRoutes(plugin, ctx);
  registerOrderRoutes(plugin, ctx);
  registerLicenceRoutes(plugin, ctx);
  registerAccountRoutes(plugin, ctx);
  registerLedgerRoutes(plugin, ctx);
}

/** The two checkouts: a tune for one of the caller's cars, and a tuning request's quote (201 made, 200 the open one). */
function registerCheckoutRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.post(
    `/${apiRoutes.payments.tuneFileOrder()}`,
    { schema: { body: tuneFileOrderSchema, response: { 200: checkoutSchema, 201: checkoutSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { tuneFileId, vehicleId } = request.body;
      const { vehicle, owner } = await vehicleFor(db, vehicleId, caller).catch(
        notFoundToInvalid(`no vehicle ${vehicleId}`, "vehicleId", "no such vehicle of yours"),
      );
      if (!owner) throw forbidden("Only the car's owner buys a licence for it");
      const tune = await tuneRow(db, tuneFileId).catch(() => {
        throw invalidBody(`no tune file ${tuneFileId}`, "tuneFileId", "no such tune file");
      });
      const opened = await orderTuneFile(ctx, caller, vehicle, tune);
      return reply.status(opened.created ? 201 : 200).send(opened.checkout);
    },
  );

  app.post(
    `/${apiRoutes.payments.tuningRequestOrder()}`,
    { schema: { body: tuningRequestOrderSchema, response: { 200: checkoutSchema, 201: checkoutSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { tuningRequestId } = request.body;
      const { row, side } = await requestFor(db, caller, tuningRequestId).catch(
        notFoundToInvalid(`no tuning request ${tuningRequestId}`, "tuningRequestId", "no such tuning request of yours"),
      );
      if (side.actor !== "customer") throw forbidden("Only the request's customer pays its quote");
      const opened = await orderTuningRequest(ctx, caller, row);
      return reply.status(opened.created ? 201 : 200).send(opened.checkout);
    },
  );
}

/** Orders: the list, one order, cancelling an unpaid checkout and the sandbox's card form. */
function registerOrderRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.get(
    `/${apiRoutes.payments.orders()}`,
    { config: { list: orderSpec }, schema: { response: { 200: orderPageSchema } } },
    async (request) =>
      orderPageOf(ctx, callerOf(request), (select, scope) =>
        runList(ctx.db, orderSpec, listQueryOf(request, orderSpec), select, scope),
      ),
  );

  app.get(
    "/payments/orders/:id",
    { schema: { params: idParams, response: { 200: checkoutSchema } } },
    async (request) => checkoutFor(ctx, callerOf(request), request.params.id),
  );

  app.post(
    "/payments/expire-session",
    { schema: { body: expireSessionSchema, response: { 200: orderSchema } } },
    async (request) => {
      const after = await cancelCheckout(ctx, { caller: callerOf(request), id: request.id }, request.body.orderId);
      return orderToApi(after);
    },
  );

  app.post(
    "/payments/sandbox/pay",
    { schema: { body: sandboxPaymentSchema, response: { 200: sandboxPaymentResultSchema } } },
    async (request) => paySandboxOrder(ctx, callerOf(request), request.body.orderId, request.body.cardNumber),
  );
}

/** The car's licences, for whoever may see the car: the list, its changes as events, and removing one. */
function registerLicenceRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    `/${apiRoutes.vehicles.purchases(":id")}`,
    { schema: { params: idParams, response: { 200: licenceListSchema } } },
    async (request) => {
      const { vehicle } = await vehicleFor(db, request.params.id, callerOf(request));
      return { data: await licencesOf(db, vehicle.id) };
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
      const send = async () => stream.send(LICENCES_EVENT, { data: await licencesOf(db, vehicle.id) });
      const unsubscribe = ctx.vehicleEvents.subscribe(vehicle.id, (event) => {
        if (event.type === "order")
          void send().catch((error: unknown) => request.log.warn({ err: error }, "licences not sent"));
      });
      stream.onClose(unsubscribe);
      await send();
      return reply;
    },
  );

  /** Removes a licence (an admin, or the dealer who sold it); a paid one is refunded. */
  app.post(
    `/${apiRoutes.vehicles.purchases(":id")}`,
    { schema: { params: idParams, body: purchaseRemovalSchema, response: { 200: licenceListSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { vehicle } = await vehicleFor(db, request.params.id, caller);
      await removeLicence(ctx, { caller, id: request.id }, vehicle.id, request.body);
      return { data: await licencesOf(db, vehicle.id) };
    },
  );
}

/** A dealer's payout account: its state, starting onboarding, and the sandbox's onboarding page. */
function registerAccountRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.get(
    `/${apiRoutes.users.connectedAccount(":id")}`,
    { schema: { params: userParams, response: { 200: connectedAccountStateSchema } } },
    async (request) => {
      assertSelfOrAdmin(callerOf(request), request.params.id);
      const row = await accountOf(ctx.db, request.params.id);
      return { account: row ? accountToApi(row) : null };
    },
  );

  app.post(
    `/${apiRoutes.users.connectedAccount(":id")}`,
    { config: { role: "dealer" }, schema: { params: userParams, response: { 200: onboardingSchema } } },
    async (request) => {
      const caller = callerOf(request);
      if (caller.uid !== request.params.id) throw forbidden("A dealer sets up their own payout account");
      return startOnboarding(ctx, caller, `${request.protocol}://${request.host}/my-tunes`);
    },
  );

  app.post(
    "/payments/sandbox/onboard",
    { config: { role: "dealer" }, schema: { response: { 200: connectedAccountStateSchema } } },
    async (request) => {
      const after = await completeSandboxOnboarding(ctx, callerOf(request).uid);
      return { account: after ? accountToApi(after) : null };
    },
  );
}

/** A user's money movements: pages with balances, an admin's adjustment, and the CSV export. */
function registerLedgerRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.get(
    `/${apiRoutes.users.transactions(":id")}`,
    { config: { list: ledgerSpec }, schema: { params: userParams, response: { 200: ledgerPageSchema } } },
    async (request) => {
      assertSelfOrAdmin(callerOf(request), request.params.id);
      return ledgerPageOf(ctx, request.params.id, (select, scope) =>
        runList(ctx.db, ledgerSpec, listQueryOf(request, ledgerSpec), select, scope),
      );
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
      const entry = await adjustBalance(
        ctx,
        { caller: callerOf(request), id: request.id },
        request.params.id,
        request.body,
      );
      return reply.status(201).send(entry);
    },
  );

  /** The same movements as CSV, oldest first, for a spreadsheet or an accountant. */
  app.get(`/${apiRoutes.users.transactionsCsv(":id")}`, { schema: { params: userParams } }, async (request, reply) => {
    assertSelfOrAdmin(callerOf(request), request.params.id);
    const rows = await ledgerRowsOf(ctx, request.params.id);
    const header = ["date", "kind", "description", "amount", "currency", "order", "event"].join(",");
    const lines = rows.map((row) =>
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
      .send(`${[header, ...lines].join("\r\n")}\r\n`);
  });
}
