/**
 * Buying: the checkout of a tune for one car or of a tuning request's quote, the order as its
 * parties see it, cancelling an unpaid checkout and the sandbox's card form. An order is made
 * under the unique indexes that allow one open checkout per thing bought, then the provider is
 * asked for its payment; state changes after that come only from the provider's events.
 */
import { and, eq, inArray, type SQL } from "drizzle-orm";
import { type Checkout, SANDBOX_CARDS } from "../../../contracts/payments";
import type { AppContext } from "../../context";
import { dealerProfiles, orders, tuneFilePurchases } from "../../db/schema";
import { auditChangeTo } from "../audit";
import {
  forbidden,
  invalid,
  NotFoundRefusal,
  OrderConflict,
  ProviderUnavailable,
  Refusal,
  RetryRefusal,
} from "../errors";
import type { VerifiedCaller } from "../identity";
import { isAdmin, type TuneRow, tuneRow, type VehicleRow, vehicleFor } from "../tune-access";
import { offerOf } from "../tune-offers";
import { referenceOf, requestFor } from "../tuning-requests";
import { readyAccountOf } from "./accounts";
import { checkoutVehicleOf, dealerNameOf } from "./order-parties";
import { dropUnpaidOrder, type OrderRow, orderToApi, platformFee, requestCancel } from "./orders";
import { PaymentProviderError } from "./provider";
import { paymentIntentOf } from "./sandbox";

/** An order still waiting for its payment: just made, or declined and open to another card. */
const OPEN = ["created", "failed"] as const;
export const isOpen = (order: OrderRow) => (OPEN as readonly string[]).includes(order.status);

/** Where the sandbox's checkout page lives in the portal. */
export const sandboxCheckoutPath = (orderId: string) => `/checkout/${orderId}`;

/** Who asks, as the audit trail records them. */
type Asker = { caller: VerifiedCaller | null; id: string };

/** `known`: the client secret the provider just answered (not asked again), or null to leave it out. */
export async function checkoutOf(ctx: AppContext, order: OrderRow, known?: string | null): Promise<Checkout> {
  const provider = ctx.payments;
  const [vehicle, dealer] = await Promise.all([
    order.vehicleId ? checkoutVehicleOf(ctx.db, order.vehicleId) : null,
    dealerNameOf(ctx.db, order.dealerUid),
  ]);
  return {
    order: orderToApi(order),
    vehicle,
    dealer,
    paymentReference: order.paymentId,
    provider: provider.kind,
    checkoutPath: provider.kind === "sandbox" && isOpen(order) ? sandboxCheckoutPath(order.id) : null,
    clientSecret:
      provider.kind === "stripe" && order.paymentId && isOpen(order)
        ? known !== undefined
          ? known
          : await provider.clientSecretOf(order.paymentId)
        : null,
    publishableKey: provider.publishableKey,
  };
}

/** An order for its buyer, its dealer and admins; anyone else is told it does not exist. */
export async function ownOrder(ctx: AppContext, caller: VerifiedCaller, orderId: string): Promise<OrderRow> {
  const [order] = await ctx.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order || (order.customerUid !== caller.uid && order.dealerUid !== caller.uid && !isAdmin(caller)))
    throw new NotFoundRefusal(`Order ${orderId}`);
  return order;
}

const orderNow = async (ctx: AppContext, orderId: string) =>
  (await ctx.db.select().from(orders).where(eq(orders.id, orderId)))[0];

export interface OpenedCheckout {
  created: boolean;
  checkout: Checkout;
}

/**
 * Makes the order and asks the provider for its payment (idempotency key `order-<id>`). An open
 * order the unique indexes already hold (`open`) is answered instead (created false); if the
 * provider does not answer, the order is removed and the refusal says so, nothing charged.
 */
