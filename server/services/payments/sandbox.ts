/**
 * The local sandbox provider: no network, no key. A payment is an id; what happens to it (paid
 * on our checkout page, declined, cancelled, refunded) reaches the portal as a Stripe-shaped
 * event, signed with Stripe's own test-header code under the sandbox's webhook secret and posted
 * to the same webhook a real Stripe account would call, so the sandbox runs the real code path.
 */
import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import type { PaymentProvider, PaymentRef } from "./provider";

/** A Stripe-shaped event: what the webhook reads of it. */
export interface ProviderEvent {
  id: string;
  object: "event";
  type: string;
  created: number;
  livemode: false;
  api_version: string;
  data: { object: Record<string, unknown> };
}

/** The sandbox's onboarding page in the portal. */
export const SANDBOX_ONBOARDING_PATH = "/payouts/onboarding";

/** A payment intent as Stripe's events carry it. */
export const paymentIntentOf = (payment: PaymentRef, status: string, extra: Record<string, unknown> = {}) => ({
  id: payment.paymentId,
  object: "payment_intent",
  amount: payment.amountCents,
  amount_received: status === "succeeded" ? payment.amountCents : 0,
  currency: payment.currency.toLowerCase(),
  status,
  metadata: { orderId: payment.orderId },
  ...extra,
});

/** What the webhook did with a delivered event (routes/stripe.ts answers it). */
export type DeliveryOutcome = "applied" | "duplicate" | "ignored";
export type Delivery = (payload: string, signature: string) => Promise<DeliveryOutcome>;

export interface SandboxProvider extends PaymentProvider {
  readonly kind: "sandbox";
  /** Where signed events go: the webhook route, wired when the routes are registered. */
  deliverTo(delivery: Delivery): void;
  /** Builds, signs and delivers one event; answers what the webhook did with it. */
  emit(type: string, object: Record<string, unknown>): Promise<DeliveryOutcome>;
}

export function sandboxProvider(webhookSecret: string): SandboxProvider {
  // The SDK's webhook helpers need an instance but never call the API.
  const stripe = new Stripe("sk_test_sandbox_never_sent");
  let delivery: Delivery | null = null;
  const emit = async (type: string, object: Record<string, unknown>) => {
    if (!delivery) throw new Error("the sandbox has no webhook to deliver to");
    const event: ProviderEvent = {
      id: `evt_sandbox_${randomUUID().replaceAll("-", "")}`,
      object: "event",
      type,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      api_version: "sandbox",
      data: { object },
    };
    const payload = JSON.stringify(event);
    return delivery(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }));
  };
  return {
    kind: "sandbox",
    publishableKey: null,
    webhooks: stripe.webhooks,
    webhookSecret,
    deliverTo: (next) => void (delivery = next),
    emit,
    async createPayment() {
      return { paymentId: `pi_sandbox_${randomUUID().replaceAll("-", "")}`, clientSecret: null };
    },
    async clientSecretOf() {
      return null;
    },
    async createAccount() {
      return `acct_sandbox_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
    },
    async onboardingUrl() {
      return SANDBOX_ONBOARDING_PATH;
    },
    async cancelPayment(payment) {
      await emit("payment_intent.canceled", paymentIntentOf(payment, "canceled"));
    },
    async refund(payment) {
      await emit("charge.refunded", {
        id: `ch_sandbox_${payment.paymentId.slice("pi_sandbox_".length)}`,
        object: "charge",
        payment_intent: payment.paymentId,
        amount: payment.amountCents,
        amount_refunded: payment.amountCents,
        currency: payment.currency.toLowerCase(),
        refunded: true,
        metadata: { orderId: payment.orderId },
      });
    },
  };
}
