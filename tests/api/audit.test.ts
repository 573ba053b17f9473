import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDemo } from "../../server/seed/generator";
import { apiDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 4, patchEntries: 1, firmwareId: "AUDIT64K" });

describe.each(apiDatabases)("the audit trail on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call, storeFirmware } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  const trail = async (query: string) => (await call("GET", `/audit-events?${query}`, admin)).json();

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer] = await createUsers(test, [["admin", "Audit Admin"], "dealer"]);
    await storeFirmware(admin, demo);
  });
  afterAll(async () => test?.close());

  it("writes one row per catalogue change, with who, what, before and after and the request id; a refused change writes none", async () => {
    const fn = {
      name: "Read VIN",
      category: "read-codes",
      request: "19 02 FF",
      expectedResponse: "59",
      safetyLevel: "none",
      firmwareIds: ["AUDIT64K"],
    };
    const created = await call("PUT", "/firmware-support/obd-function", admin, fn);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const refused = await call("PUT", "/firmware-support/obd-function", admin, {
      ...fn,
      id,
      firmwareIds: ["NOT-A-FIRMWARE"],
    });
    expect(refused.statusCode).toBe(400);
    expect(
      (await call("PUT", "/firmware-support/obd-function", admin, { ...fn, id, name: "Read the VIN" })).statusCode,
    ).toBe(200);
    expect((await call("DELETE", `/firmware-support/obd-function/${id}`, admin)).statusCode).toBe(204);

    const page = await trail(`targetId[eq]=${id}&sort=at`);
    expect(page.data.map((row: { action: string }) => row.action)).toEqual([
      "obd-function.created",
      "obd-function.updated",
      "obd-function.deleted",
    ]);
    const [made, renamed, removed] = page.data;
    expect(made).toMatchObject({
      actorUid: admin.uid,
      actorRole: "admin",
      targetType: "obd-function",
      before: null,
      after: { name: "Read VIN" },
    });
    expect(made.requestId).toEqual(expect.any(String));
    expect(renamed).toMatchObject({ before: { name: "Read VIN" }, after: { name: "Read the VIN" } });
    expect(removed).toMatchObject({ before: { name: "Read the VIN" }, after: null });
  });

  it("refuses to change or remove a row, whoever asks (the database itself)", async () => {
    const refused = { cause: { message: expect.stringMatching(/audit_events is append-only/) } };
    const before = (await trail("pageSize=100")).total;
    expect(before).toBeGreaterThan(0);
    await expect(app.ctx.db.execute(sql`update audit_events set action = 'forged'`)).rejects.toMatchObject(refused);
    await expect(app.ctx.db.execute(sql`delete from audit_events`)).rejects.toMatchObject(refused);
    await expect(app.ctx.db.execute(sql`truncate audit_events`)).rejects.toMatchObject(refused);
    const after = await trail("pageSize=100");
    expect(after.total).toBe(before);
    expect(after.data.some((row: { action: string }) => row.action === "forged")).toBe(false);
  });

  it("is read by admins only", async () => {
    expect((await call("GET", "/audit-events", dealer)).statusCode).toBe(403);
    expect((await call("GET", "/audit-events", null)).statusCode).toBe(401);
    expect((await call("GET", "/audit-events?actorUid[eq]=nobody", admin)).json()).toMatchObject({
      data: [],
      total: 0,
    });
  });
});
