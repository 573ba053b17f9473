/**
 * The Stripe provider against a local stub of the few Stripe endpoints we call (stripe-mock and
 * the Stripe CLI cannot be installed here): the SDK's retry sends the order's idempotency key
 * again, and a provider that does not answer leaves no order behind.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dealerProfiles, orders } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { carMaker } from "./support/flashing-setup";
import { apiDatabases, createUser, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { readyPayouts } from "./support/payments-setup";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 6, patchEntries: 2, firmwareId: "STRIPESTUB64K" });

interface StubCall {
  path: string;
  idempotencyKey: string | undefined;
  body: URLSearchParams;
}

/** Answers POST /v1/payment_intents: failing the first `failFirst` calls with a 500, or every call when `down`. */
function stripeStub() {
  const calls: StubCall[] = [];
  const state = { failFirst: 0, down: false };
  const server: Server = createServer((request: IncomingMessage, response) => {
    let raw = "";
    request.on("data", (chunk) => (raw += chunk));
    request.on("end", () => {
      const body = new URLSearchParams(raw);
      calls.push({
        path: request.url ?? "",
        idempotencyKey: request.headers["idempotency-key"] as string | undefined,
        body,
      });
      response.setHeader("content-type", "application/json");
      if (state.down || calls.length <= state.failFirst) {
        response.statusCode = 500;
        response.end(JSON.stringify({ error: { type: "api_error", message: "stub: unavailable" } }));
        return;
      }
      const id = `pi_stub_${calls.length}`;
      response.end(
        JSON.stringify({
          id,
          object: "payment_intent",
          client_secret: `${id}_secret_stub`,
          amount: Number(body.get("amount")),
          currency: body.get("currency"),
          status: "requires_payment_method",
          metadata: { orderId: body.get("metadata[orderId]") },
        }),
      );
    });
  });
  return { server, calls, state };
}

describe.each(apiDatabases)("the Stripe provider against a local stub on %s", (kind) => {
  const stub = stripeStub();
  let test: TestApp;
  let app: FastifyInstance;
  const { call, upload, storeFirmware } = requestsTo(() => app);
  let customer: TestUser;
  let dealerUid: string;
  let tuneId: string;

  const connectCar = carMaker(
    requestsTo(() => app),
    demo,
    "WSTUB",
  );
  const car = () => connectCar(customer);

  beforeAll(async () => {
    await new Promise<void>((resolve) => stub.server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(stub.server.address() as AddressInfo).port}`;
    test = await startTestApp(kind, {
      STRIPE_SECRET_KEY: "sk_test_stub",
      STRIPE_PUBLISHABLE_KEY: "pk_test_stub",
      STRIPE_WEBHOOK_SECRET: "whsec_stub",
      STRIPE_API_URL: url,
    });
    app = test.app;
    const [admin, dealer] = await createUsers(test, ["admin", "dealer"]);
    customer = await createUser(test, "customer");
    await Promise.all([admin, dealer, customer].map((user) => call("GET", "/tune-files", user)));
    await app.ctx.db
      .insert(dealerProfiles)
      .values({ userUid: dealer.uid, businessName: "Stub Tuning", status: "approved" });
    dealerUid = dealer.uid;
    await storeFirmware(admin, demo);
    tuneId = (await upload("/tune-files", dealer, demo.tune.image, { title: "Stage 2" })).json().id;
    await readyPayouts(app, dealer.uid);
    await call("PUT", `/tune-files/${tuneId}/publish`, dealer, { priceCents: 39900, currency: "GBP" });
  });
  beforeEach(() => {
    stub.calls.length = 0;
    stub.state.failFirst = 0;
    stub.state.down = false;
  });
  afterAll(async () => {
    await test?.close();
    await new Promise((resolve) => stub.server.close(resolve));
  });

  it("creates the payment with the amount, the currency and the order, retrying with the same idempotency key", async () => {
    stub.state.failFirst = 1;
    const vehicleId = await car();
    const answer = await call("POST", "/payments/tune-file-order", customer, { tuneFileId: tuneId, vehicleId });
    expect(answer.statusCode, answer.body).toBe(201);
    const checkout = answer.json();
    expect(checkout).toMatchObject({
      provider: "stripe",
      checkoutPath: null,
      clientSecret: "pi_stub_2_secret_stub",
      publishableKey: "pk_test_stub",
      order: { provider: "stripe", amountCents: 39900, currency: "GBP", feeCents: 3990 },
    });
    expect(stub.calls).toHaveLength(2);
    expect(stub.calls[0].idempotencyKey).toBe(`order-${checkout.order.id}`);
    expect(stub.calls[1].idempotencyKey).toBe(stub.calls[0].idempotencyKey);
    // A destination charge: the sale goes to the dealer's account, the platform keeps its fee.
    expect(Object.fromEntries(stub.calls[1].body)).toMatchObject({
      amount: "39900",
      currency: "gbp",
      "metadata[orderId]": checkout.order.id,
      application_fee_amount: "3990",
      "transfer_data[destination]": `acct_test_${dealerUid}`,
    });
    const [row] = await app.ctx.db.select().from(orders).where(eq(orders.id, checkout.order.id));
    expect(row.paymentId).toBe("pi_stub_2");
  });

  it("answers 503 and keeps no order when the provider does not answer; the next try makes the order", async () => {
    stub.state.down = true;
    const vehicleId = await car();
    const down = await call("POST", "/payments/tune-file-order", customer, { tuneFileId: tuneId, vehicleId });
    expect(down.statusCode).toBe(503);
    expect(down.json().description).toContain("nothing was charged");
    expect(stub.calls.length).toBeGreaterThan(1);
    expect(await app.ctx.db.select().from(orders).where(eq(orders.vehicleId, vehicleId))).toHaveLength(0);
    stub.state.down = false;
    expect(
      (await call("POST", "/payments/tune-file-order", customer, { tuneFileId: tuneId, vehicleId })).statusCode,
    ).toBe(201);
  });

  it("offers no sandbox checkout when Stripe is configured", async () => {
    expect(
      (
        await call("POST", "/payments/sandbox/pay", customer, {
          orderId: "00000000-0000-4000-8000-000000000000",
          cardNumber: "4242424242424242",
        })
      ).statusCode,
    ).toBe(404);
  });
});
