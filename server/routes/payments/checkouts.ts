/**
 * The checkouts (a tune for one of the caller's cars, a tuning request's quote) and the orders
 * they make: the list, one order, cancelling an unpaid checkout and the sandbox's card form.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { apiRoutes } from "../../../contracts/api-paths";
import {
  checkoutSchema,
  expireSessionSchema,
  orderList,
  orderPageSchema,
  orderSchema,
  sandboxPaymentResultSchema,
  sandboxPaymentSchema,
  tuneFileOrderSchema,
  tuningRequestOrderSchema,
} from "../../../contracts/payments";
import type { AppContext } from "../../context";
import { orders } from "../../db/schema";
import { callerOf } from "../../http/auth";
import { idParams } from "../../http/crud";
import { type ListSpec, listQueryOf, runList } from "../../http/list";
import type { ZodTypeProvider } from "../../http/zod";
import {
  cancelCheckout,
  checkoutFor,
  orderTuneFile,
  orderTuningRequest,
  paySandboxOrder,
} from "../../services/payments/checkouts";
import { orderPageOf, orderToApi } from "../../services/payments/orders";

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

/** The two checkouts: a tune for one of the caller's cars, and a tuning request's quote (201 made, 200 the open one). */
export function registerCheckoutRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.post(
    `/${apiRoutes.payments.tuneFileOrder()}`,
    { schema: { body: tuneFileOrderSchema, response: { 200: checkoutSchema, 201: checkoutSchema } } },
    async (request, reply) => {
      const opened = await orderTuneFile(ctx, callerOf(request), request.body);
      return reply.status(opened.created ? 201 : 200).send(opened.checkout);
    },
  );

  app.post(
    `/${apiRoutes.payments.tuningRequestOrder()}`,
    { schema: { body: tuningRequestOrderSchema, response: { 200: checkoutSchema, 201: checkoutSchema } } },
    async (request, reply) => {
      const opened = await orderTuningRequest(ctx, callerOf(request), request.body.tuningRequestId);
      return reply.status(opened.created ? 201 : 200).send(opened.checkout);
    },
  );
}

/** Orders: the list, one order, cancelling an unpaid checkout and the sandbox's card form. */
export function registerOrderRoutes(plugin: FastifyInstance, ctx: AppContext) {
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
