import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bakedTuneFiles, firmwareSupport, tuneFilePatches, tuneFilePurchases, tuneFiles, userVehicles } from "../../server/db/schema";
import { DEMO_PASSWORD, seedDemo } from "../../server/seed";
import { type TestApp, bearer, databaseKinds, signIn, startTestApp } from "./harness";

describe.each(databaseKinds)("tune demo seed on %s", (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(async () => test?.close());

  const counts = async () => {
    const { db } = test.app.ctx;
    const n = async (table: typeof tuneFiles | typeof tuneFilePatches | typeof tuneFilePurchases | typeof userVehicles | typeof firmwareSupport) =>
      (await db.select({ n: count() }).from(table))[0].n;
    return [await n(firmwareSupport), await n(tuneFilePatches), await n(tuneFiles), await n(userVehicles), await n(tuneFilePurchases)];
  };

  it("is idempotent and lets the demo customer bake the bought tune for their car", async () => {
    await seedDemo(test.app.ctx);
    const first = await counts();
    // Firmware records also come from the catalogue's seed; the demo firmware is one of them.
    expect(first.slice(1)).toEqual([4, 1, 1, 1]);
    expect(await test.app.ctx.db.select().from(firmwareSupport).where(eq(firmwareSupport.firmwareId, "DEMO-ECU-0001"))).toHaveLength(1);
    await seedDemo(test.app.ctx);
    expect(await counts()).toEqual(first);

    const token = await signIn(test.emulatorHost, "customer@example.com", DEMO_PASSWORD);
    const [vehicle] = await test.app.ctx.db.select().from(userVehicles);
    const [tune] = await test.app.ctx.db.select().from(tuneFiles);
    const [patch] = await test.app.ctx.db.select().from(tuneFilePatches);
    const baked = await test.app.inject({
      method: "POST",
      url: `/api/v1/user-vehicles/${vehicle.id}/temp-bake/0`,
      headers: bearer(token),
      payload: { tuneFileId: tune.id, patchIds: [patch.id] },
    });
    expect(baked.statusCode, baked.body).toBe(201);
    expect((await test.app.ctx.db.select().from(bakedTuneFiles).where(eq(bakedTuneFiles.vehicleId, vehicle.id))).length).toBe(1);
  });
});
