/**
 * Payments: an order for a tune on one car, the checkout the browser pays, the licence a paid
 * order makes, and the ledger of every money movement a user is part of. Amounts are integer
 * minor units (cents) with their currency; no float ever holds money.
 */
import { z } from "zod";
import { listResponseSchema } from "./list-response";

/**
 * Forward only: created → paid → refunded, or created → expired / failed. A failed payment may
 * still be paid (the customer tries another card on the same payment, as Stripe allows) or
 * expire; paid, refunded and expired orders never move back.
 */
/** What an order pays: a tune file for one car, or a custom tune (a tuning request's quote). */
export const ORDER_KINDS = ["tune-file", "tuning-request"] as const;
export const ORDER_STATUSES = ["created", "paid", "refunded", "expired", "failed"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_NEXT: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  created: ["paid", "expired", "failed"],
  failed: ["paid", "expired"],
  paid: ["refunded"],
  refunded: [],
  expired: [],
};

/** From the user's side: the customer's payment and refund; the dealer's sale, platform fee and their reversals. */
export const LEDGER_KINDS = [
  "payment",
  "refund",
  "sale",
  "fee",
  "sale-reversal",
  "fee-reversal",
  "adjustment",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const tuneFileOrderSchema = z.strictObject({
  tuneFileId: z.uuid("tuneFileId must be a tune file's id"),
  vehicleId: z.uuid("vehicleId must be a vehicle's id"),
});
export type TuneFileOrderInput = z.input<typeof tuneFileOrderSchema>;

/** `POST /payments/tuning-request-order`: pays a tuning request's quote. */
export const tuningRequestOrderSchema = z.strictObject({
  tuningRequestId: z.uuid("tuningRequestId must be a tuning request's id"),
});

export const orderSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(ORDER_KINDS),
  customerUid: z.string(),
  dealerUid: z.string(),
  tuneFileId: z.string().nullable(),
  vehicleId: z.string().nullable(),
  tuningRequestId: z.string().nullable(),
  title: z.string(),
  amountCents: z.number().int(),
  currency: z.string(),
  feeCents: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  provider: z.enum(["sandbox", "stripe"]),
  refundReason: z.string().nullable(),
  paidAt: z.iso.datetime().nullable(),
  endedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type Order = z.infer<typeof orderSchema>;

/** `GET /payments/orders`: a customer's purchases and a dealer's sales; admins every order. */
export const orderList = {
  sort: ["createdAt", "amountCents"],
  filter: ["status", "customerUid", "dealerUid", "vehicleId", "currency", "createdAt"],
} as const;
/** An order as a list shows it: with both parties' names, for support to read without lookups. */
export const orderListItemSchema = orderSchema.extend({
  customerName: z.string().nullable(),
  dealerName: z.string().nullable(),
});
export type OrderListItem = z.infer<typeof orderListItemSchema>;
export const orderPageSchema = listResponseSchema(orderListItemSchema);

/** The car a licence binds to, named as its vehicle card names it; null once the car is removed. */
export const checkoutVehicleSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  vin: z.string().nullable(),
  catalogue: z.strictObject({ make: z.string(), model: z.string(), engine: z.string() }).nullable(),
});
export type CheckoutVehicle = z.infer<typeof checkoutVehicleSchema>;

/**
 * What the browser needs to pay: our sandbox page's path, or Stripe's client secret and publishable
 * key; with the car and the dealer the order is between, and the provider's payment id, which a
 * receipt names as its payment reference.
 */
export const checkoutSchema = z.strictObject({
  order: orderSchema,
  vehicle: checkoutVehicleSchema.nullable(),
  /** The selling dealer as the dealer directory names them; null if their profile is gone. */
  dealer: z.strictObject({ uid: z.string(), businessName: z.string() }).nullable(),
  paymentReference: z.string().nullable(),
  provider: z.enum(["sandbox", "stripe"]),
  /** The sandbox's checkout page in the portal; null with Stripe (the Payment Element pays in place). */
  checkoutPath: z.string().nullable(),
  clientSecret: z.string().nullable(),
  publishableKey: z.string().nullable(),
});
export type Checkout = z.infer<typeof checkoutSchema>;

export const expireSessionSchema = z.strictObject({ orderId: z.uuid("orderId must be an order's id") });

/** The sandbox's card form: the usual test card numbers pay, the usual decline numbers decline. */
export const sandboxPaymentSchema = z.strictObject({
  orderId: z.uuid("orderId must be an order's id"),
  cardNumber: z
    .string("enter a card number")
    .transform((value) => value.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{12,19}$/, "a card number is 12 to 19 digits")),
});
export const sandboxPaymentResultSchema = z.strictObject({
  status: z.enum(["succeeded", "declined"]),
  message: z.string(),
  order: orderSchema,
});
export type SandboxPaymentResult = z.infer<typeof sandboxPaymentResultSchema>;

