/**
 * Text PostgreSQL's jsonb refuses (a lone UTF-16 surrogate) in the three bodies that reached it,
 * then every operation of the served OpenAPI document (so a new route is covered the day it is
 * added), sent as an admin with parameters and bodies (JSON or multipart) that fast-check draws
 * from the document's schemas, mixed with lone surrogates and wrong types: the server must never
 * answer 5xx. On PostgreSQL, whose jsonb is what refuses.
 */
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { supportRequests, userVehicles } from "../../server/db/schema";
import { apiDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import {
  type GeneratedRequest,
  LONE_HIGH,
  LONE_LOW,
  type OpenApiDocument,
  operationsOf,
  requestsFor,
} from "./support/openapi-requests";
import { requestsTo } from "./support/requests";

const RUNS_PER_OPERATION = 4;

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

  it("answers every operation of the served document without a 5xx, whatever its parameters and body", async () => {
    const served = await test.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    const operations = operationsOf(served.json() as OpenApiDocument);
    // Fewer would mean the document was not read: the API has a few hundred operations.
    expect(operations.length).toBeGreaterThan(150);
    const failures: string[] = [];
    for (const { path, method, operation } of operations) {
      // A few requests per operation keeps the walk short; a failure prints its seed and smallest request.
      const run = fc.asyncProperty(requestsFor(path, method, operation), async (request) => {
        const answer = await test.app.inject({
          method: request.method as "POST",
          url: request.url,
          headers: { authorization: `Bearer ${admin.token}`, ...request.headers },
          ...(request.payload !== undefined && { payload: request.payload }),
        });
        if (answer.statusCode >= 500) throw new Error(`${answer.statusCode} ${answer.body.slice(0, 300)}`);
      });
      const result = await fc.check(run, { numRuns: RUNS_PER_OPERATION });
      if (result.failed)
        failures.push(
          `${method} ${path}: ${(result.counterexample?.[0] as GeneratedRequest | undefined)?.shown} → ${String(result.errorInstance)} (seed ${result.seed})`,
        );
    }
    expect(failures).toEqual([]);
  });
});