async function openCheckout(
  ctx: AppContext,
  values: typeof orders.$inferInsert,
  open: SQL | undefined,
  description: string,
  caller: VerifiedCaller,
): Promise<OpenedCheckout> {
  const { db } = ctx;
  const [created] = await db.insert(orders).values(values).onConflictDoNothing().returning();
  if (!created) {
    const [found] = await db.select().from(orders).where(open);
    if (!found) throw new RetryRefusal("another checkout of this was just closed; try again");
    if (found.customerUid !== caller.uid) throw new OrderConflict("another checkout of this is open");
    return { created: false, checkout: await checkoutOf(ctx, found) };
  }
  try {
    const payment = await ctx.payments.createPayment({
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
    return { created: true, checkout: await checkoutOf(ctx, order, payment.clientSecret) };
  } catch (error) {
    await dropUnpaidOrder(ctx, created.id);
    if (error instanceof PaymentProviderError)
      throw new ProviderUnavailable("the payment provider did not answer; nothing was charged, try again in a moment");
    throw error;
  }
}

const dealerStatusOf = async (ctx: AppContext, dealerUid: string) =>
  (
    await ctx.db
      .select({ status: dealerProfiles.status })
      .from(dealerProfiles)
      .where(eq(dealerProfiles.userUid, dealerUid))
  )[0]?.status;

/** Why the tune cannot be sold for this car, checked in the order the client has always been told them. */
async function refuseTuneSale(ctx: AppContext, caller: VerifiedCaller, vehicle: VehicleRow, tune: TuneRow) {
  const offer = await offerOf(ctx.db, tune, caller);
  if (!tune.published || !offer.offered) throw new OrderConflict(`${tune.title} is not for sale to you`);
  if (!vehicle.firmwareId)
    throw new Refusal(
      "unprocessable",
      "Unknown firmware",
      "the car's firmware is not known yet: read its stock with the app first",
      [{ path: "vehicleId", message: "firmware unknown" }],
    );
  if (vehicle.firmwareId !== tune.firmwareId) {
    const message = `the car runs firmware ${vehicle.firmwareId}, the tune is for ${tune.firmwareId}`;
    throw new Refusal("unprocessable", "Wrong firmware", message, [{ path: "tuneFileId", message }]);
  }
  if (tune.priceCents === null || tune.currency === null) throw new OrderConflict(`${tune.title} has no price yet`);
  // A member of a repository its dealer gives at no charge pays nothing, as for a free tune.
  const priceCents = offer.free ? 0 : tune.priceCents;
  if ((await dealerStatusOf(ctx, tune.dealerUid)) !== "approved")
    throw new OrderConflict(`the dealer selling ${tune.title} is not selling now`);
  const payout = priceCents > 0 ? await readyAccountOf(ctx.db, tune.dealerUid) : null;
  if (priceCents > 0 && !payout) throw new OrderConflict(`the dealer selling ${tune.title} cannot take payments now`);
  const [licensed] = await ctx.db
    .select({ id: tuneFilePurchases.id })
    .from(tuneFilePurchases)
    .where(and(eq(tuneFilePurchases.tuneFileId, tune.id), eq(tuneFilePurchases.vehicleId, vehicle.id)));
  if (licensed) throw new OrderConflict(`${tune.title} is already licensed for this car`);
  return { priceCents, currency: tune.currency, payout };
}

/** A free tune: no payment to take, the licence at once (its order says so, without ledger rows). */
async function grantFreeTune(ctx: AppContext, caller: VerifiedCaller, vehicle: VehicleRow, tune: TuneRow) {
  return ctx.db.transaction(async (tx) => {
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
        provider: ctx.payments.kind,
      })
      .returning();
    await tx
      .insert(tuneFilePurchases)
      .values({ customerUid: caller.uid, tuneFileId: tune.id, vehicleId: vehicle.id, orderId: made.id })
      .onConflictDoNothing();
    return made;
  });
}

/** A record the body names that is not the caller's to use: the 400 names the field. */
const invalidBody = (description: string, path: string, message: string) =>
  invalid("Invalid body", description, [{ path, message }]);

