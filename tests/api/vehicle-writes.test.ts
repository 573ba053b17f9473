/**
 * Every write on a vehicle or its files, called as the
 * owner, as a dealer who manages the car (its owner bought a tune of theirs)
 * and as a dealer who does not; a refused write changes no row and no file.
 *
 * | route                                        | owner | managing dealer      | other dealer | admin |
 * | POST /tune-files/{id}/grant                  | 403   | 201 (car they reach) | 400 = unknown | 201  |
 * | POST /user-vehicles/{id}/upload-tune-dump/x  | 200   | 403                  | 404           | 200  |
 * | POST /user-vehicles/{id}/temp-bake/x         | 201   | 201                  | 404           | 201  |
 * | POST /user-vehicles/{id}/direct-bake         | 403   | 201                  | 404           | 201  |
 * | POST /user-vehicles/{id}/flash-logs          | 201   | 201                  | 404           | 201  |
 * | DELETE /baked-tune-files/{id}                | 204   | 204 own, 403 others' | 404           | 204  |
 * | POST /data-logs, PATCH /data-logs/{id} (vehicleId, dynoProfile on the car) | 201/200 | 404 | 404 | log owner's car |
 */
import { createHash, randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DYNO_PROFILE } from "../../contracts/data-logs";
import { applyPatches } from "../../domain/tune";
import { bakedTuneFiles, dataLogs, flashLogs, tuneFilePurchases, userVehicles } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { bothDatabases, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 8, patchEntries: 8, firmwareId: "WRITE64K" });
const other = generateDemo({ size: 64 * 1024, itemCount: 4, patchEntries: 4, firmwareId: "ELSE64K", seed: 7 });
/** A second valid read of the car's firmware (a patch applied, checksums fixed), stored nowhere yet. */
const newRead = applyPatches(demo.stock, [demo.patches[0]], {
  firmwareId: demo.firmware.firmwareId,
  checksums: demo.firmware.checksums,
}).image;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const VIN = "WWRITE00000000001";
const csv = Buffer.from(
  `Time,RPM\n${Array.from({ length: 50 }, (_, i) => `${(i / 10).toFixed(1)},${1000 + 10 * i}`).join("\n")}\n`,
);

const filesUnder = (dir: string) =>
  readdir(dir, { recursive: true, withFileTypes: true }).then(
    (entries) =>
      entries
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name))
        .sort(),
    () => [] as string[],
  );

