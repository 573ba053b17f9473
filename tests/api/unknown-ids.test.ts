/**
 * Every record the app opens by an id in its address answers 404 in the error shape for an id
 * that names nothing (the app turns that into its 404 "Page Not Found"), and a malformed id is a
 * 4xx, never a 500.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResource, apiPaths, apiRoutes } from "../../contracts/api-paths";
import { apiDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const UNKNOWN = "0b7e2f4c-1d3a-4e5b-9c6d-7e8f9a0b1c2d";

/** The records the app's `:id` pages and drawers load, by who opens them. */
const recordPaths: Array<{ name: string; as: "admin" | "customer" | "dealer"; path: (id: string) => string }> = [
  {
    name: "a vehicle (my vehicles, managed vehicles, user vehicles)",
    as: "customer",
    path: (id) => `${apiPaths["user-vehicles"].record}/${id}`,
  },
  { name: "a user", as: "admin", path: (id) => apiRoutes.users.record(id) },
  { name: "a data log", as: "customer", path: (id) => `${apiPaths["data-logs"].record}/${id}` },
  { name: "a tuning request", as: "dealer", path: (id) => apiRoutes.tuningRequests.record(id) },
  { name: "an order (checkout)", as: "customer", path: (id) => apiRoutes.payments.order(id) },
  { name: "a tune file", as: "dealer", path: (id) => `${apiPaths["tune-files"].record}/${id}` },
  { name: "an own support request", as: "customer", path: (id) => apiRoutes.supportRequests.mineRecord(id) },
  ...(
    [
      "support-requests",
      "firmware-support",
      "tune-file-patches",
      "supported-vehicles",
      "password-storage",
      "obd-functions",
      "pid-templates",
      "pid-descriptors",
      "computed-descriptors",
    ] as ApiResource[]
  ).map((resource) => ({
    name: `a record of ${resource}`,
    as: "admin" as const,
    path: (id: string) => `${apiPaths[resource].record}/${id}`,
  })),
];

describe.each(apiDatabases)("an id that names nothing on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call } = requestsTo(() => app);
  const users = {} as Record<"admin" | "customer" | "dealer", TestUser>;

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [users.admin, users.customer, users.dealer] = await createUsers(test, ["admin", "customer", "dealer"]);
    for (const user of Object.values(users)) await call("GET", "/auth/account", user);
  });
  afterAll(async () => test?.close());

  it.each(recordPaths)("$name: 404 for an unknown id, 4xx for a malformed one", async ({ as, path }) => {
    const unknown = await call("GET", `/${path(UNKNOWN)}`, users[as]);
    expect(unknown.statusCode, `${path(UNKNOWN)}: ${unknown.body}`).toBe(404);
    expect(unknown.json()).toMatchObject({ statusCode: 404, message: expect.any(String) });
    const malformed = await call("GET", `/${path("not-an-id")}`, users[as]);
    expect([400, 404], `${path("not-an-id")}: ${malformed.body}`).toContain(malformed.statusCode);
  });
});
