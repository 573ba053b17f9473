/**
 * Buying a tune for one car: the order and its checkout, the sandbox's card form, cancelling an
 * unpaid checkout, the car's licences (and their removal, refunding a paid one), a dealer's payout
 * account and the ledger of a user's money movements. State changes of orders come only from the
 * provider's events (routes/stripe.ts); these routes check the request, ask services/payments and
 * shape the answer.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { HttpError } from "../../errors";
import type { DeliveryOutcome } from "../../services/payments/sandbox";
import { STRIPE_EVENTS_PATH } from "../stripe";
import { registerAccountRoutes, registerLedgerRoutes } from "./accounts";
import { registerCheckoutRoutes, registerOrderRoutes } from "./checkouts";
import { registerLicenceRoutes } from "./licences";

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
      return answer.json<{ outcome: DeliveryOutcome }>().outcome;
    });
  }
  registerCheckoutRoutes(plugin, ctx);
  registerOrderRoutes(plugin, ctx);
  registerLicenceRoutes(plugin, ctx);
  registerAccountRoutes(plugin, ctx);
  registerLedgerRoutes(plugin, ctx);
}