/** Whether a finder said "not found" (tune-access and tuning-requests still answer with an HTTP 404). */
const isNotFound = (error: unknown) =>
  (error instanceof Refusal && error.kind === "not_found") ||
  (error instanceof Error && (error as { statusCode?: unknown }).statusCode === 404);

const notFoundToInvalid = (description: string, path: string, message: string) => (error: unknown) => {
  if (isNotFound(error)) throw invalidBody(description, path, message);
  throw error;
};

/**
 * A checkout for a tune on one of the caller's cars (the caller is its owner): published and
 * offered to them, for the car's firmware, not already licensed for it, sold by an approved
 * dealer. A second request while one is open answers the same order.
 */
export async function orderTuneFile(
  ctx: AppContext,
  caller: VerifiedCaller,
  { tuneFileId, vehicleId }: { tuneFileId: string; vehicleId: string },
): Promise<OpenedCheckout> {
  const { vehicle, owner } = await vehicleFor(ctx.db, vehicleId, caller).catch(
    notFoundToInvalid(`no vehicle ${vehicleId}`, "vehicleId", "no such vehicle of yours"),
  );
  if (!owner) throw forbidden("Only the car's owner buys a licence for it");
  const tune = await tuneRow(ctx.db, tuneFileId).catch(() => {
    throw invalidBody(`no tune file ${tuneFileId}`, "tuneFileId", "no such tune file");
  });
  const { priceCents, currency, payout } = await refuseTuneSale(ctx, caller, vehicle, tune);
  if (priceCents === 0)
    return { created: true, checkout: await checkoutOf(ctx, await grantFreeTune(ctx, caller, vehicle, tune)) };
  return openCheckout(
    ctx,
    {
      kind: "tune-file",
      customerUid: caller.uid,
      dealerUid: tune.dealerUid,
      tuneFileId: tune.id,
      vehicleId: vehicle.id,
      title: tune.title,
      amountCents: priceCents,
      currency,
      feeCents: platformFee(priceCents, ctx.config.platformFeePercent),
      provider: ctx.payments.kind,
      destination: payout?.accountId ?? null,
    },
    and(eq(orders.tuneFileId, tune.id), eq(orders.vehicleId, vehicle.id), inArray(orders.status, OPEN)),
    `${tune.title} for ${vehicle.name}`,
    caller,
  );
}

/**
 * A checkout for a tuning request's quote (the caller is its customer): while it is quoted, to an
 * approved dealer whose payout account takes charges. The order pays the request; its payment
 * event moves the request to paid. A second request while one is open answers the same order.
 */
export async function orderTuningRequest(
  ctx: AppContext,
  caller: VerifiedCaller,
  tuningRequestId: string,
): Promise<OpenedCheckout> {
  const { row, side } = await requestFor(ctx.db, caller, tuningRequestId).catch(
    notFoundToInvalid(`no tuning request ${tuningRequestId}`, "tuningRequestId", "no such tuning request of yours"),
  );
  if (side.actor !== "customer") throw forbidden("Only the request's customer pays its quote");
  if (row.state !== "quoted" || row.quotePriceCents === null || !row.quoteCurrency) {
    const [paid] = await ctx.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.tuningRequestId, row.id), eq(orders.status, "paid")));
    throw new OrderConflict(
      paid
        ? `${referenceOf(row)} is paid already`
        : `${referenceOf(row)} is ${row.state}: only a quoted request is paid`,
      "tuningRequestId",
    );
  }
  if ((await dealerStatusOf(ctx, row.dealerUid)) !== "approved")
    throw new OrderConflict("the dealer is not taking orders now", "tuningRequestId");
  const payout = await readyAccountOf(ctx.db, row.dealerUid);
  if (!payout) throw new OrderConflict("the dealer cannot take payments now", "tuningRequestId");
  return openCheckout(
    ctx,
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
      provider: ctx.payments.kind,
      destination: payout.accountId,
    },
    and(eq(orders.tuningRequestId, row.id), inArray(orders.status, OPEN)),
    `Custom tune ${referenceOf(row)} for ${row.vehicleName}`,
    caller,
  );
}