/** Removing a licence (admin or the selling dealer): the reason is kept and told; a paid order is refunded. */
export const purchaseRemovalSchema = z.strictObject({
  tuneFileId: z.uuid("tuneFileId must be a tune file's id"),
  reason: z
    .string("give a reason: the customer is told it")
    .trim()
    .min(3, "give a reason: the customer is told it")
    .max(1000, "a reason is at most 1000 characters"),
});

export const licenceSchema = z.strictObject({
  id: z.string(),
  tuneFileId: z.string(),
  vehicleId: z.string(),
  customerUid: z.string(),
  title: z.string(),
  dealerUid: z.string(),
  orderId: z.string().nullable(),
  grantedBy: z.string().nullable(),
  /** What it is bound to, read from the car when it was made: the pre-flight refuses another VIN, ECU or software. */
  boundTo: z.strictObject({
    vin: z.string().nullable(),
    ecuSerial: z.string().nullable(),
    softwareId: z.string().nullable(),
  }),
  /** When the first verified flash used it; null while unused. */
  consumedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type Licence = z.infer<typeof licenceSchema>;
export const licenceListSchema = z.strictObject({ data: z.array(licenceSchema) });
/** The event of `GET /user-vehicles/{id}/tune-files/purchases/listen`: the car's licences, whole. */
export const LICENCES_EVENT = "licences";

export const ledgerEntrySchema = z.strictObject({
  id: z.string(),
  userUid: z.string(),
  orderId: z.string().nullable(),
  eventId: z.string(),
  kind: z.enum(LEDGER_KINDS),
  amountCents: z.number().int(),
  currency: z.string(),
  description: z.string(),
  /** The admin who made an adjustment; null for the provider's movements. */
  createdBy: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
export const ledgerPageSchema = listResponseSchema(ledgerEntrySchema).extend({
  /** Per currency, the sum of every entry (not only this page's). */
  balances: z.array(z.strictObject({ currency: z.string(), amountCents: z.number().int() })),
});
/** `POST /users/{id}/transaction`: an admin's adjustment of a user's balance (a goodwill credit, a correction), with the reason the user reads. */
export const ledgerAdjustmentSchema = z.strictObject({
  amountCents: z
    .number()
    .int("the amount is whole cents")
    .min(-10_000_000, "an adjustment is at most 100,000.00 either way")
    .max(10_000_000, "an adjustment is at most 100,000.00 either way")
    .refine((cents) => cents !== 0, "an adjustment moves something: not 0"),
  currency: z.enum(["EUR", "GBP", "USD"], { error: "currency is one of EUR, GBP, USD" }),
  reason: z
    .string("give a reason: the user reads it")
    .trim()
    .min(3, "give a reason: the user reads it")
    .max(500, "a reason is at most 500 characters"),
});
export type LedgerAdjustment = z.infer<typeof ledgerAdjustmentSchema>;

export const ledgerList = {
  sort: ["createdAt"],
  filter: ["kind", "currency", "orderId", "createdAt"],
} as const;

/** The card numbers the sandbox knows (the same as Stripe's test cards), and what each does. */
export const SANDBOX_CARDS = {
  "4242424242424242": { outcome: "succeeded", label: "Visa, pays" },
  "5555555555554444": { outcome: "succeeded", label: "Mastercard, pays" },
  "4000000000000002": { outcome: "declined", label: "declined: card_declined" },
  "4000000000009995": { outcome: "declined", label: "declined: insufficient_funds" },
} as const;

/** A dealer's payout account: ready when it takes charges (a priced tune is sold only then). */
export const connectedAccountSchema = z.strictObject({
  provider: z.enum(["sandbox", "stripe"]),
  accountId: z.string(),
  chargesEnabled: z.boolean(),
  payoutsEnabled: z.boolean(),
  requirementsDue: z.array(z.string()),
  ready: z.boolean(),
  updatedAt: z.iso.datetime(),
});
export type ConnectedAccount = z.infer<typeof connectedAccountSchema>;

/** `GET /users/{id}/connected-account`: the account, or null before onboarding started. */
export const connectedAccountStateSchema = z.strictObject({ account: connectedAccountSchema.nullable() });

/** `POST /users/{id}/connected-account`: where the dealer completes onboarding (Stripe's page, or the sandbox's in the portal). */
export const onboardingSchema = z.strictObject({ account: connectedAccountSchema, onboardingUrl: z.string() });
