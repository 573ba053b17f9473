import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bakedTuneFiles, firmwareSupport, tuneFileVersions, userVehicles } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { collectBlobs } from "../../server/services/blob-collector";
import { bothDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 8, patchEntries: 8, firmwareId: "GC64K" });

describe.each(bothDatabases)("blob collection on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call, upload, storeFirmware } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  let customer: TestUser;
  let stockSha256: string;
  let recordId: string;

  const stored = async () => new Set((await app.ctx.blobs.list()).map((blob) => blob.sha256));

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer, customer] = await createUsers(test, ["admin", "dealer", "customer"]);
    recordId = await storeFirmware(admin, demo);
    [{ stockSha256 }] = (await app.ctx.db
      .select({ stockSha256: firmwareSupport.stockSha256 })
      .from(firmwareSupport)
      .where(eq(firmwareSupport.id, recordId))) as [{ stockSha256: string }];
    await call("GET", "/tune-files", customer);
  });
  afterAll(async () => test?.close());

  it("removes the files of a deleted tune's versions and keeps every file a record still holds", async () => {
    const created = await upload("/tune-files", dealer, demo.tune.image, { title: "Doomed" });
    expect(created.statusCode, created.body).toBe(201);
    const [{ sha256: v1 }] = await app.ctx.db
      .select({ sha256: tuneFileVersions.sha256 })
      .from(tuneFileVersions)
      .where(eq(tuneFileVersions.tuneFileId, created.json().id));
    const v2image = Uint8Array.from(demo.tune.image);
    v2image[demo.firmware.definition.items[0].z.address] ^= 1;
    const v2 = await upload(`/tune-files/${created.json().id}/blob`, dealer, v2image, {
      version: "2",
      fixChecksums: "true",
    });
    expect(v2.statusCode, v2.body).toBeLessThan(300);
    const before = await stored();
    expect(before.has(v1)).toBe(true);
    expect((await call("DELETE", `/tune-files/${created.json().id}`, dealer)).statusCode).toBe(204);

    const result = await collectBlobs(app.ctx, { graceMs: 0 });
    const after = await stored();
    expect(result.removed).toBe(before.size - after.size);
    expect(result.removed).toBeGreaterThanOrEqual(2);
    expect(after.has(v1)).toBe(false);
    expect(after.has(stockSha256)).toBe(true);
    // What is left is readable: the firmware's stock file still downloads.
    expect((await call("GET", `/firmware-support/stock-file/${recordId}`, admin)).statusCode).toBe(200);
  });

  it("keeps an unreferenced file within the grace period, and one stored again while it collects", async () => {
    const fresh = await app.ctx.blobs.put(randomBytes(256));
    await collectBlobs(app.ctx);
    expect((await stored()).has(fresh)).toBe(true);
    const restored = await app.ctx.blobs.put(randomBytes(256));
    expect(await app.ctx.blobs.remove(restored, Date.now() - 60_000)).toBe(false);
    expect((await stored()).has(restored)).toBe(true);
  });

  it("drops preview bakes an hour past their expiry with their files, keeping current ones", async () => {
    const [vehicle] = await app.ctx.db
      .insert(userVehicles)
      .values({ ownerUid: customer.uid, name: "GC car" })
      .returning();
    const tune = await upload("/tune-files", dealer, demo.tune.image, { title: "Kept" });
    expect(
      (await call("POST", `/tune-files/${tune.json().id}/grant`, admin, { vehicleId: vehicle.id })).statusCode,
    ).toBe(201);
    expect((await upload(`/user-vehicles/${vehicle.id}/upload-tune-dump/0`, customer, demo.stock)).statusCode).toBe(
      200,
    );
    const bakes = [];
    for (let i = 0; i < 2; i++) {
      const bake = await call("POST", `/user-vehicles/${vehicle.id}/temp-bake/0`, customer, {
        tuneFileId: tune.json().id,
      });
      expect(bake.statusCode, bake.body).toBe(201);
      bakes.push(bake.json());
    }
    await app.ctx.db
      .update(bakedTuneFiles)
      .set({ expiresAt: new Date(Date.now() - 2 * 3600_000) })
      .where(eq(bakedTuneFiles.id, bakes[0].id));
    await collectBlobs(app.ctx, { graceMs: 3600_000 });
    const left = await app.ctx.db
      .select({ id: bakedTuneFiles.id })
      .from(bakedTuneFiles)
      .where(eq(bakedTuneFiles.vehicleId, vehicle.id));
    expect(left.map((row) => row.id)).toEqual([bakes[1].id]);
  });

  it("runs as an admin's background job and reports what it removed", async () => {
    expect((await call("POST", "/status/background/collect-blobs", dealer)).statusCode).toBe(403);
    const started = await call("POST", "/status/background/collect-blobs", admin);
    expect(started.statusCode).toBe(202);
    let job: any;
    for (let i = 0; i < 200; i++) {
      job = (await call("GET", "/status/background", admin))
        .json()
        .jobs.find((j: { id: string }) => j.id === started.json().id);
      if (job.state === "succeeded" || job.state === "failed") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(job).toMatchObject({
      kind: "collect-blobs",
      state: "succeeded",
      result: { kept: expect.any(Number), removed: expect.any(Number), removedBytes: expect.any(Number) },
    });
  });
});
