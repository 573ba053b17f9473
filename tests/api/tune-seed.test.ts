import { randomBytes } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FlashLog } from "../../contracts/flash-logs";
import { isLate, type TuningRequestSummary } from "../../contracts/tuning-requests";
import {
  bakedTuneFiles,
  dealerProfiles,
  firmwareSupport,
  flashGrants,
  tuneFilePatches,
  tuneFilePurchases,
  tuneFiles,
  tuningRequests,
  userVehicles,
} from "../../server/db/schema";
import { DEMO_PASSWORD, ensureIdentityUser, seedDemo } from "../../server/seed";
import { DEMO_ECU_SERIAL } from "../../server/seed/flashing";
import { DEMO_VIN } from "../../server/seed/tunes";

import { bearer, bothDatabases, signIn, startTestApp, type TestApp } from "./support/harness";

const DAY = 86_400_000;

describe.each(bothDatabases)("tune demo seed on %s", (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(async () => test?.close());

  const counts = async () => {
    const { db } = test.app.ctx;
    const n = async (
      table:
        | typeof tuneFiles
        | typeof tuneFilePatches
        | typeof tuneFilePurchases
        | typeof userVehicles
        | typeof firmwareSupport,
    ) => (await db.select({ n: count() }).from(table))[0].n;
    return [
      await n(firmwareSupport),
      await n(tuneFilePatches),
      await n(tuneFiles),
      await n(userVehicles),
      await n(tuneFilePurchases),
    ];
  };

  it("is idempotent and lets the demo customer bake the bought tune for their car", async () => {
    await seedDemo(test.app);
    const first = await counts();
    // Firmware records also come from the catalogue's seed; the demo firmware is one of them.
    // Vehicles: the demo customer's car and the twelve cars of the analytics fleet.
    expect(first.slice(1)).toEqual([4, 1, 13, 1]);
    expect(
      await test.app.ctx.db.select().from(firmwareSupport).where(eq(firmwareSupport.firmwareId, "DEMO-ECU-0001")),
    ).toHaveLength(1);
    await seedDemo(test.app);
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
    expect(
      await test.app.ctx.db.select().from(bakedTuneFiles).where(eq(bakedTuneFiles.id, baked.json().id)),
    ).toHaveLength(1);
  });

  it("gives the demo dealer a late ticket: paid five days ago for four days' work, in progress, and only once", async () => {
    const token = await signIn(test.emulatorHost, "dealer@example.com", DEMO_PASSWORD);
    const late = async () => {
      const query = `state[in]=paid,in-progress&dueAt[lt]=${new Date().toISOString()}`;
      const listed = await test.app.inject({
        method: "GET",
        url: `/api/v1/tuning-requests?${query}`,
        headers: bearer(token),
      });
      expect(listed.statusCode, listed.body).toBe(200);
      return listed.json().data as TuningRequestSummary[];
    };
    const [ticket] = await late();
    expect(ticket).toMatchObject({ state: "in-progress", assignee: "Sam (calibration)", quote: { expectedDays: 4 } });
    expect(isLate(ticket, new Date())).toBe(true);
    expect(Date.now() - Date.parse(ticket.dueAt!)).toBeGreaterThan(DAY - 60_000);
    await seedDemo(test.app);
    expect(await late()).toHaveLength(1);
    expect((await test.app.ctx.db.select({ n: count() }).from(tuningRequests))[0].n).toBe(1);
  });

  it("gives the demo dealer an about text that a visitor reads on their page", async () => {
    const [dealer] = await test.app.ctx.db
      .select({ id: dealerProfiles.id })
      .from(dealerProfiles)
      .where(eq(dealerProfiles.businessName, "Demo Performance Ltd"));
    const page = await test.app.inject({ method: "GET", url: `/api/v1/dealers/${dealer.id}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().about).toMatch(/^Family-run tuning workshop in Coventry/);
  });

  it("lets the demo customer's car pass the pre-flight with a bake of the demo tune, and shows its recovered flash", async () => {
    const token = await signIn(test.emulatorHost, "customer@example.com", DEMO_PASSWORD);
    const call = (method: "GET" | "POST", url: string, payload?: object) =>
      test.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload && { payload }) });
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
    const history = (await call("GET", `/user-vehicles/${vehicle.id}/flash-logs`)).json().data as Array<{
      result: string;
      kind: string;
      recoveredById: string | null;
    }>;
    expect(history.map((log) => log.result)).toEqual(["success", "success", "recovered", "success"]);
    expect(history[2].recoveredById).toBe((history[1] as unknown as { id: string }).id);
    const seen = (await call("GET", `/user-vehicles/${vehicle.id}`)).json();
    expect(seen).toMatchObject({
      support: { state: "supported", flashing: true },
      currentTune: { kind: "tune" },
      lastFlash: { result: "success" },
    });
  });

  it("gives the demo customer a data log of the demo car: a pull of rpm, boost target and boost, filed under the car", async () => {
    const token = await signIn(test.emulatorHost, "customer@example.com", DEMO_PASSWORD);
    const [vehicle] = await test.app.ctx.db.select().from(userVehicles).where(eq(userVehicles.vin, DEMO_VIN));
    const listed = await test.app.inject({ method: "GET", url: "/api/v1/data-logs", headers: bearer(token) });
    expect(listed.statusCode, listed.body).toBe(200);
    const logs = listed.json().data as Array<{
      id: string;
      title: string;
      vehicleId: string | null;
      rowCount: number;
      channelCount: number;
    }>;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      title: "3rd gear pull after the tune",
      vehicleId: vehicle.id,
      rowCount: 201,
      channelCount: 3,
    });
    const detail = await test.app.inject({
      method: "GET",
      url: `/api/v1/data-logs/${logs[0].id}`,
      headers: bearer(token),
    });
    const names = (detail.json().channels as Array<{ name: string }>).map((channel) => channel.name);
    expect(names).toEqual(expect.arrayContaining(["Engine speed", "Boost target", "Boost"]));
  });

  it("made the demo car's history by flashing the virtual car through the API, dated over the past weeks", async () => {
    const token = await signIn(test.emulatorHost, "customer@example.com", DEMO_PASSWORD);
    const call = (url: string) => test.app.inject({ method: "GET", url: `/api/v1${url}`, headers: bearer(token) });
    const [vehicle] = await test.app.ctx.db.select().from(userVehicles).where(eq(userVehicles.vin, DEMO_VIN));
    const sessions = (await call(`/user-vehicles/${vehicle.id}/flash-logs?sort=flashedAt`)).json().data as FlashLog[];
    const seeded = sessions.filter((s) => Date.now() - Date.parse(s.flashedAt) > 8 * DAY);
    expect(seeded.map((s) => [s.kind, s.result])).toEqual([
      ["tune", "success"],
      ["tune", "recovered"],
      ["stock", "success"],
      ["tune", "success"],
    ]);
    expect(seeded.map((s) => Math.round((Date.now() - Date.parse(s.flashedAt)) / DAY))).toEqual([20, 10, 10, 9]);
    // The battery sagged under 12 V in block 1: the ECU answered 0x93 and stayed in its bootloader.
    expect(seeded[1]).toMatchObject({ failedStep: "block", failedBlock: 1, failedNrc: 0x93 });
    expect(seeded[2].recoversId).toBe(seeded[1].id);
    // A real link's throughput: 256 KiB at 8 KB/s is over half a minute, not the milliseconds the test took.
    for (const session of [seeded[0], seeded[2], seeded[3]]) expect(session.durationMs).toBeGreaterThan(30_000);
    const failed = (await call(`/user-vehicles/${vehicle.id}/flash-logs/${seeded[1].id}`)).json();
    const steps = failed.steps as Array<{ step: string; status: string; nrc: number | null; at: string }>;
    expect(steps.map((s) => s.step)).toEqual(
      expect.arrayContaining(["connecting", "security-access", "erasing", "block"]),
    );
    expect(steps.at(-1)).toMatchObject({ step: "block", status: "failed", nrc: 0x93 });
    expect(steps.every((s) => Math.round((Date.now() - Date.parse(s.at)) / DAY) === 10)).toBe(true);
    // What the portal stamped while answering (grants, snapshots, the last connect) was moved back with its episode.
    const snapshots = (await call(`/user-vehicles/${vehicle.id}/snapshots?pageSize=100`)).json().data as Array<{
      kind: string;
      recordedAt: string;
    }>;
    const seededSnapshots = snapshots.filter((s) => Date.now() - Date.parse(s.recordedAt) > 12 * 3_600_000);
    expect(seededSnapshots.filter((s) => s.kind === "before-flash")).toHaveLength(4);
    const grants = await test.app.ctx.db.select().from(flashGrants).where(eq(flashGrants.vehicleId, vehicle.id));
    const sessionGrants = grants.filter((g) => seeded.some((s) => s.grantId === g.id));
    expect(sessionGrants).toHaveLength(4);
    for (const grant of sessionGrants) expect(Date.now() - grant.createdAt.getTime()).toBeGreaterThan(8 * DAY);
    expect(Math.round((Date.now() - (vehicle.lastConnectedAt as Date).getTime()) / DAY)).toBe(1);
  });
});

describe("demo accounts seeded by two servers at once", () => {
  it("both servers end with the same identity account, the one made first", async () => {
    const apps = await Promise.all([startTestApp("pglite"), startTestApp("pglite")]);
    try {
      // An address nobody has yet, asked for by both at the same moment: both find none, one creation loses.
      const account = { email: `demo-race-${randomBytes(4).toString("hex")}@example.test`, displayName: "Demo race" };
      const [first, second] = await Promise.all(
        apps.map((app) => ensureIdentityUser(app.app.ctx.identity.auth, account)),
      );
      expect(second.uid).toBe(first.uid);
      expect(first.email).toBe(account.email);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });
});
