import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userVehicles } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { apiDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 8, patchEntries: 8, firmwareId: "FLASH64K" });
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe.each(apiDatabases)("flash logs API on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call, upload, storeFirmware } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  let otherDealer: TestUser;
  let customer: TestUser;
  let stranger: TestUser;
  let vehicleId: string;
  let tuneId: string;
  let bake: { id: string; sha256: string };

  const flashes = async (user: TestUser, query = "") => {
    const response = await call("GET", `/user-vehicles/${vehicleId}/flash-logs${query}`, user);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer, otherDealer, customer, stranger] = await createUsers(test, [
      "admin",
      "dealer",
      "dealer",
      "customer",
      "customer",
    ]);
    await storeFirmware(admin, demo);
    await Promise.all([customer, stranger].map((user) => call("GET", "/tune-files", user)));
    [{ id: vehicleId }] = await app.ctx.db
      .insert(userVehicles)
      .values({ ownerUid: customer.uid, name: "Flash hatch", vin: "WFLASH00000000001" })
      .returning();
    const tune = await upload("/tune-files", dealer, demo.tune.image, { title: "Stage 1" });
    expect(tune.statusCode, tune.body).toBe(201);
    tuneId = tune.json().id;
    // The customer buys it (an admin's grant stands in for a purchase): the dealer then manages the car.
    expect((await call("POST", `/tune-files/${tuneId}/grant`, admin, { vehicleId })).statusCode).toBe(201);
    expect((await upload(`/user-vehicles/${vehicleId}/upload-tune-dump/0`, customer, demo.stock)).statusCode).toBe(200);
    const baked = await call("POST", `/user-vehicles/${vehicleId}/temp-bake/0`, customer, { tuneFileId: tuneId });
    expect(baked.statusCode, baked.body).toBe(201);
    bake = baked.json();
  });
  afterAll(async () => test?.close());

  it("records the owner's successful flash of a bake with the tune it came from", async () => {
    const response = await call("POST", `/user-vehicles/${vehicleId}/flash-logs`, customer, {
      bakedTuneFileId: bake.id,
      sha256: bake.sha256.toUpperCase(),
      result: "success",
      durationMs: 93_000,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      vehicleId,
      bakedTuneFileId: bake.id,
      tuneFileId: tuneId,
      tuneTitle: "Stage 1",
      tuneVersion: 1,
      kind: "tune",
      sha256: bake.sha256,
      result: "success",
      durationMs: 93_000,
      reportedBy: customer.uid,
    });
  });

  it("records a failed flash with the app's message, and a stock restore checked against the stock read", async () => {
    const failed = await call("POST", `/user-vehicles/${vehicleId}/flash-logs`, customer, {
      bakedTuneFileId: bake.id,
      result: "failed",
      message: "NRC 0x72 general programming failure",
      flashedAt: "2026-11-20T10:00:00Z",
    });
    expect(failed.statusCode, failed.body).toBe(201);
    expect(failed.json()).toMatchObject({
      result: "failed",
      message: "NRC 0x72 general programming failure",
      flashedAt: "2026-11-20T10:00:00.000Z",
    });
    const stock = await call("POST", `/user-vehicles/${vehicleId}/flash-logs`, customer, {
      sha256: sha256(demo.stock),
      result: "success",
    });
    expect(stock.statusCode, stock.body).toBe(201);
    expect(stock.json()).toMatchObject({
      kind: "stock",
      bakedTuneFileId: null,
      tuneFileId: null,
      sha256: sha256(demo.stock),
    });
  });

  it("refuses a flash that does not match what it names, storing nothing", async () => {
    const before = (await flashes(customer)).total;
    const wrongBytes = await call("POST", `/user-vehicles/${vehicleId}/flash-logs`, customer, {
      bakedTuneFileId: bake.id,
      sha256: "ab".repeat(32),
      result: "success",
    });
    expect(wrongBytes.statusCode).toBe(422);
    expect(wrongBytes.json().data[0]).toMatchObject({ path: "sha256" });
    const unknownImage = await call("POST", `/user-vehicles/${vehicleId}/flash-logs`, customer, {
      sha256: "cd".repeat(32),
      result: "success",
    });
    expect(unknownImage.statusCode).toBe(422);
    expect(unknownImage.json().description).toContain("neither a baked file nor");
    const otherBake = await call("POST", `/user-vehicles/${vehicleId}/flash-logs`, customer, {
      bakedTuneFileId: "00000000-0000-4000-8000-000000000000",
      result: "success",
    });
    expect(otherBake.statusCode).toBe(422);
    const invalid = await call("POST", `/user-vehicles/${vehicleId}/flash-logs`, customer, {
      result: "done",
      extra: 1,
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().data.map((issue: { path: string }) => issue.path)).toEqual(
      expect.arrayContaining(["result"]),
    );
    const nothingNamed = await call("POST", `/user-vehicles/${vehicleId}/flash-logs`, customer, { result: "success" });
    expect(nothingNamed.statusCode).toBe(400);
    expect(nothingNamed.json().data[0]).toMatchObject({ path: "bakedTuneFileId" });
    expect((await flashes(customer)).total).toBe(before);
  });

  it("lists the vehicle's flashes newest first, filtered by result, to its owner, its dealer and admins only", async () => {
    const list = await flashes(customer);
    expect(list.total).toBe(3);
    const times = list.data.map((f: { flashedAt: string }) => f.flashedAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(list.data.at(-1).result).toBe("failed");
    expect((await flashes(customer, "?result[eq]=failed")).data.map((f: { result: string }) => f.result)).toEqual([
      "failed",
    ]);
    expect((await call("GET", `/user-vehicles/${vehicleId}/flash-logs?sha256[eq]=x`, customer)).statusCode).toBe(400);
    expect((await flashes(dealer)).total).toBe(3);
    expect((await flashes(admin)).total).toBe(3);
    expect((await call("GET", `/user-vehicles/${vehicleId}/flash-logs`, stranger)).statusCode).toBe(404);
    expect((await call("GET", `/user-vehicles/${vehicleId}/flash-logs`, otherDealer)).statusCode).toBe(404);
    expect(
      (
        await call("POST", `/user-vehicles/${vehicleId}/flash-logs`, stranger, {
          bakedTuneFileId: bake.id,
          result: "success",
        })
      ).statusCode,
    ).toBe(404);
  });

  it("keeps the history when the bake is deleted", async () => {
    expect((await call("DELETE", `/baked-tune-files/${bake.id}`, customer)).statusCode).toBe(204);
    const list = await flashes(customer, "?kind[eq]=tune");
    expect(list.total).toBe(2);
    expect(
      list.data.every(
        (f: { bakedTuneFileId: string | null; tuneTitle: string }) =>
          f.bakedTuneFileId === null && f.tuneTitle === "Stage 1",
      ),
    ).toBe(true);
    const [vehicle] = await app.ctx.db.select().from(userVehicles).where(eq(userVehicles.id, vehicleId));
    expect(vehicle).toBeDefined();
  });
});
