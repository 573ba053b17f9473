/**
 * Text PostgreSQL's jsonb refuses (a lone UTF-16 surrogate) in the three bodies that reached it,
 * then every route the server declares with a JSON body (read back with declaredBodies, so a new
 * route is covered the day it is added), sent bodies of lone surrogates and wrong types: the
 * server must answer 4xx, never 5xx. On PostgreSQL, whose jsonb is what refuses.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { supportRequests, userVehicles } from "../../server/db/schema";
import { declaredBodies } from "../../server/http/zod";
import { apiDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const LONE_HIGH = "a\ud800b";
const LONE_LOW = "\udc00";

const connectBody = (adapter: { kind: string; firmware: string }) => ({
  vin: "WVWZZZAUZKW000077",
  ecu: {
    softwareId: "VEH64K",
    hardwareNumber: "8V0907115",
    ecuSerial: "SER-0077",
    bootloaderVersion: "BL-3.1",
    calibrationId: "CAL-77",
  },
  adapter,
  appVersion: "2.4.0",
  batteryVolts: 12.6,
  faultCodes: [],
});

/** Hostile bodies: lone surrogates as values and keys, at the top and nested, and wrong types. */
const HOSTILE: unknown[] = [
  LONE_HIGH,
  { [LONE_LOW]: 1 },
  { name: LONE_HIGH, title: LONE_LOW, note: LONE_HIGH, email: LONE_LOW },
  { data: { nested: [LONE_HIGH] } },
  [LONE_LOW],
  42,
  true,
  null,
  { name: Number.MAX_VALUE, title: [], note: {}, id: false },
];

/** A path's parameters filled in: ids that exist nowhere. */
const fill = (url: string) => url.replace(/:[A-Za-z]+/g, "00000000-0000-4000-8000-000000000000");

describe.each(apiDatabases)("JSON bodies of text no column stores, on %s", (kind) => {
  let test: TestApp;
  const { call } = requestsTo(() => test.app);
  let admin: TestUser;
  let customer: TestUser;
  let vehicleId: string;
  let requestId: string;

  beforeAll(async () => {
    test = await startTestApp(kind);
    [admin, customer] = await createUsers(test, ["admin", "customer"]);
    const connected = await call(
      "POST",
      "/user-vehicles/connect",
      customer,
      connectBody({ kind: "OBDLink", firmware: "5.6" }),
    );
    expect(connected.statusCode, connected.body).toBe(201);
    vehicleId = connected.json().vehicle.id;
    const support = await call("POST", "/user-vehicles/support-request", customer, {
      vin: "WVWZZZAUZKW000078",
      make: "Volkswagen",
      model: "Golf",
      year: 2019,
      ecuIds: ["8V0907115"],
    });
    expect(support.statusCode, support.body).toBeLessThan(300);
    requestId = support.json().id;
  });
  afterAll(async () => test?.close());

  const expectRefused = (answer: { statusCode: number; body: string; json(): { data?: unknown[] } }, field: string) => {
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().data?.[0], answer.body).toEqual({ path: field, message: expect.stringMatching(/surrogate/) });
  };

  it("refuses a lone surrogate in an app setting with 400 naming it, the car unchanged", async () => {
    const [before] = await test.app.ctx.db.select().from(userVehicles).where(eq(userVehicles.id, vehicleId));
    const url = `/users/${customer.uid}/vehicles/${vehicleId}/device-attributes`;
    expectRefused(await call("PATCH", url, customer, { appSettings: { units: LONE_HIGH } }), "appSettings.units");
    expectRefused(await call("PATCH", url, customer, { appSettings: { [LONE_LOW]: 1 } }), `appSettings.${LONE_LOW}`);
    const [after] = await test.app.ctx.db.select().from(userVehicles).where(eq(userVehicles.id, vehicleId));
    expect(after).toEqual(before);
  });

  it("refuses a lone surrogate in a support request's note with 400 naming it, the request unchanged", async () => {
    const [before] = await test.app.ctx.db.select().from(supportRequests).where(eq(supportRequests.id, requestId));
    expectRefused(
      await call("PATCH", `/user-vehicles/support-request/${requestId}`, admin, { note: LONE_HIGH }),
      "note",
    );
    const [after] = await test.app.ctx.db.select().from(supportRequests).where(eq(supportRequests.id, requestId));
    expect(after).toEqual(before);
  });

  it("refuses a lone surrogate in the adapter a car connects with, naming the field", async () => {
    const connect = (adapter: { kind: string; firmware: string }) =>
      call("POST", "/user-vehicles/connect", customer, connectBody(adapter));
    expectRefused(await connect({ kind: LONE_HIGH, firmware: "5.6" }), "adapter.kind");
    expectRefused(await connect({ kind: "OBDLink", firmware: LONE_LOW }), "adapter.firmware");
  });

  it("answers 4xx, never 5xx, to hostile bodies on every route with a JSON body", async () => {
    const routes = declaredBodies(test.app);
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const route of routes)
      for (const body of HOSTILE) {
        const answer = await test.app.inject({
          method: route.method as "POST",
          url: fill(route.url),
          headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json" },
          payload: JSON.stringify(body),
        });
        if (answer.statusCode < 400 || answer.statusCode >= 500)
          failures.push(`${route.method} ${route.url} ${JSON.stringify(body)}: ${answer.statusCode} ${answer.body}`);
      }
    expect(failures).toEqual([]);
  });
});
