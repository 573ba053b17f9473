/**
 * Live events across instances: two API instances on one PostgreSQL database, as production runs
 * several behind a proxy. What happens on one reaches the event streams open on the other, in the
 * order it happened, and a listening connection that drops loses nothing meanwhile.
 */
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LISTENER_APPLICATION_NAME, type PostgresBus } from "../../server/services/live-events";
import type { VehicleEvent } from "../../server/services/vehicle-events";
import { listen } from "./support/event-stream-client";
import { bearer, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const order = (n: number): VehicleEvent => ({
  type: "order",
  order: { id: `order-${n}`, status: "paid", tuneFileId: null },
});

/** The events `vehicleId` receives on `on` (`received`), until `count` have come (`all`) or `ms` passed. */
function collect(on: TestApp, vehicleId: string, count: number, ms = 10_000) {
  const received: VehicleEvent[] = [];
  const all = new Promise<VehicleEvent[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`${received.length} of ${count} events came: ${JSON.stringify(received.slice(-3))}`));
    }, ms);
    const stop = on.app.ctx.vehicleEvents.subscribe(vehicleId, (event) => {
      received.push(event);
      if (received.length === count) {
        clearTimeout(timer);
        stop();
        resolve(received);
      }
    });
  });
  return { received, all };
}

describe("live events across two instances on PostgreSQL", () => {
  let a: TestApp;
  let b: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  let portA: number;
  const onB = requestsTo(() => b.app);

  beforeAll(async () => {
    a = await startTestApp("postgres");
    b = await startTestApp("postgres", {}, { sharing: a });
    // Listening starts when an app is ready (the first request, or listen).
    await b.app.ready();
    [admin, customer] = await createUsers(a, ["admin", "customer"]);
    await a.app.listen({ host: "127.0.0.1", port: 0 });
    portA = (a.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("an admin's change on one instance reaches the account stream open on the other", async () => {
    const stream = await listen(portA, `/api/v1/users/${customer.uid}/listen`, bearer(customer.token));
    try {
      expect(stream.status).toBe(200);
      const disabled = await onB.call("PATCH", `/users/${customer.uid}`, admin, {
        disabled: true,
        reason: "checking the other instance",
      });
      expect(disabled.statusCode, disabled.body).toBe(200);
      expect((await stream.next("account")).data).toEqual({
        reason: "disabled",
        message: "Your account was disabled: checking the other instance",
      });
    } finally {
      stream.close();
    }
  });

  it("delivers one instance's events to the other in the order they were published, each once", async () => {
    const vehicleId = crypto.randomUUID();
    const onA = collect(a, vehicleId, 50).all;
    const alsoOnB = collect(b, vehicleId, 50).all;
    for (let n = 0; n < 50; n++) b.app.ctx.vehicleEvents.publish(vehicleId, order(n));
    const expected = Array.from({ length: 50 }, (_, n) => order(n));
    expect(await onA).toEqual(expected);
    expect(await alsoOnB, "the publishing instance's own streams hear them too").toEqual(expected);
  });

  it("carries an event larger than a notification's payload limit", async () => {
    const vehicleId = crypto.randomUUID();
    const received = collect(a, vehicleId, 1).all;
    const large: VehicleEvent = {
      type: "order",
      order: { id: "x".repeat(20_000), status: "paid", tuneFileId: null },
    };
    b.app.ctx.vehicleEvents.publish(vehicleId, large);
    expect(await received).toEqual([large]);
  });

  it("an instance whose listening connection is killed reconnects and delivers what was published meanwhile, in order", async () => {
    const vehicleId = crypto.randomUUID();
    const events = collect(a, vehicleId, 20);
    for (let n = 0; n < 5; n++) b.app.ctx.vehicleEvents.publish(vehicleId, order(n));
    await expect.poll(() => events.received.length).toBe(5);
    // Every listening session of the database is ended, as a PostgreSQL restart or failover would.
    const killed = (await b.app.ctx.db.execute(
      sql`select pg_terminate_backend(pid) as ended from pg_stat_activity
          where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
    )) as unknown as { rows: { ended: boolean }[] };
    expect(killed.rows, "both instances' listening sessions ended").toEqual([{ ended: true }, { ended: true }]);
    for (let n = 5; n < 20; n++) b.app.ctx.vehicleEvents.publish(vehicleId, order(n));
    expect(await events.all).toEqual(Array.from({ length: 20 }, (_, n) => order(n)));
  });

  it("prunes the events older than the catch-up window and keeps the newer", async () => {
    const vehicleId = crypto.randomUUID();
    const received = collect(a, vehicleId, 2).all;
    b.app.ctx.vehicleEvents.publish(vehicleId, order(1));
    b.app.ctx.vehicleEvents.publish(vehicleId, order(2));
    await received;
    await b.app.ctx.db.execute(
      sql`update live_events set created_at = now() - interval '16 minutes' where key = ${vehicleId} and payload->'order'->>'id' = 'order-1'`,
    );
    await (b.app.ctx.liveEvents as PostgresBus).prune();
    const left = (await b.app.ctx.db.execute(
      sql`select payload->'order'->>'id' as id from live_events where key = ${vehicleId}`,
    )) as unknown as { rows: { id: string }[] };
    expect(left.rows).toEqual([{ id: "order-2" }]);
  });
});