describe.each(bothDatabases)("writes on a vehicle on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call, upload, storeFirmware } = requestsTo(() => app);
  let admin: TestUser;
  let dealer: TestUser;
  let strangerDealer: TestUser;
  let customer: TestUser;
  let vehicleId: string;
  let stageOne: string;
  let stageTwo: string;
  let rival: string;
  let foreign: string;

  const rows = async (table: PgTable) => (await app.ctx.db.select({ n: count() }).from(table))[0].n;
  const vehicle = async () => (await app.ctx.db.select().from(userVehicles).where(eq(userVehicles.id, vehicleId)))[0];
  /** Everything a write on the car could change: its row, the rows hanging off it, and the files on disk. */
  const snapshot = async () => ({
    vehicle: await vehicle(),
    purchases: await rows(tuneFilePurchases),
    bakes: await app.ctx.db
      .select({ id: bakedTuneFiles.id, sha256: bakedTuneFiles.sha256 })
      .from(bakedTuneFiles)
      .where(eq(bakedTuneFiles.vehicleId, vehicleId))
      .orderBy(bakedTuneFiles.id),
    flashes: await rows(flashLogs),
    logsOnCar: await app.ctx.db.select({ id: dataLogs.id }).from(dataLogs).where(eq(dataLogs.vehicleId, vehicleId)),
    files: await filesUnder(app.ctx.config.dataDir),
  });
  const created = (response: Awaited<ReturnType<typeof call>>) => {
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };
  /** A grant's answer with the vehicle id taken out, to compare the answers for two ids. */
  const answer = (response: Awaited<ReturnType<typeof call>>, id: string) => ({
    status: response.statusCode,
    body: response.body.replaceAll(id, "<vehicle>"),
  });
  const newCar = async (name: string) =>
    (await app.ctx.db.insert(userVehicles).values({ ownerUid: customer.uid, name }).returning())[0].id;

  beforeAll(async () => {
    test = await startTestApp(kind);
    app = test.app;
    [admin, dealer, strangerDealer, customer] = await createUsers(test, ["admin", "dealer", "dealer", "customer"]);
    await storeFirmware(admin, demo);
    await storeFirmware(admin, other, { stock: false });
    // Users reach the mirror on their first request; the vehicle row needs its owner there.
    await Promise.all([customer, dealer, strangerDealer].map((user) => call("GET", "/tune-files", user)));
    [{ id: vehicleId }] = await app.ctx.db
      .insert(userVehicles)
      .values({ ownerUid: customer.uid, name: "Customer's hatch", vin: VIN })
      .returning();
    expect((await upload(`/user-vehicles/${vehicleId}/upload-tune-dump/0`, customer, demo.stock)).statusCode).toBe(200);
    stageOne = created(await upload("/tune-files", dealer, demo.tune.image, { title: "Stage 1" }));
    stageTwo = created(await upload("/tune-files", dealer, demo.tune.image, { title: "Stage 2" }));
    rival = created(await upload("/tune-files", strangerDealer, demo.tune.image, { title: "Rival stage 1" }));
    foreign = created(await upload("/tune-files", strangerDealer, other.tune.image, { title: "Other firmware" }));
    // The customer buys Stage 1 for the car (an admin's grant stands in for the purchase): the dealer manages it from then on.
    expect((await call("POST", `/tune-files/${stageOne}/grant`, admin, { vehicleId })).statusCode).toBe(201);
  });
  afterAll(async () => test?.close());

  it("answers a dealer's grant to a stranger's car exactly as one to an unknown id, and the car stays out of their reach", async () => {
    const before = await snapshot();
    const unknownId = randomUUID();
    for (const tune of [rival, foreign]) {
      const stranger = await call("POST", `/tune-files/${tune}/grant`, strangerDealer, { vehicleId });
      const unknown = await call("POST", `/tune-files/${tune}/grant`, strangerDealer, { vehicleId: unknownId });
      expect(stranger.statusCode, stranger.body).toBe(400);
      expect(answer(stranger, vehicleId)).toEqual(answer(unknown, unknownId));
      expect(stranger.json().data).toEqual([{ path: "vehicleId", message: "no such vehicle" }]);
    }
    expect(await snapshot()).toEqual(before);

    expect((await call("GET", `/user-vehicles/${vehicleId}/download-tune-dump`, strangerDealer)).statusCode).toBe(404);
    expect((await call("GET", `/user-vehicles/${vehicleId}/tune-files`, strangerDealer)).statusCode).toBe(404);
    const list = await call("GET", "/user-vehicles", strangerDealer);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(VIN);
    expect(list.body).not.toContain(vehicleId);
  });

  it("lets a dealer grant only to a car its owner bought from them, and an admin to any car", async () => {
    const purchases = await rows(tuneFilePurchases);
    const more = await call("POST", `/tune-files/${stageTwo}/grant`, dealer, { vehicleId });
    expect(more.statusCode, more.body).toBe(201);
    expect(more.json()).toMatchObject({ vehicleId, customerUid: customer.uid, created: true });
    expect(await rows(tuneFilePurchases)).toBe(purchases + 1);

    // The same owner's other car bought nothing from this dealer: out of reach, like an unknown id.
    const secondCar = await newCar("Customer's second car");
    const unknownId = randomUUID();
    const refused = await call("POST", `/tune-files/${stageOne}/grant`, dealer, { vehicleId: secondCar });
    expect(answer(refused, secondCar)).toEqual(
      answer(await call("POST", `/tune-files/${stageOne}/grant`, dealer, { vehicleId: unknownId }), unknownId),
    );
    expect(refused.statusCode).toBe(400);
    expect((await call("GET", `/user-vehicles/${secondCar}/download-tune-dump`, dealer)).statusCode).toBe(404);
    expect((await call("POST", `/tune-files/${stageOne}/grant`, customer, { vehicleId })).statusCode).toBe(403);
    expect(await rows(tuneFilePurchases)).toBe(purchases + 1);

    expect(
      (await call("POST", `/tune-files/${stageOne}/grant`, admin, { vehicleId: await newCar("Admin's pick") }))
        .statusCode,
    ).toBe(201);
    expect(await rows(tuneFilePurchases)).toBe(purchases + 2);
  });

  it("lets only the owner or an admin replace the stock read: the managing dealer reads it, and is refused a new one", async () => {
    const before = await snapshot();
    const asDealer = await upload(`/user-vehicles/${vehicleId}/upload-tune-dump/3`, dealer, newRead);
    expect(asDealer.statusCode, asDealer.body).toBe(403);
    expect((await upload(`/user-vehicles/${vehicleId}/upload-tune-dump/3`, strangerDealer, newRead)).statusCode).toBe(
      404,
    );
    expect(await snapshot()).toEqual(before);
    const read = await call("GET", `/user-vehicles/${vehicleId}/download-tune-dump`, dealer);
    expect(read.statusCode).toBe(200);
    expect(sha256(read.rawPayload)).toBe(sha256(demo.stock));

    const asOwner = await upload(`/user-vehicles/${vehicleId}/upload-tune-dump/2`, customer, newRead);
    expect(asOwner.statusCode, asOwner.body).toBe(200);
    expect(asOwner.json().stockDump).toEqual({ sha256: sha256(newRead), size: newRead.length, slot: 2 });
    const asAdmin = await upload(`/user-vehicles/${vehicleId}/upload-tune-dump/0`, admin, demo.stock);
    expect(asAdmin.statusCode, asAdmin.body).toBe(200);
    expect((await vehicle()).stockDumpSha256).toBe(sha256(demo.stock));
  });

  it("lets the managing dealer bake and report flashes for the car, but delete only their own bakes and file no log under it", async () => {
    const ownersBake = created(
      await call("POST", `/user-vehicles/${vehicleId}/temp-bake/0`, customer, { tuneFileId: stageOne }),
    );
    const dealersBake = created(
      await call("POST", `/user-vehicles/${vehicleId}/temp-bake/1`, dealer, { tuneFileId: stageOne }),
    );
    const direct = created(await upload(`/user-vehicles/${vehicleId}/direct-bake`, dealer, demo.tune.image));
    expect((await upload(`/user-vehicles/${vehicleId}/direct-bake`, customer, demo.tune.image)).statusCode).toBe(403);

    const refused = await call("DELETE", `/baked-tune-files/${ownersBake}`, dealer);
    expect(refused.statusCode, refused.body).toBe(403);
    expect((await call("GET", `/baked-tune-files/${ownersBake}`, customer)).statusCode).toBe(200);
    expect((await call("DELETE", `/baked-tune-files/${dealersBake}`, dealer)).statusCode).toBe(204);
    expect((await call("DELETE", `/baked-tune-files/${direct}`, customer)).statusCode).toBe(204);

    const flash = await call("POST", `/user-vehicles/${vehicleId}/flash-logs`, dealer, {
      bakedTuneFileId: ownersBake,
      result: "success",
    });
    expect(flash.statusCode, flash.body).toBe(201);
    expect(flash.json()).toMatchObject({ vehicleId, reportedBy: dealer.uid });
    expect(
      (
        await call("POST", `/user-vehicles/${vehicleId}/flash-logs`, customer, {
          bakedTuneFileId: ownersBake,
          result: "success",
        })
      ).statusCode,
    ).toBe(201);

    // Data logs go under their owner's own cars only; a log's dyno profile set on a car writes that car.
    const before = await snapshot();
    expect((await upload("/data-logs", dealer, csv, { vehicleId }, "pull.csv")).statusCode).toBe(404);
    const log = created(await upload("/data-logs", dealer, csv, {}, "pull.csv"));
    expect(
      (await call("PATCH", `/data-logs/${log}`, dealer, { vehicleId, dynoProfile: DEFAULT_DYNO_PROFILE })).statusCode,
    ).toBe(404);
    const after = await snapshot();
    expect({ ...after, files: undefined }).toEqual({ ...before, files: undefined });
    expect((await vehicle()).dynoProfile).toBeNull();

    const ownLog = created(await upload("/data-logs", customer, csv, { vehicleId }, "pull.csv"));
    const profiled = await call("PATCH", `/data-logs/${ownLog}`, customer, { dynoProfile: DEFAULT_DYNO_PROFILE });
    expect(profiled.statusCode, profiled.body).toBe(200);
    expect((await vehicle()).dynoProfile).toEqual(DEFAULT_DYNO_PROFILE);
  });

  it("refuses every write to a dealer who does not manage the car, even after they tried to grant it to themselves, changing nothing", async () => {
    const ownersBake = created(
      await call("POST", `/user-vehicles/${vehicleId}/temp-bake/0`, customer, { tuneFileId: stageOne }),
    );
    const log = created(await upload("/data-logs", strangerDealer, csv, {}, "pull.csv"));
    const before = await snapshot();

    expect((await call("POST", `/tune-files/${rival}/grant`, strangerDealer, { vehicleId })).statusCode).toBe(400);
    const answers = {
      uploadDump: (await upload(`/user-vehicles/${vehicleId}/upload-tune-dump/0`, strangerDealer, newRead)).statusCode,
      tempBake: (await call("POST", `/user-vehicles/${vehicleId}/temp-bake/0`, strangerDealer, { tuneFileId: rival }))
        .statusCode,
      directBake: (await upload(`/user-vehicles/${vehicleId}/direct-bake`, strangerDealer, demo.tune.image)).statusCode,
      flashLog: (
        await call("POST", `/user-vehicles/${vehicleId}/flash-logs`, strangerDealer, {
          bakedTuneFileId: ownersBake,
          result: "success",
        })
      ).statusCode,
      deleteBake: (await call("DELETE", `/baked-tune-files/${ownersBake}`, strangerDealer)).statusCode,
      dataLogOnCar: (await upload("/data-logs", strangerDealer, csv, { vehicleId }, "pull.csv")).statusCode,
      linkLog: (
        await call("PATCH", `/data-logs/${log}`, strangerDealer, {
          vehicleId,
          dynoProfile: { ...DEFAULT_DYNO_PROFILE, massKg: 2000 },
        })
      ).statusCode,
      downloadDump: (await call("GET", `/user-vehicles/${vehicleId}/download-tune-dump`, strangerDealer)).statusCode,
    };
    expect(answers).toEqual({
      uploadDump: 404,
      tempBake: 404,
      directBake: 404,
      flashLog: 404,
      deleteBake: 404,
      dataLogOnCar: 404,
      linkLog: 404,
      downloadDump: 404,
    });
    expect(await snapshot()).toEqual(before);
  });
});
