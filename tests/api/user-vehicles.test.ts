/**
 * The vehicles API: connect (find or create, identify, snapshot), the lists with their query,
 * one car, the owner's fields, the app's device attributes, snapshots, the timeline and the
 * files attached to a car — for each role.
 */
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VehicleConnect } from "../../contracts/user-vehicles";
import { supportedVehicles, userVehicles, vehicleSnapshots } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { apiDatabases, createUser, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 6, patchEntries: 2, firmwareId: "VEH64K" });

const connectBody = (overrides: Partial<VehicleConnect> = {}): VehicleConnect => ({
  vin: "WVWZZZAUZKW000001",
  ecu: {
    softwareId: "VEH64K",
    hardwareNumber: "8V0907115",
    ecuSerial: "SER-0001",
    bootloaderVersion: "BL-3.1",
    calibrationId: "CAL-77",
  },
  adapter: { kind: "OBDLink MX+", firmware: "5.6.19" },
  appVersion: "2.4.0",
  batteryVolts: 12.6,
  faultCodes: ["P0299"],
  ...overrides,
});

describe.each(apiDatabases)("vehicles API on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call, upload, storeFirmware } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  let otherDealer: TestUser;
  let customer: TestUser;
  let stranger: TestUser;
  let vehicleId: string;

  const rowOf = async (id: string) => (await app.ctx.db.select().from(userVehicles).where(eq(userVehicles.id, id)))[0];

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer, otherDealer, customer, stranger] = await createUsers(test, [
      "admin",
      ["dealer", "Dealer Dan"],
      "dealer",
      ["customer", "Carla Customer"],
      "customer",
    ]);
    await storeFirmware(admin, demo);
    await Promise.all([customer, stranger, dealer, otherDealer].map((user) => call("GET", "/tune-files", user)));
  });
  afterAll(async () => test?.close());

  it("creates the caller's vehicle at the first connect, identifies its firmware and records a snapshot", async () => {
    const answer = await call("POST", "/user-vehicles/connect", customer, connectBody({ name: "Weekend GTI" }));
    expect(answer.statusCode, answer.body).toBe(201);
    const body = answer.json();
    expect(body.created).toBe(true);
    expect(body.vehicle).toMatchObject({
      ownerUid: customer.uid,
      name: "Weekend GTI",
      vin: "WVWZZZAUZKW000001",
      ecu: { softwareId: "VEH64K", ecuSerial: "SER-0001", hardwareNumber: "8V0907115", bootloaderVersion: "BL-3.1" },
      firmwareId: "VEH64K",
      support: { state: "supported", supportRequestId: null },
      lastBatteryVolts: 12.6,
      currentTune: null,
      lastFlash: null,
    });
    vehicleId = body.vehicle.id;
    const snapshots = await app.ctx.db.select().from(vehicleSnapshots).where(eq(vehicleSnapshots.vehicleId, vehicleId));
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]).toMatchObject({
      id: body.snapshotId,
      kind: "connect",
      softwareId: "VEH64K",
      calibrationId: "CAL-77",
      faultCodes: ["P0299"],
      batteryVolts: 12.6,
      appVersion: "2.4.0",
    });
    expect(snapshots[0].adapter).toEqual({ kind: "OBDLink MX+", firmware: "5.6.19" });
  });

  it("finds the same car at the next connect, keeps its nickname and refreshes what the app read", async () => {
    const answer = await call(
      "POST",
      "/user-vehicles/connect",
      customer,
      connectBody({ name: "Ignored", batteryVolts: 12.1, ecu: { ...connectBody().ecu, bootloaderVersion: "BL-3.2" } }),
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      created: false,
      vehicle: { id: vehicleId, name: "Weekend GTI", lastBatteryVolts: 12.1, ecu: { bootloaderVersion: "BL-3.2" } },
    });
    const rows = await app.ctx.db.select().from(userVehicles).where(eq(userVehicles.ownerUid, customer.uid));
    expect(rows).toHaveLength(1);
  });

  it("names a new car by the supported vehicle its firmware belongs to, and keeps the adapter and app it was met with", async () => {
    await app.ctx.db.insert(supportedVehicles).values({
      make: "Demo Motors",
      model: "Hatchback",
      engine: "2.0 turbo",
      yearFrom: 2018,
      ecu: "DEMO-ECU",
      firmwareIds: ["VEH64K"],
    });
    const owner = await createUser(test, "customer");
    const answer = await call(
      "POST",
      "/user-vehicles/connect",
      owner,
      connectBody({ vin: "WVWZZZAUZKW000077", ecu: { ...connectBody().ecu, ecuSerial: "SER-0077" } }),
    );
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().vehicle).toMatchObject({
      name: "Demo Motors Hatchback 2.0 turbo",
      catalogue: { make: "Demo Motors", model: "Hatchback", engine: "2.0 turbo" },
      deviceAttributes: { adapter: { kind: "OBDLink MX+", firmware: "5.6.19" }, appVersion: "2.4.0" },
    });
    // The next connect with another adapter and app: the settings show those.
    const again = await call(
      "POST",
      "/user-vehicles/connect",
      owner,
      connectBody({
        vin: "WVWZZZAUZKW000077",
        ecu: { ...connectBody().ecu, ecuSerial: "SER-0077" },
        adapter: { kind: "ENET", firmware: "2.0" },
        appVersion: "2.5.0",
      }),
    );
    expect(again.json().vehicle.deviceAttributes).toEqual({
      adapter: { kind: "ENET", firmware: "2.0" },
      appVersion: "2.5.0",
    });
  });

  it("gives twenty concurrent connects of one car one vehicle", async () => {
    const body = connectBody({ vin: "WVWZZZAUZKW000020", ecu: { ...connectBody().ecu, ecuSerial: "SER-RACE" } });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call("POST", "/user-vehicles/connect", stranger, body)),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(19);
    expect(new Set(answers.map((a) => a.json().vehicle.id)).size).toBe(1);
    const rows = await app.ctx.db.select().from(userVehicles).where(eq(userVehicles.ownerUid, stranger.uid));
    expect(rows).toHaveLength(1);
    const snapshots = await app.ctx.db
      .select()
      .from(vehicleSnapshots)
      .where(eq(vehicleSnapshots.vehicleId, rows[0].id));
    expect(snapshots).toHaveLength(20);
  });

  it("answers an unknown software id as unsupported, with the support request the owner already made", async () => {
    const vin = "WBA00000000000077";
    const asked = await call("POST", "/user-vehicles/support-request", customer, {
      vin,
      make: "BMW",
      model: "M2",
      year: 2019,
      ecuIds: ["UNKNOWN-SW-1"],
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const answer = await call(
      "POST",
      "/user-vehicles/connect",
      customer,
      connectBody({ vin, ecu: { softwareId: "UNKNOWN-SW-1", ecuSerial: "BMW-1" } }),
    );
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().vehicle).toMatchObject({
      firmwareId: null,
      support: { state: "unsupported", flashing: false, supportRequestId: asked.json().id },
    });
    expect(answer.json().vehicle.support.reason).toContain("UNKNOWN-SW-1");
  });

  it("refuses a bad connect naming the field, and stores nothing", async () => {
    const before = await app.ctx.db.select().from(userVehicles);
    for (const [body, field] of [
      [connectBody({ vin: "WVWZZZAUZKW00000I" }), "vin"],
      [connectBody({ batteryVolts: 99 }), "batteryVolts"],
      [{ ...connectBody(), ecu: { softwareId: "VEH64K" } }, "ecu.ecuSerial"],
      [connectBody({ faultCodes: ["boost low"] }), "faultCodes.0"],
      [{ ...connectBody(), owner: "someone" }, ""],
    ] as const) {
      const answer = await call("POST", "/user-vehicles/connect", customer, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      if (field) expect(answer.json().data.map((issue: { path: string }) => issue.path)).toContain(field);
    }
    expect(await app.ctx.db.select().from(userVehicles)).toEqual(before);
    expect((await call("POST", "/user-vehicles/connect", null, connectBody())).statusCode).toBe(401);
  });

  it("lets the owner change the owner's fields but not the identity, and nobody else", async () => {
    const patched = await call("PATCH", `/user-vehicles/${vehicleId}`, customer, {
      name: "Daily",
      modifications: ["Downpipe", "Intake"],
      notes: "Runs 98",
      fuel: "98",
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      name: "Daily",
      modifications: ["Downpipe", "Intake"],
      notes: "Runs 98",
      fuel: "98",
    });
    const before = await rowOf(vehicleId);
    for (const body of [{ vin: "WVWZZZAUZKW000009" }, { ecuSerial: "X" }, { fuel: "kerosene" }, { name: "" }]) {
      const refused = await call("PATCH", `/user-vehicles/${vehicleId}`, customer, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await rowOf(vehicleId)).toEqual(before);
    expect((await call("PATCH", `/user-vehicles/${vehicleId}`, stranger, { name: "Mine" })).statusCode).toBe(404);
    expect((await call("PATCH", `/user-vehicles/${vehicleId}`, dealer, { name: "Mine" })).statusCode).toBe(404);
    expect(
      (await call("PATCH", `/user-vehicles/${vehicleId}`, admin, { notes: "checked by support" })).statusCode,
    ).toBe(200);
    expect((await rowOf(vehicleId)).notes).toBe("checked by support");
  });

  it("shows a managing dealer the car without the owner's private fields, and lists it under managed", async () => {
    const tune = await upload("/tune-files", dealer, demo.tune.image, { title: "Stage 1" });
    expect(tune.statusCode, tune.body).toBe(201);
    expect((await call("POST", `/tune-files/${tune.json().id}/grant`, admin, { vehicleId })).statusCode).toBe(201);
    const seen = await call("GET", `/user-vehicles/${vehicleId}`, dealer);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()).toMatchObject({
      id: vehicleId,
      ownerUid: customer.uid,
      ownerEmail: null,
      modifications: null,
      notes: null,
      fuel: null,
      deviceAttributes: null,
    });
    expect((await call("PATCH", `/user-vehicles/${vehicleId}`, dealer, { name: "Mine" })).statusCode).toBe(403);
    const managed = await call("GET", "/user-vehicles/managed", dealer);
    expect(managed.statusCode, managed.body).toBe(200);
    expect(managed.json().data.map((v: { id: string }) => v.id)).toEqual([vehicleId]);
    expect((await call("GET", "/user-vehicles/managed", otherDealer)).json().data).toEqual([]);
    expect((await call("GET", `/user-vehicles/${vehicleId}`, otherDealer)).statusCode).toBe(404);
    expect((await call("GET", "/user-vehicles/managed", customer)).statusCode).toBe(403);
    expect((await call("GET", `/user-vehicles/${vehicleId}`, customer)).json().ownerEmail).toBe(customer.email);
  });

  it("lists the caller's own cars with search, filters, sorting and paging; an admin lists every car and finds one by owner", async () => {
    const own = await call("GET", "/user-vehicles?sort=name", customer);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().data.map((v: { name: string }) => v.name)).toEqual(["Car …000077", "Daily"]);
    expect(
      (await call("GET", "/user-vehicles?q=000001", customer)).json().data.map((v: { id: string }) => v.id),
    ).toEqual([vehicleId]);
    expect((await call("GET", "/user-vehicles?q=dail", customer)).json().data.map((v: { id: string }) => v.id)).toEqual(
      [vehicleId],
    );
    expect((await call("GET", "/user-vehicles?firmwareId[eq]=VEH64K", customer)).json().total).toBe(1);
    const paged = await call("GET", "/user-vehicles?pageSize=1&sort=-name", customer);
    expect(paged.json()).toMatchObject({ total: 2 });
    expect(paged.json().data.map((v: { name: string }) => v.name)).toEqual(["Daily"]);
    expect((await call("GET", "/user-vehicles?sort=notes", customer)).statusCode).toBe(400);
    expect(
      (await call("GET", "/user-vehicles", stranger))
        .json()
        .data.every((v: { ownerUid: string }) => v.ownerUid === stranger.uid),
    ).toBe(true);
    const all = await call("GET", "/user-vehicles?pageSize=200", admin);
    expect(all.json().total).toBeGreaterThanOrEqual(3);
    const byOwner = await call("GET", `/user-vehicles?q=${encodeURIComponent(customer.email)}`, admin);
    expect(byOwner.json().data.map((v: { ownerUid: string }) => v.ownerUid)).toEqual([customer.uid, customer.uid]);
    expect((await call("GET", "/user-vehicles", null)).statusCode).toBe(401);
  });

  it("admin user vehicles: a customer never lists other owners' cars, not even by naming the owner; an admin filters by owner and sees the owner's email", async () => {
    const named = await call("GET", `/user-vehicles?ownerUid[eq]=${customer.uid}`, stranger);
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json()).toMatchObject({ total: 0, data: [] });
    const searched = await call("GET", `/user-vehicles?q=${encodeURIComponent(customer.email)}`, stranger);
    expect(searched.json().total).toBe(0);
    const byOwner = await call("GET", `/user-vehicles?ownerUid[eq]=${customer.uid}&sort=name`, admin);
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    expect(byOwner.json().total).toBe(2);
    expect(
      byOwner.json().data.map((v: { ownerUid: string; ownerEmail: string | null }) => [v.ownerUid, v.ownerEmail]),
    ).toEqual([
      [customer.uid, customer.email],
      [customer.uid, customer.email],
    ]);
    const theirs = (await call("GET", `/user-vehicles?ownerUid[eq]=${stranger.uid}`, admin)).json();
    expect(theirs.total).toBeGreaterThanOrEqual(1);
    expect(theirs.data.every((v: { ownerUid: string }) => v.ownerUid === stranger.uid)).toBe(true);
    const sorted = (await call("GET", "/user-vehicles?sort=-lastConnectedAt&pageSize=200", admin)).json()
      .data as Array<{ lastConnectedAt: string | null }>;
    const seen = sorted.map((v) => v.lastConnectedAt).filter((at): at is string => at !== null);
    expect(seen).toEqual([...seen].sort().reverse());
  });

  it("merges the app's device attributes for the owner or an admin only", async () => {
    const path = `/users/${customer.uid}/vehicles/${vehicleId}/device-attributes`;
    const first = await call("PATCH", path, customer, {
      adapter: { kind: "OBDLink MX+", firmware: "5.6.19" },
      appSettings: { units: "metric" },
    });
    expect(first.statusCode, first.body).toBe(200);
    const second = await call("PATCH", path, admin, {
      phone: { platform: "android", model: "Pixel 8", osVersion: "15" },
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().deviceAttributes).toEqual({
      adapter: { kind: "OBDLink MX+", firmware: "5.6.19" },
      appVersion: "2.4.0",
      appSettings: { units: "metric" },
      phone: { platform: "android", model: "Pixel 8", osVersion: "15" },
    });
    expect(
      (
        await call("PATCH", `/users/${stranger.uid}/vehicles/${vehicleId}/device-attributes`, stranger, {
          appSettings: {},
        })
      ).statusCode,
    ).toBe(404);
    expect((await call("PATCH", path, stranger, { appSettings: {} })).statusCode).toBe(404);
    expect((await call("PATCH", path, dealer, { appSettings: {} })).statusCode).toBe(404);
    expect(
      (await call("PATCH", path, customer, { phone: { platform: "symbian", model: "x", osVersion: "1" } })).statusCode,
    ).toBe(400);
  });

  it("lists snapshots newest first and tells the car's story in the timeline", async () => {
    expect((await upload(`/user-vehicles/${vehicleId}/upload-tune-dump/0`, customer, demo.stock)).statusCode).toBe(200);
    const snapshots = await call("GET", `/user-vehicles/${vehicleId}/snapshots`, customer);
    expect(snapshots.statusCode, snapshots.body).toBe(200);
    expect(snapshots.json().total).toBe(2);
    const [newest, oldest] = snapshots.json().data;
    expect(newest.recordedAt >= oldest.recordedAt).toBe(true);
    expect(newest.batteryVolts).toBe(12.1);
    expect((await call("GET", `/user-vehicles/${vehicleId}/snapshots`, stranger)).statusCode).toBe(404);
    const timeline = await call("GET", `/user-vehicles/${vehicleId}/timeline`, customer);
    expect(timeline.statusCode, timeline.body).toBe(200);
    // The second connect brought no new fault code and the same software: one entry for both.
    const kinds = timeline.json().data.map((entry: { kind: string; count: number }) => [entry.kind, entry.count]);
    expect(kinds).toEqual([
      ["stock-read", 1],
      ["connect", 2],
    ]);
    const ats = timeline.json().data.map((entry: { at: string }) => entry.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    expect((await call("GET", `/user-vehicles/${vehicleId}/timeline`, dealer)).statusCode).toBe(200);
    expect((await call("GET", `/user-vehicles/${vehicleId}/timeline`, otherDealer)).statusCode).toBe(404);
  });

  it("serves the car's stock read through attach-file with the stock read's own rules", async () => {
    const stock = await call("GET", `/user-vehicles/${vehicleId}/attach-file/stock-read`, customer);
    expect(stock.statusCode).toBe(200);
    expect(stock.rawPayload.equals(Buffer.from(demo.stock))).toBe(true);
    expect((await call("GET", `/user-vehicles/${vehicleId}/attach-file/stock-read`, stranger)).statusCode).toBe(404);
    expect(
      (await call("GET", `/user-vehicles/${vehicleId}/attach-file/00000000-0000-4000-8000-000000000000`, customer))
        .statusCode,
    ).toBe(404);
    expect((await call("GET", `/user-vehicles/${vehicleId}/attach-file/..%2F..%2Fetc`, customer)).statusCode).toBe(400);
  });
});
