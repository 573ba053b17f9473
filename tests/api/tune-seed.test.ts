import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bakedTuneFiles, firmwareSupport, tuneFilePatches, tuneFilePurchases, tuneFiles, userVehicles } from "../../server/db/schema";
import { DEMO_PASSWORD, seedDemo } from "../../server/seed";
import { DEMO_ECU_SERIAL } from "../../server/seed/flashing";
import { DEMO_VIN } from "../../server/seed/tunes";

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
    // Vehicles: the demo customer's car and the twelve cars of the analytics fleet.
    expect(first.slice(1)).toEqual([4, 1, 13, 1]);
    expect(await test.app.ctx.db.select().from(firmwareSupport).where(eq(firmwareSupport.firmwareId, "DEMO-ECU-0001"))).toHaveLength(1);
    await seedDemo(test.app.ctx);
    expect(await counts()).toEqual(first);

    const token = await signIn(test.emulatorHost, "customer@example.com", DEMO_PASSWORD);
    const [vehicle] = await test.app.ctx.db.select().from(userVehicles).where(eq(userVehicles.vin, DEMO_VIN));
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

  it("lets the demo customer's car pass the pre-flight with a bake of the demo tune, and shows its recovered flash", async () => {
    const token = await signIn(test.emulatorHost, "customer@example.com", DEMO_PASSWORD);
    const call = (method: "GET" | "POST", url: string, payload?: object) => test.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload && { payload }) });
    const [vehicle] = await test.app.ctx.db.select().from(userVehicles).where(eq(userVehicles.vin, DEMO_VIN));
    const [tune] = await test.app.ctx.db.select().from(tuneFiles);
    const baked = (await call("POST", `/user-vehicles/${vehicle.id}/temp-bake/0`, { tuneFileId: tune.id })).json();
    const granted = await call("POST", `/user-vehicles/${vehicle.id}/flash-authentication`, {
      kind: "tune",
      bakedTuneFileId: baked.id,
      vin: DEMO_VIN,
      ecu: { softwareId: vehicle.firmwareId, ecuSerial: DEMO_ECU_SERIAL },
      batteryVolts: 12.7,
      sha256: baked.sha256,
      seed: "01020304",
    });
    expect(granted.statusCode, granted.body).toBe(201);
    expect(granted.json().key).toMatch(/^[0-9A-F]{8}$/);
    const history = (await call("GET", `/user-vehicles/${vehicle.id}/flash-logs`)).json().data as Array<{ result: string; kind: string; recoveredById: string | null }>;
    expect(history.map((log) => log.result)).toEqual(["success", "success", "recovered", "success"]);
    expect(history[2].recoveredById).toBe((history[1] as unknown as { id: string }).id);
    const seen = (await call("GET", `/user-vehicles/${vehicle.id}`)).json();
    expect(seen).toMatchObject({ support: { state: "supported", flashing: true }, currentTune: { kind: "tune" }, lastFlash: { result: "success" } });

  });
});
