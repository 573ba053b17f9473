/**
 * The card payment provider behind one interface: Stripe (its official SDK) when
 * STRIPE_SECRET_KEY is set, else the local sandbox, which pays on our own checkout page and
 * delivers events signed exactly as Stripe signs them to the same webhook. Either way the
 * webhook (`POST /stripe/on-event`) verifies the signature with Stripe's own code and applies
 * the event; nothing else changes an order's state.
 */
import type Stripe from "stripe";

export interface PaymentRequest {
  orderId: string;
  amountCents: number;
  /** ISO 4217, as the order has it (upper case). */
  currency: string;
  feeCents: number;
  /** The dealer's connected account to transfer to (a destination charge); null: the platform keeps it. */
  destination: string | null;
  description: string;
  /** The same key for every attempt of one order, so a retried call never makes a second payment. */
  idempotencyKey: string;
}

/** A payment made before, with what its events carry. */
export interface PaymentRef {
  paymentId: string;
  orderId: string;
  amountCents: number;
  currency: string;
}

export interface ProviderPayment {
  paymentId: string;
  /** What the browser confirms the payment with (Stripe's Payment Element); null in the sandbox. */
  clientSecret: string | null;
}

export interface PaymentProvider {
  readonly kind: "sandbox" | "stripe";
  /** For the browser's Stripe.js; null in the sandbox. */
  readonly publishableKey: string | null;
  /** Stripe's webhook utilities: signatures are made and checked by Stripe's own code. */
  readonly webhooks: Stripe["webhooks"];
  readonly webhookSecret: string;
  createPayment(request: PaymentRequest): Promise<ProviderPayment>;
  /** The client secret of a payment made before (a second checkout of the same open order). */
  clientSecretOf(paymentId: string): Promise<string | null>;
  cancelPayment(payment: PaymentRef, idempotencyKey: string): Promise<void>;
  /** A payout account for a dealer (a Stripe Express account), idempotent per dealer. */
  createAccount(dealer: { uid: string; email: string | null }, idempotencyKey: string): Promise<string>;
  /** Where the dealer completes the provider's onboarding, coming back to `returnUrl`. */
  onboardingUrl(accountId: string, returnUrl: string): Promise<string>;
  /** A full refund; of a destination charge (`transferred`) the transfer and the fee are reversed too. */
  refund(payment: PaymentRef & { transferred: boolean }, idempotencyKey: string): Promise<void>;
}

/** The provider did not answer or refused the call: the order is not made, the caller may retry. */
export class PaymentProviderError extends Error {
  constructor(readonly cause: unknown) {
    super(`the payment provider did not answer: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "PaymentProviderError";
  }
}
