/**
 * Payments on PostgreSQL, through the real server (buildApp, app.inject, every hook and schema)
 * with the Stripe provider pointed at a local stub of the payment-intent endpoint:
 *
 * - `POST /payments/tune-file-order`: p50/p95/p99 of 500 orders, each for another car, one at a
 *   time (the order row, the provider call through the Stripe SDK, the payment id stored).
 *   Target: p99 ≤ 50 ms. The stub's own share is printed beside it.
 * - `POST /stripe/on-event`: 1,500 signed deliveries (the payment of each of those 500 orders,
 *   each delivered three times, shuffled) sent 20 at a time: events per second, with every
 *   order paid exactly once. Target: ≥ 500 events/s.
 *
 * Only token verification is a fixed caller (bench/lib/fixed-identity.ts).
 *
 *   npx tsx bench/payments.ts
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { sql } from "drizzle-orm";
import Stripe from "stripe";
import { buildApp } from "../server/app";
import { loadConfig } from "../server/config";
import { fixedIdentity } from "./lib/fixed-identity";
import { openScratchDatabase } from "./lib/scratch-database";

const ORDERS = 500;
const DELIVERIES_PER_EVENT = 3;
const CONCURRENCY = 20;
const ORDER_P99_TARGET_MS = 50;
const EVENTS_PER_SECOND_TARGET = 500;
const WEBHOOK_SECRET = "whsec_bench";

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const fmt = (ms: number) => `${ms.toFixed(1).padStart(6)} ms`;

// The stub: answers a payment intent at once, and counts the time it spends.
let stubMs = 0;
let stubCalls = 0;
const stub = createServer((request, response) => {
  const start = performance.now();
  let raw = "";
  request.on("data", (chunk) => (raw += chunk));
  request.on("end", () => {
    const body = new URLSearchParams(raw);
    stubCalls += 1;
    const id = `pi_bench_${stubCalls}`;
    response.setHeader("content-type", "application/json");
    response.end(
      JSON.stringify({
        id,
        object: "payment_intent",
        client_secret: `${id}_secret`,
        amount: Number(body.get("amount")),
        currency: body.get("currency"),
        status: "requires_payment_method",
        metadata: { orderId: body.get("metadata[orderId]") },
      }),
    );
    stubMs += performance.now() - start;
  });
});
await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));

console.log(
  `load average at start: ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")}`,
);
const { database, drop } = await openScratchDatabase("postgres", "bench_payments");
try {
  await database.migrate();
  const { db } = database;
  await db.execute(
    sql`INSERT INTO users (uid, email, role) VALUES ('bench-admin', 'bench@example.test', 'admin'), ('bench-dealer', 'dealer@example.test', 'dealer')`,
  );
  await db.execute(
    sql`INSERT INTO dealer_profiles (user_uid, business_name, status) VALUES ('bench-dealer', 'Bench Tuning', 'approved')`,
  );
  // A priced tune is sold only by a dealer whose payout account takes charges.
  await db.execute(
    sql`INSERT INTO connected_accounts (user_uid, provider, account_id, charges_enabled, payouts_enabled) VALUES ('bench-dealer', 'stripe', 'acct_bench_dealer', true, true)`,
  );
  await db.execute(sql`INSERT INTO tune_files (id, dealer_uid, firmware_id, title, description, current_version, published, price_cents, currency)
    VALUES ('00000000-0000-4000-8000-00000000bee0', 'bench-dealer', 'BENCHFW', 'Stage 1', '', 1, true, 24900, 'EUR')`);
  await db.execute(sql`INSERT INTO user_vehicles (id, owner_uid, name, firmware_id)
    SELECT ('00000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, 'bench-admin', 'Car ' || i, 'BENCHFW' FROM generate_series(1, ${ORDERS + 50}) AS i`);

  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: `.test-data/bench-${randomBytes(4).toString("hex")}`,
    DIST_DIR: ".test-data/no-dist",
    LOG_LEVEL: "warn",
    STRIPE_SECRET_KEY: "sk_test_bench",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
  });
  const app = await buildApp(config, { database, identity: fixedIdentity(), logger: false });
  const carId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
  const orderFor = (i: number) =>
    app.inject({
      method: "POST",
      url: "/api/v1/payments/tune-file-order",
      headers: { authorization: "Bearer bench" },
      payload: { tuneFileId: "00000000-0000-4000-8000-00000000bee0", vehicleId: carId(i) },
    });

  // Warm-up on cars the measurement does not use.
  for (let i = ORDERS + 1; i <= ORDERS + 50; i++) await orderFor(i);
  stubMs = 0;
  const callsBefore = stubCalls;
  const latencies: number[] = [];
  const orders: Array<{ id: string; paymentId: string }> = [];
  for (let i = 1; i <= ORDERS; i++) {
    const start = performance.now();
    const response = await orderFor(i);
    latencies.push(performance.now() - start);
    if (response.statusCode !== 201) throw new Error(`order ${i} answered ${response.statusCode}: ${response.body}`);
    orders.push({ id: response.json().order.id, paymentId: `pi_bench_${stubCalls}` });
  }
  latencies.sort((a, b) => a - b);
  const p99 = percentile(latencies, 99);
  console.log(
    `POST /payments/tune-file-order, ${ORDERS} orders one at a time (target p99 ≤ ${ORDER_P99_TARGET_MS} ms):`,
  );
  console.log(
    `  p50 ${fmt(percentile(latencies, 50))}  p95 ${fmt(percentile(latencies, 95))}  p99 ${fmt(p99)}  max ${fmt(latencies[latencies.length - 1])}  p99/target ${(p99 / ORDER_P99_TARGET_MS).toFixed(2)}  ${p99 <= ORDER_P99_TARGET_MS ? "ok" : "OVER TARGET"}`,
  );
  console.log(
    `  of which the stub answering: ${(stubMs / (stubCalls - callsBefore)).toFixed(2)} ms per call on average`,
  );

  // The webhook: each order's payment, delivered three times, shuffled.
  const webhooks = new Stripe("sk_test_bench").webhooks;
  const events = orders.map((order, i) =>
    JSON.stringify({
      id: `evt_bench_${i}`,
      object: "event",
      type: "payment_intent.succeeded",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: order.paymentId,
          object: "payment_intent",
          amount: 24900,
          amount_received: 24900,
          currency: "eur",
          metadata: { orderId: order.id },
        },
      },
    }),
  );
  const deliveries = Array.from({ length: DELIVERIES_PER_EVENT }, () => events).flat();
  for (let i = deliveries.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [deliveries[i], deliveries[j]] = [deliveries[j], deliveries[i]];
  }
  const signed = deliveries.map((payload) => ({
    payload,
    signature: webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
  }));
  const outcomes = new Map<string, number>();
  const start = performance.now();
  for (let i = 0; i < signed.length; i += CONCURRENCY) {
    const answers = await Promise.all(
      signed.slice(i, i + CONCURRENCY).map(({ payload, signature }) =>
        app.inject({
          method: "POST",
          url: "/api/v1/stripe/on-event",
          headers: { "content-type": "application/json", "stripe-signature": signature },
          payload,
        }),
      ),
    );
    for (const answer of answers) {
      if (answer.statusCode !== 200) throw new Error(`the webhook answered ${answer.statusCode}: ${answer.body}`);
      const outcome = answer.json().outcome as string;
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
  }
  const seconds = (performance.now() - start) / 1000;
  const rate = signed.length / seconds;
  const paid = Number(
    (
      (await db.execute(
        sql`SELECT count(*)::int AS n FROM orders WHERE status = 'paid' AND payment_id LIKE 'pi_bench_%'`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows[0].n,
  );
  const licences = Number(
    (
      (await db.execute(
        sql`SELECT count(*)::int AS n FROM tune_file_purchases WHERE order_id IS NOT NULL`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows[0].n,
  );
  console.log(
    `POST /stripe/on-event, ${signed.length} deliveries (${ORDERS} events × ${DELIVERIES_PER_EVENT}), ${CONCURRENCY} at a time (target ≥ ${EVENTS_PER_SECOND_TARGET}/s):`,
  );
  console.log(
    `  ${rate.toFixed(0)} events/s in ${seconds.toFixed(2)} s  rate/target ${(rate / EVENTS_PER_SECOND_TARGET).toFixed(2)}  ${rate >= EVENTS_PER_SECOND_TARGET ? "ok" : "UNDER TARGET"}`,
  );
  console.log(
    `  outcomes: ${[...outcomes].map(([k, v]) => `${k} ${v}`).join(", ")}; orders paid ${paid} of ${ORDERS}; licences ${licences}`,
  );
  await app.close();
} finally {
  await database.close();
  await drop();
  stub.close();
}
