import type { AddressInfo } from "node:net";
import { and, count, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectedAccounts,
  dealerProfiles,
  ledgerEntries,
  notifications,
  orders,
  paymentEvents,
  supportedVehicles,
  tuneFilePurchases,
  userVehicles,
} from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { listen } from "./support/event-stream-client";
import { carMaker } from "./support/flashing-setup";
import {
  bearer,
  bothDatabases,
  createUser,
  createUsers,
  startTestApp,
  type TestApp,
  type TestUser,
} from "./support/harness";
import { readyPayouts } from "./support/payments-setup";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 6, patchEntries: 2, firmwareId: "PAYMENTS64K" });
const webhooks = new Stripe("sk_test_only_for_signing").webhooks;

describe.each(bothDatabases)("buying a tune on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call, upload, storeFirmware } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  let customer: TestUser;
  let stranger: TestUser;
  let tuneId: string;

  const connectCar = carMaker(
    requestsTo(() => app),
    demo,
    "WPAYZ",
  );
  /** A car of the customer's running the demo firmware. */
  const car = (user = customer) => connectCar(user);
  const order = (vehicleId: string, user = customer) =>
    call("POST", "/payments/tune-file-order", user, { tuneFileId: tuneId, vehicleId });
  const pay = (orderId: string, cardNumber = "4242 4242 4242 4242", user = customer) =>
    call("POST", "/payments/sandbox/pay", user, { orderId, cardNumber });
  const eventsStored = async () => (await app.ctx.db.select({ n: count() }).from(paymentEvents))[0].n;
  /** Posts an event to the webhook signed under `secret` (the sandbox's unless told). */
  const deliver = (event: object, options: { secret?: string; timestamp?: number; body?: string } = {}) => {
    const payload = options.body ?? JSON.stringify(event);
    const signature = webhooks.generateTestHeaderString({
      payload: JSON.stringify(event),
      secret: options.secret ?? app.ctx.payments.webhookSecret,
      ...(options.timestamp && { timestamp: options.timestamp }),
    });
    return app.inject({
      method: "POST",
      url: "/api/v1/stripe/on-event",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      payload,
    });
  };
  const succeeded = (
    orderId: string,
    paymentId: string,
    amount: number,
    currency = "eur",
    id = `evt_test_${Math.random().toString(36).slice(2)}`,
  ) => ({
    id,
    object: "event",
    type: "payment_intent.succeeded",
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: paymentId,
        object: "payment_intent",
        amount,
        amount_received: amount,
        currency,
        metadata: { orderId },
      },
    },
  });

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer, customer, stranger] = await createUsers(test, [
      "admin",
      ["dealer", "Dana Seller"],
      "customer",
      "customer",
    ]);
    await Promise.all([admin, dealer, customer, stranger].map((user) => call("GET", "/tune-files", user)));
    await app.ctx.db
      .insert(dealerProfiles)
      .values({ userUid: dealer.uid, businessName: "Pay Tuning", status: "approved" });
    await storeFirmware(admin, demo);
    const tune = await upload("/tune-files", dealer, demo.tune.image, { title: "Stage 1" });
    tuneId = tune.json().id;
    await readyPayouts(app, dealer.uid);
    expect(
      (await call("PUT", `/tune-files/${tuneId}/publish`, dealer, { priceCents: 24900, currency: "EUR" })).statusCode,
    ).toBe(200);
  });
  afterAll(async () => test?.close());

  it("pays in the sandbox: one open order per car, the licence made by the signed event, the ledger and both parties told", async () => {
    const vehicleId = await car();
    const first = await order(vehicleId);
    expect(first.statusCode, first.body).toBe(201);
    const checkout = first.json();
    expect(checkout).toMatchObject({
      provider: "sandbox",
      checkoutPath: `/checkout/${checkout.order.id}`,
      clientSecret: null,
      order: { status: "created", amountCents: 24900, currency: "EUR", feeCents: 2490, title: "Stage 1" },
    });
    // A second click answers the same open order.
    const again = await order(vehicleId);
    expect(again.statusCode).toBe(200);
    expect(again.json().order.id).toBe(checkout.order.id);

    const paid = await pay(checkout.order.id);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: "succeeded", order: { status: "paid" } });
    const licences = (await call("GET", `/user-vehicles/${vehicleId}/tune-files/purchases`, customer)).json().data;
    expect(licences).toEqual([
      expect.objectContaining({ tuneFileId: tuneId, orderId: checkout.order.id, consumedAt: null, title: "Stage 1" }),
    ]);
    expect((await order(vehicleId)).statusCode).toBe(409);

    const mine = (
      await call("GET", `/users/${customer.uid}/transaction?orderId[eq]=${checkout.order.id}`, customer)
    ).json();
    expect(mine.data.map((e: { kind: string; amountCents: number }) => [e.kind, e.amountCents])).toEqual([
      ["payment", -24900],
    ]);
    const sales = (
      await call("GET", `/users/${dealer.uid}/transaction?orderId[eq]=${checkout.order.id}&sort=createdAt`, dealer)
    ).json();
    expect(sales.data.map((e: { kind: string; amountCents: number }) => [e.kind, e.amountCents]).sort()).toEqual([
      ["fee", -2490],
      ["sale", 24900],
    ]);
    expect((await call("GET", `/users/${dealer.uid}/transaction`, customer)).statusCode).toBe(403);
    const told = await app.ctx.db.select().from(notifications).where(eq(notifications.kind, "order.paid"));
    expect(told.map((n) => n.recipientUid).sort()).toEqual([customer.uid, dealer.uid].sort());

    const csv = await call("GET", `/users/${customer.uid}/transaction.csv`, customer);
    expect((await call("GET", `/users/${customer.uid}/transaction.csv`, stranger)).statusCode).toBe(403);
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.body.split("\r\n")[0]).toBe("date,kind,description,amount,currency,order,event");
    expect(csv.body).toContain(",payment,Paid for Stage 1,-249.00,EUR,");
  });

  it("streams the car's licences to the app waiting after checkout: the paid licence arrives without asking", async () => {
    await app.listen({ host: "127.0.0.1", port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    const vehicleId = await car();
    const stream = await listen(
      port,
      `/api/v1/user-vehicles/${vehicleId}/tune-files/purchases/listen`,
      bearer(customer.token),
    );
    expect(stream.status).toBe(200);
    expect((await stream.next("licences")).data).toEqual({ data: [] });
    const { order: created } = (await order(vehicleId)).json();
    await pay(created.id);
    expect((await stream.next("licences")).data).toEqual({
      data: [expect.objectContaining({ tuneFileId: tuneId, orderId: created.id })],
    });
    stream.close();
    const strangers = await listen(
      port,
      `/api/v1/user-vehicles/${vehicleId}/tune-files/purchases/listen`,
      bearer(stranger.token),
    );
    expect(strangers.status).toBe(404);
    strangers.close();
  });

  it("refuses an order naming what is wrong", async () => {
    const vehicleId = await car();
    const other = await car(stranger);
    // Another owner's car is answered like an unknown one.
    const foreign = await order(other);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().data).toEqual([expect.objectContaining({ path: "vehicleId" })]);
    const missing = await call("POST", "/payments/tune-file-order", customer, {
      tuneFileId: "00000000-0000-4000-8000-000000000000",
      vehicleId,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().data).toEqual([expect.objectContaining({ path: "tuneFileId" })]);
    const draft = await upload("/tune-files", dealer, demo.tune.image, { title: "Draft" });
    const unpublished = await call("POST", "/payments/tune-file-order", customer, {
      tuneFileId: draft.json().id,
      vehicleId,
    });
    expect(unpublished.statusCode).toBe(409);
    expect(unpublished.json().description).toBe("Draft is not for sale to you");
    expect((await call("POST", "/payments/tune-file-order", customer, { tuneFileId: tuneId })).statusCode).toBe(400);
  });

  it("declines a decline card and refuses a number the sandbox does not know, then pays with a good one", async () => {
    const vehicleId = await car();
    const { order: created } = (await order(vehicleId)).json();
    const declined = await pay(created.id, "4000 0000 0000 0002");
    expect(declined.json()).toMatchObject({
      status: "declined",
      message: "The card was declined: card_declined",
      order: { status: "failed" },
    });
    const unknown = await pay(created.id, "1234 5678 9012 3456");
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().data).toEqual([expect.objectContaining({ path: "cardNumber" })]);
    expect((await pay(created.id, "abc")).statusCode).toBe(400);
    expect(
      await app.ctx.db.select().from(tuneFilePurchases).where(eq(tuneFilePurchases.vehicleId, vehicleId)),
    ).toHaveLength(0);
    // A failed payment may be tried again, as on Stripe: the same order is paid.
    const paid = await pay(created.id);
    expect(paid.json()).toMatchObject({ status: "succeeded", order: { status: "paid" } });
  });

  it("cancels an unpaid checkout", async () => {
    const vehicleId = await car();
    const { order: created } = (await order(vehicleId)).json();
    expect((await call("POST", "/payments/expire-session", stranger, { orderId: created.id })).statusCode).toBe(404);
    const expired = await call("POST", "/payments/expire-session", customer, { orderId: created.id });
    expect(expired.json()).toMatchObject({ status: "expired" });
    expect((await call("POST", "/payments/expire-session", customer, { orderId: created.id })).statusCode).toBe(409);
    expect((await pay(created.id)).statusCode).toBe(409);
    // The car can be checked out again.
    expect((await order(vehicleId)).statusCode).toBe(201);
  });

  it("refuses forged, stale, altered, mismatched and unknown events with 400, storing nothing, and applies a redelivery once", async () => {
    const vehicleId = await car();
    const { order: created } = (await order(vehicleId)).json();
    const [row] = await app.ctx.db.select().from(orders).where(eq(orders.id, created.id));
    const good = succeeded(created.id, row.paymentId as string, 24900);
    const before = await eventsStored();
    const refusals = [
      await app.inject({
        method: "POST",
        url: "/api/v1/stripe/on-event",
        headers: { "content-type": "application/json" },
        payload: JSON.stringify(good),
      }),
      await deliver(good, { secret: "whsec_someone_else" }),
      await deliver(good, { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
      await deliver(good, {
        body: JSON.stringify({ ...good, data: { object: { ...good.data.object, amount_received: 1 } } }),
      }),
      await deliver(succeeded(created.id, row.paymentId as string, 100)),
      await deliver(succeeded(created.id, row.paymentId as string, 24900, "usd")),
      await deliver(succeeded("00000000-0000-4000-8000-000000000000", "pi_unknown", 24900)),
      await deliver({ ...good, id: "evt_other_type", type: "customer.created" }),
    ];
    expect(refusals.map((r) => r.statusCode)).toEqual([400, 400, 400, 400, 400, 400, 400, 400]);
    expect(refusals[1].json().message).toBe("Invalid signature");
    expect(await eventsStored()).toBe(before);
    expect((await app.ctx.db.select().from(orders).where(eq(orders.id, created.id)))[0].status).toBe("created");

    expect((await deliver(good)).json()).toEqual({ received: true, outcome: "applied" });
    expect((await deliver(good)).json()).toEqual({ received: true, outcome: "duplicate" });
    expect(await app.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, created.id))).toHaveLength(3);
    // A decline arriving after the payment changes nothing.
    const late = { ...good, id: "evt_late_failure", type: "payment_intent.payment_failed" };
    expect((await deliver(late)).json()).toEqual({ received: true, outcome: "ignored" });
  });

  it("refunds a paid licence removed by an admin: the licence goes and the ledger is reversed exactly", async () => {
    const vehicleId = await car();
    const { order: created } = (await order(vehicleId)).json();
    await pay(created.id);
    const removal = { tuneFileId: tuneId, reason: "Bought for the wrong car" };
    expect((await call("POST", `/user-vehicles/${vehicleId}/tune-files/purchases`, customer, removal)).statusCode).toBe(
      403,
    );
    expect(
      (
        await call("POST", `/user-vehicles/${vehicleId}/tune-files/purchases`, admin, {
          tuneFileId: tuneId,
          reason: "",
        })
      ).statusCode,
    ).toBe(400);
    const removed = await call("POST", `/user-vehicles/${vehicleId}/tune-files/purchases`, admin, removal);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data).toEqual([]);
    const [refunded] = await app.ctx.db.select().from(orders).where(eq(orders.id, created.id));
    expect(refunded).toMatchObject({ status: "refunded", refundReason: "Bought for the wrong car" });
    const entries = await app.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, created.id));
    expect(entries.map((e) => e.kind).sort()).toEqual([
      "fee",
      "fee-reversal",
      "payment",
      "refund",
      "sale",
      "sale-reversal",
    ]);
    for (const uid of [customer.uid, dealer.uid])
      expect(entries.filter((e) => e.userUid === uid).reduce((sum, e) => sum + e.amountCents, 0)).toBe(0);
    const [told] = await app.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, customer.uid), eq(notifications.kind, "order.refunded")));
    expect(told.body).toContain("Bought for the wrong car");
    // A second removal finds nothing to remove.
    expect((await call("POST", `/user-vehicles/${vehicleId}/tune-files/purchases`, admin, removal)).statusCode).toBe(
      404,
    );
  });

  it("consumes a licence with the first verified flash only", async () => {
    const vehicleId = await car();
    const { order: created } = (await order(vehicleId)).json();
    await pay(created.id);
    const [purchase] = await app.ctx.db
      .select()
      .from(tuneFilePurchases)
      .where(eq(tuneFilePurchases.vehicleId, vehicleId));
    expect(purchase.consumedAt).toBeNull();
    const { consumeLicence } = await import("../../server/services/payments/licences");
    await consumeLicence(app.ctx.db, { vehicleId, tuneFileId: tuneId });
    const [used] = await app.ctx.db.select().from(tuneFilePurchases).where(eq(tuneFilePurchases.vehicleId, vehicleId));
    expect(used.consumedAt).not.toBeNull();
    await consumeLicence(app.ctx.db, { vehicleId, tuneFileId: tuneId });
    expect(
      (await app.ctx.db.select().from(tuneFilePurchases).where(eq(tuneFilePurchases.vehicleId, vehicleId)))[0]
        .consumedAt,
    ).toEqual(used.consumedAt);
  });

  it("onboards a dealer's payout account through the provider's signed event, and sells only with one that takes charges", async () => {
    const newcomer = await createUser(test, "dealer", "Nina Newcomer");
    await call("GET", "/tune-files", newcomer);
    await app.ctx.db
      .insert(dealerProfiles)
      .values({ userUid: newcomer.uid, businessName: "Newcomer Tuning", status: "approved" });
    expect((await call("GET", `/users/${newcomer.uid}/connected-account`, newcomer)).json()).toEqual({ account: null });
    expect((await call("GET", `/users/${newcomer.uid}/connected-account`, customer)).statusCode).toBe(403);
    const tune = (await upload("/tune-files", newcomer, demo.tune.image, { title: "Newcomer Stage 1" })).json();
    expect(
      (await call("PUT", `/tune-files/${tune.id}/publish`, newcomer, { priceCents: 9900, currency: "EUR" })).statusCode,
    ).toBe(409);
    // A free tune needs no payout account.
    expect(
      (await call("PUT", `/tune-files/${tune.id}/publish`, newcomer, { priceCents: 0, currency: "EUR" })).statusCode,
    ).toBe(200);

    expect((await call("POST", `/users/${newcomer.uid}/connected-account`, customer)).statusCode).toBe(403);
    expect((await call("POST", `/users/${newcomer.uid}/connected-account`, dealer)).statusCode).toBe(403);
    const started = await call("POST", `/users/${newcomer.uid}/connected-account`, newcomer);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({
      onboardingUrl: "/payouts/onboarding",
      account: { provider: "sandbox", ready: false, chargesEnabled: false },
    });
    // Starting again keeps the same account.
    expect((await call("POST", `/users/${newcomer.uid}/connected-account`, newcomer)).json().account.accountId).toBe(
      started.json().account.accountId,
    );
    const done = await call("POST", "/payments/sandbox/onboard", newcomer);
    expect(done.json()).toMatchObject({
      account: { ready: true, chargesEnabled: true, payoutsEnabled: true, requirementsDue: [] },
    });
    expect(
      (await call("PUT", `/tune-files/${tune.id}/publish`, newcomer, { priceCents: 9900, currency: "EUR" })).statusCode,
    ).toBe(200);

    // An account we did not make is refused, nothing stored.
    const before = await eventsStored();
    const stray = await deliver({
      id: "evt_stray_account",
      object: "event",
      type: "account.updated",
      data: { object: { id: "acct_nobody", object: "account", charges_enabled: true } },
    });
    expect(stray.statusCode).toBe(400);
    expect(await eventsStored()).toBe(before);

    // A dealer whose account stops taking charges sells nothing until it does again.
    await app.ctx.db
      .update(connectedAccounts)
      .set({ chargesEnabled: false })
      .where(eq(connectedAccounts.userUid, newcomer.uid));
    const vehicleId = await car();
    const refused = await call("POST", "/payments/tune-file-order", customer, { tuneFileId: tune.id, vehicleId });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().description).toBe("the dealer selling Newcomer Stage 1 cannot take payments now");
  });

  it("opens one order for two checkouts of the same tune for the same car at once", async () => {
    const vehicleId = await car();
    const answers = await Promise.all(Array.from({ length: 20 }, () => order(vehicleId)));
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 201 || a.statusCode === 503)).toBe(true);
    expect(new Set(answers.filter((a) => a.statusCode < 300).map((a) => a.json().order.id)).size).toBe(1);
    expect(await app.ctx.db.select().from(orders).where(eq(orders.vehicleId, vehicleId))).toHaveLength(1);
  });

  it("tells exactly one of 20 concurrent sandbox payers of one order that it succeeded, the others it is paid already", async () => {
    const vehicleId = await car();
    const { order: created } = (await order(vehicleId)).json();
    const answers = await Promise.all(Array.from({ length: 20 }, () => pay(created.id)));
    const codes = answers.map((a) => a.statusCode);
    expect(
      codes.filter((c) => c === 200),
      `answers: ${codes.join(",")}`,
    ).toHaveLength(1);
    expect(codes.filter((c) => c !== 200).every((c) => c === 409)).toBe(true);
    const refused = answers.find((a) => a.statusCode === 409)?.json();
    expect(refused.data).toEqual([{ path: "orderId", message: expect.stringMatching(/^the order is paid/) }]);
    const entries = await app.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.orderId, created.id));
    expect(entries.filter((e) => e.kind === "payment").map((e) => e.amountCents)).toEqual([-24900]);
  });

  it("survives a webhook storm: 1,500 deliveries for 50 orders, shuffled, 20 at a time, each order paid once", async () => {
    const made: Array<{ id: string; paymentId: string }> = [];
    for (let i = 0; i < 50; i++) {
      const vehicleId = await car();
      const { order: created } = (await order(vehicleId)).json();
      const [row] = await app.ctx.db.select().from(orders).where(eq(orders.id, created.id));
      made.push({ id: created.id, paymentId: row.paymentId as string });
    }
    // Per order: the payment and nine declines of earlier attempts, each delivered three times.
    const distinct = made.flatMap((o) => [
      succeeded(o.id, o.paymentId, 24900, "eur", `evt_storm_ok_${o.id}`),
      ...Array.from({ length: 9 }, (_, i) => ({
        ...succeeded(o.id, o.paymentId, 24900, "eur", `evt_storm_fail_${i}_${o.id}`),
        type: "payment_intent.payment_failed",
      })),
    ]);
    const deliveries = [...distinct, ...distinct, ...distinct];
    for (let i = deliveries.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [deliveries[i], deliveries[j]] = [deliveries[j], deliveries[i]];
    }
    const statuses: number[] = [];
    for (let i = 0; i < deliveries.length; i += 20)
      statuses.push(
        ...(await Promise.all(deliveries.slice(i, i + 20).map((event) => deliver(event)))).map((a) => a.statusCode),
      );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const ids = made.map((o) => o.id);
    const rows = await app.ctx.db.select().from(orders);
    expect(rows.filter((r) => ids.includes(r.id)).every((r) => r.status === "paid")).toBe(true);
    const licences = (await app.ctx.db.select().from(tuneFilePurchases)).filter(
      (p) => p.orderId && ids.includes(p.orderId),
    );
    expect(licences).toHaveLength(50);
    const entries = (await app.ctx.db.select().from(ledgerEntries)).filter((e) => e.orderId && ids.includes(e.orderId));
    expect(entries).toHaveLength(150);
    expect(entries.filter((e) => e.userUid === customer.uid).reduce((sum, e) => sum + e.amountCents, 0)).toBe(
      -24900 * 50,
    );
    expect(entries.filter((e) => e.userUid === dealer.uid).reduce((sum, e) => sum + e.amountCents, 0)).toBe(
      (24900 - 2490) * 50,
    );
    const stored = (await app.ctx.db.select().from(paymentEvents)).filter((e) => e.id.startsWith("evt_storm_"));
    expect(stored).toHaveLength(500);
  });

  it("lists orders to their parties: the customer's purchases, the dealer's sales, every order for admins, none for strangers", async () => {
    const bought = (await order(await car())).json().order.id as string;
    expect((await pay(bought)).statusCode).toBe(200);
    const mine = await call("GET", "/payments/orders?status[eq]=paid&pageSize=5", customer);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().total).toBeGreaterThan(0);
    expect(
      (mine.json().data as { customerUid: string; dealerName: string; status: string }[]).every(
        (o) => o.customerUid === customer.uid && o.dealerName === "Pay Tuning" && o.status === "paid",
      ),
    ).toBe(true);
    const sales = await call("GET", "/payments/orders?pageSize=100", dealer);
    expect((sales.json().data as { dealerUid: string }[]).every((o) => o.dealerUid === dealer.uid)).toBe(true);
    expect(sales.json().total).toBe(
      (await app.ctx.db.select({ n: count() }).from(orders).where(eq(orders.dealerUid, dealer.uid)))[0].n,
    );
    expect((await call("GET", "/payments/orders", stranger)).json()).toMatchObject({ total: 0, data: [] });
    const forSupport = await call("GET", `/payments/orders?customerUid[eq]=${customer.uid}&pageSize=1`, admin);
    expect(forSupport.json().total).toBe(
      (await app.ctx.db.select({ n: count() }).from(orders).where(eq(orders.customerUid, customer.uid)))[0].n,
    );
    expect(forSupport.json().data[0].customerName).not.toBeNull();
    // A filter the list does not declare is refused by name.
    const undeclared = await call("GET", "/payments/orders?title[eq]=x", admin);
    expect(undeclared.statusCode).toBe(400);
  });

  it("lets an admin adjust a user's balance with the reason the user reads, kept with who made it", async () => {
    const before =
      (await call("GET", `/users/${customer.uid}/transaction`, customer))
        .json()
        .balances.find((b: { currency: string }) => b.currency === "GBP")?.amountCents ?? 0;
    const made = await call("POST", `/users/${customer.uid}/transaction`, admin, {
      amountCents: 1500,
      currency: "GBP",
      reason: "Goodwill for a slow revision",
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({
      kind: "adjustment",
      amountCents: 1500,
      currency: "GBP",
      description: "Adjustment: Goodwill for a slow revision",
      createdBy: admin.uid,
      orderId: null,
    });
    const after = (await call("GET", `/users/${customer.uid}/transaction?kind[eq]=adjustment`, customer)).json();
    expect(after.balances.find((b: { currency: string }) => b.currency === "GBP").amountCents).toBe(before + 1500);
    expect(after.data[0]).toMatchObject({ kind: "adjustment", createdBy: admin.uid });
    const told = await app.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, customer.uid), eq(notifications.kind, "ledger.adjusted")));
    expect(told.map((n) => n.body)).toContain("Goodwill for a slow revision");
    expect(
      (
        await call("POST", `/users/${customer.uid}/transaction`, dealer, {
          amountCents: 1500,
          currency: "GBP",
          reason: "mine",
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await call("POST", `/users/${customer.uid}/transaction`, admin, {
          amountCents: 0,
          currency: "GBP",
          reason: "nothing",
        })
      ).json().data[0].path,
    ).toBe("amountCents");
    expect(
      (
        await call("POST", `/users/${customer.uid}/transaction`, admin, {
          amountCents: 100,
          currency: "GBP",
          reason: "",
        })
      ).json().data[0].path,
    ).toBe("reason");
    expect(
      (
        await call("POST", "/users/no-such-user/transaction", admin, {
          amountCents: 100,
          currency: "GBP",
          reason: "credit",
        })
      ).statusCode,
    ).toBe(404);
  });

  it("names on the checkout the car its licence binds to, the selling dealer and, once paid, the payment reference", async () => {
    const vehicleId = await car();
    // The catalogue record is made here, so the car and the words expected are this test's own.
    await app.ctx.db.insert(supportedVehicles).values({
      make: "Pay Motors",
      model: "Estate",
      engine: "1.6 diesel",
      yearFrom: 2015,
      ecu: "PAY-ECU",
      firmwareIds: ["PAYMENTS64K"],
    });
    const [row] = await app.ctx.db.select().from(userVehicles).where(eq(userVehicles.id, vehicleId));
    const opened = (await order(vehicleId)).json();
    expect(opened).toMatchObject({
      vehicle: {
        id: vehicleId,
        name: row.name,
        vin: row.vin,
        catalogue: { make: "Pay Motors", model: "Estate", engine: "1.6 diesel" },
      },
      dealer: { uid: dealer.uid, businessName: "Pay Tuning" },
    });
    expect((await pay(opened.order.id)).json().status).toBe("succeeded");
    const [stored] = await app.ctx.db.select().from(orders).where(eq(orders.id, opened.order.id));
    expect(stored.paymentId).toMatch(/^pi_sandbox_/);
    // The receipt reopened later, by the buyer and by the dealer, names the same parties and the provider's payment.
    for (const reader of [customer, dealer]) {
      const receipt = await call("GET", `/payments/orders/${opened.order.id}`, reader);
      expect(receipt.statusCode, receipt.body).toBe(200);
      expect(receipt.json()).toMatchObject({
        order: { status: "paid", paidAt: expect.any(String) },
        vehicle: { id: vehicleId, vin: row.vin },
        dealer: { businessName: "Pay Tuning" },
        paymentReference: stored.paymentId,
      });
    }
    expect((await call("GET", `/payments/orders/${opened.order.id}`, stranger)).statusCode).toBe(404);
  });

  it("suspends instead of removing a dealer with orders in flight, so their customers keep their recourse", async () => {
    const [profile] = await app.ctx.db.select().from(dealerProfiles).where(eq(dealerProfiles.userUid, dealer.uid));
    const answer = await call("DELETE", `/dealers/${profile.id}/admin`, admin);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ removed: false, dealer: { id: profile.id, status: "suspended" } });
    expect(answer.json().reason).toMatch(/^removal requested with \d+ order\(s\) in flight/);
    const [kept] = await app.ctx.db.select().from(dealerProfiles).where(eq(dealerProfiles.id, profile.id));
    expect(kept.status).toBe("suspended");
  });
});
