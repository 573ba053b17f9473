/**
 * Stripe: a PaymentIntent per order, a destination charge to the dealer's connected account with
 * the platform's fee as the application fee, every call with the order's idempotency key (the
 * SDK sends the same key again when it retries).
 */
import Stripe from "stripe";
import { type PaymentProvider, PaymentProviderError, type PaymentRequest, type ProviderPayment } from "./provider";

export interface StripeOptions {
  secretKey: string;
  publishableKey: string | null;
  webhookSecret: string;
  /** Another API address (a local stub in tests); unset: Stripe's. */
  apiUrl?: string;
}

export function stripeProvider(options: StripeOptions): PaymentProvider & { readonly kind: "stripe" } {
  const api = options.apiUrl ? new URL(options.apiUrl) : null;
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 10_000,
    ...(api && {
      host: api.hostname,
      port: Number(api.port || (api.protocol === "https:" ? 443 : 80)),
      protocol: api.protocol.replace(":", "") as "http" | "https",
    }),
  });
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw new PaymentProviderError(error);
    }
  };
  return {
    kind: "stripe",
    publishableKey: options.publishableKey,
    webhooks: stripe.webhooks,
    webhookSecret: options.webhookSecret,
    async createPayment(request: PaymentRequest): Promise<ProviderPayment> {
      const intent = await guard(() =>
        stripe.paymentIntents.create(
          {
            amount: request.amountCents,
            currency: request.currency.toLowerCase(),
            description: request.description,
            metadata: { orderId: request.orderId },
            automatic_payment_methods: { enabled: true },
            ...(request.destination && {
              application_fee_amount: request.feeCents,
              transfer_data: { destination: request.destination },
            }),
          },
          { idempotencyKey: request.idempotencyKey },
        ),
      );
      return { paymentId: intent.id, clientSecret: intent.client_secret };
    },
    async clientSecretOf(paymentId) {
      return (await guard(() => stripe.paymentIntents.retrieve(paymentId))).client_secret;
    },
    async createAccount(dealer, idempotencyKey) {
      const account = await guard(() =>
        stripe.accounts.create(
          {
            type: "express",
            ...(dealer.email && { email: dealer.email }),
            metadata: { userUid: dealer.uid },
            capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
          },
          { idempotencyKey },
        ),
      );
      return account.id;
    },
    async onboardingUrl(accountId, returnUrl) {
      const link = await guard(() =>
        stripe.accountLinks.create({
          account: accountId,
          type: "account_onboarding",
          return_url: returnUrl,
          refresh_url: returnUrl,
        }),
      );
      return link.url;
    },
    async cancelPayment(payment, idempotencyKey) {
      await guard(() => stripe.paymentIntents.cancel(payment.paymentId, {}, { idempotencyKey }));
    },
    async refund(payment, idempotencyKey) {
      await guard(() =>
        stripe.refunds.create(
          {
            payment_intent: payment.paymentId,
            ...(payment.transferred && { reverse_transfer: true, refund_application_fee: true }),
          },
          { idempotencyKey },
        ),
      );
    },
  };
}