/** An order for its buyer, its dealer and admins; only the buyer gets what pays it (the client secret). */
export async function checkoutFor(ctx: AppContext, caller: VerifiedCaller, orderId: string): Promise<Checkout> {
  const order = await ownOrder(ctx, caller, orderId);
  const checkout = await checkoutOf(ctx, order, order.customerUid === caller.uid ? undefined : null);
  return order.customerUid === caller.uid ? checkout : { ...checkout, checkoutPath: null };
}

/** Cancels an unpaid checkout (its buyer or an admin): the provider's cancellation event expires the order. */
export async function cancelCheckout(ctx: AppContext, asker: Asker & { caller: VerifiedCaller }, orderId: string) {
  const { caller } = asker;
  const order = await ownOrder(ctx, caller, orderId);
  if (order.customerUid !== caller.uid && !isAdmin(caller))
    throw new Refusal("forbidden", "Forbidden", "Only the buyer cancels their checkout");
  if (!isOpen(order)) throw new OrderConflict(`the order is ${order.status}`, "orderId");
  await requestCancel(ctx, order);
  // An admin cancelling someone's checkout: the provider's event makes the change, the trail says who asked.
  await auditChangeTo(ctx.db, asker, order.customerUid, {
    action: "order.cancel-requested",
    targetType: "order",
    targetId: order.id,
    before: { status: order.status },
  });
  return orderNow(ctx, order.id);
}

/** The sandbox's card form: a test card pays, a decline card declines, as the provider's event says. */
export async function paySandboxOrder(ctx: AppContext, caller: VerifiedCaller, orderId: string, cardNumber: string) {
  const provider = ctx.payments;
  if (provider.kind !== "sandbox")
    throw new NotFoundRefusal("The sandbox checkout (a real payment provider is configured)");
  const order = await ownOrder(ctx, caller, orderId);
  if (order.customerUid !== caller.uid) throw new Refusal("forbidden", "Forbidden", "Only the buyer pays their order");
  if (!isOpen(order) || !order.paymentId) throw new OrderConflict(`the order is ${order.status}`, "orderId");
  const card = SANDBOX_CARDS[cardNumber as keyof typeof SANDBOX_CARDS];
  if (!card) {
    const message = `the sandbox takes its test cards: ${Object.entries(SANDBOX_CARDS)
      .map(([number, known]) => `${number} (${known.label})`)
      .join(", ")}`;
    throw new Refusal("invalid", "Invalid body", message, [{ path: "cardNumber", message: "not a sandbox test card" }]);
  }
  const ref = {
    paymentId: order.paymentId,
    orderId: order.id,
    amountCents: order.amountCents,
    currency: order.currency,
  };
  const declined = card.outcome === "declined";
  // The open check above is only a first answer: concurrent payers all pass it. The one atomic
  // step is the webhook's, which moves the order under its row lock; only the payer whose event
  // moved it is told it succeeded, the others that it is paid (or expired) already.
  const outcome = await provider.emit(
    declined ? "payment_intent.payment_failed" : "payment_intent.succeeded",
    paymentIntentOf(
      ref,
      declined ? "requires_payment_method" : "succeeded",
      declined ? { last_payment_error: { code: card.label.split(": ")[1] } } : {},
    ),
  );
  const now = await orderNow(ctx, order.id);
  // A decline on an order already declined moves nothing and is still this card's answer.
  if (outcome !== "applied" && !(declined && isOpen(now)))
    throw new OrderConflict(`the order is ${now.status} already`, "orderId");
  return {
    status: card.outcome,
    message: declined ? `The card was ${card.label}` : "Paid",
    order: orderToApi(now),
  };
}
