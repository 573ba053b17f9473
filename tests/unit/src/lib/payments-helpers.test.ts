import { describe, expect, it } from "vitest";
import { effectOf, platformFee } from "../../../../server/services/payments/orders";
import { failureText, fieldMessage } from "../../../../src/lib/http-errors";
import { centsOf, formatMoney } from "../../../../src/lib/money";

describe("the platform fee", () => {
  it("is a whole percentage of the price in cents, rounded half up", () => {
    expect(platformFee(24900, 10)).toBe(2490);
    expect(platformFee(995, 10)).toBe(100); // 99.5 → 100
    expect(platformFee(994, 10)).toBe(99); // 99.4 → 99
    expect(platformFee(1, 10)).toBe(0);
    expect(platformFee(0, 10)).toBe(0);
    expect(platformFee(12345, 0)).toBe(0);
    expect(platformFee(12345, 100)).toBe(12345);
  });
});

describe("what a provider event asks of an order", () => {
  const event = (type: string, object: Record<string, unknown>) => ({ type, data: { object } });
  it("reads a payment, a decline, a cancellation and a refund from Stripe's shapes", () => {
    expect(
      effectOf(
        event("payment_intent.succeeded", {
          id: "pi_1",
          amount: 500,
          amount_received: 500,
          currency: "eur",
          metadata: { orderId: "o1" },
        }),
      ),
    ).toEqual({ to: "paid", orderId: "o1", paymentId: "pi_1", amountCents: 500, currency: "EUR" });
    expect(effectOf(event("payment_intent.payment_failed", { id: "pi_1", metadata: { orderId: "o1" } }))).toMatchObject(
      { to: "failed", amountCents: null, currency: null },
    );
    expect(effectOf(event("payment_intent.canceled", { id: "pi_1" }))).toMatchObject({
      to: "expired",
      orderId: null,
      paymentId: "pi_1",
    });
    expect(
      effectOf(event("charge.refunded", { id: "ch_1", payment_intent: "pi_1", amount_refunded: 500, currency: "gbp" })),
    ).toEqual({ to: "refunded", orderId: null, paymentId: "pi_1", amountCents: 500, currency: "GBP" });
  });

  it("acts on no other type, and takes no amount that is not a whole number of cents", () => {
    expect(effectOf(event("customer.created", {}))).toBeNull();
    expect(
      effectOf(event("payment_intent.succeeded", { id: "pi_1", amount_received: 12.5, currency: "eur" }))?.amountCents,
    ).toBeNull();
  });
});

describe("money and refusals in the app", () => {
  it("shows cents in major units with the currency, and reads typed amounts back to cents", () => {
    expect(formatMoney(19900, "EUR")).toMatch(/199\.00/);
    expect(formatMoney(-1990, "GBP")).toMatch(/19\.90/);
    expect(formatMoney(null, "EUR")).toBe("—");
    expect(centsOf(199.99)).toBe(19999);
    expect(centsOf(0.1 + 0.2)).toBe(30);
  });

  it("names a field's refusal, else the server's sentence", () => {
    const refusal = { message: "Invalid body", description: "reason: too short", errors: { reason: "give a reason" } };
    expect(fieldMessage(refusal, "status", "reason")).toBe("give a reason");
    expect(fieldMessage(refusal, "cardNumber")).toBeNull();
    expect(fieldMessage(null, "reason")).toBeNull();
    expect(failureText(refusal)).toBe("reason: too short");
    expect(failureText({ message: "Conflict" })).toBe("Conflict");
    expect(failureText(undefined)).toBe("The request failed");
  });
});
