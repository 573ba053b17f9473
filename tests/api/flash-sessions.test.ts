/**
 * Flash sessions: started once per grant, reported step by step (live on the vehicle's event
 * stream), ended with a result and snapshots; a failed flash recovered by a later session; a
 * silent session abandoned; the support flash log by role.
 */
import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flashGrants, flashLogSteps, flashLogs, vehicleSnapshots } from "../../server/db/schema";
import { generateDemo } from "../../server/seed/generator";
import { listen } from "./support/event-stream-client";
import { carReadyToFlash, flashableFirmware, identityOf } from "./support/flashing-setup";
import { apiDatabases, bearer, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { requestsTo } from "./support/requests";

const demo = generateDemo({ size: 64 * 1024, itemCount: 6, patchEntries: 2, firmwareId: "SESSION64K" });
const VIN = "WVWZZZAUZKW200001";
const SERIAL = "ECU-SES-1";
const SILENCE_MS = 4_000;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const step = (seq: number, name: string, extra: Record<string, unknown> = {}) => ({
  seq,
  step: name,
  status: "ok",
  at: new Date().toISOString(),
  ...extra,
});

describe.each(apiDatabases)("flash sessions on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  let port: number;
  const requests = requestsTo(() => app);
  const { call } = requests;
  let admin: TestUser;
  let dealer: TestUser;
  let otherDealer: TestUser;
  let customer: TestUser;
  let vehicleId: string;
  let bake: { id: string; sha256: string };

  const session = {
    ...identityOf(demo, VIN, SERIAL),
    adapter: { kind: "virtual", firmware: "1.0" },
    appVersion: "2.4.0",
    batteryVolts: 12.6,
  };
  const grantFor = async (what: "tune" | "stock" = "tune") => {
    const body =
      what === "tune"
        ? { kind: "tune", bakedTuneFileId: bake.id, sha256: bake.sha256 }
        : { kind: "stock", sha256: sha256(demo.stock) };
    const answer = await call("POST", `/user-vehicles/${vehicleId}/flash-authentication`, customer, {
      ...identityOf(demo, VIN, SERIAL),
      batteryVolts: 12.6,
      seed: "0A0B0C0D",
      ...body,
    });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json().grant.token as string;
  };
  const start = (grant: string, extra: Record<string, unknown> = {}) =>
    call("POST", `/user-vehicles/${vehicleId}/flash-logs`, customer, { grant, ...session, ...extra });
  const report = (logId: string, steps: unknown[], user = customer) =>
    call("POST", `/user-vehicles/${vehicleId}/flash-logs/${logId}/steps`, user, { steps });
  const end = (logId: string, body: Record<string, unknown>) =>
    call("POST", `/user-vehicles/${vehicleId}/flash-logs/${logId}/end`, customer, body);

  beforeAll(async () => {
    test = await startTestApp(kind, { FLASH_SESSION_SILENCE_MS: String(SILENCE_MS) });
    app = test.app;
    await app.listen({ host: "127.0.0.1", port: 0 });
    port = (app.server.address() as AddressInfo).port;
    [admin, dealer, otherDealer, customer] = await createUsers(test, ["admin", "dealer", "dealer", "customer"]);
    await Promise.all([customer, dealer, otherDealer].map((user) => call("GET", "/tune-files", user)));
    await flashableFirmware(requests, admin, demo);
    ({ vehicleId, bake } = await carReadyToFlash(requests, { admin, dealer, customer }, demo, VIN, SERIAL));
  });
  afterAll(async () => test?.close());

  it("runs a flash: started with the grant, steps shown live and stored once, ended with snapshots before and after", async () => {
    const stream = await listen(port, `/api/v1/user-vehicles/${vehicleId}/listen`, bearer(customer.token));
    expect(stream.status).toBe(200);
    const started = await start(await grantFor());
    expect(started.statusCode, started.body).toBe(201);
    const log = started.json();
    expect(log).toMatchObject({
      result: "running",
      kind: "tune",
      tuneTitle: "Stage 1",
      firmwareId: "SESSION64K",
      ecuFamily: "DEMO-ME7",
      adapterKind: "virtual",
      appVersion: "2.4.0",
      batteryStartVolts: 12.6,
      progress: null,
    });
    expect((await stream.next("flash-log")).data).toMatchObject({ id: log.id, result: "running" });

    const steps = [
      step(1, "setup"),
      step(2, "connecting"),
      step(3, "security-access", { request: "2711", response: "67110A0B0C0D" }),
      step(4, "erasing", { retries: 2 }),
      step(5, "block", { block: 1, percent: 50, status: "started" }),
    ];
    const reported = await report(log.id, steps);
    expect(reported.statusCode, reported.body).toBe(200);
    expect(reported.json().progress).toEqual({ step: "block", block: 1, percent: 50, status: "started" });
    expect((await stream.next("flash-step")).data).toMatchObject({
      flashLogId: log.id,
      step: { seq: 1, step: "setup" },
    });
    // The app sends again what it is not sure arrived: stored once.
    expect((await report(log.id, [...steps.slice(3), step(6, "block", { block: 1, percent: 100 })])).statusCode).toBe(
      200,
    );
    expect(await app.ctx.db.select().from(flashLogSteps).where(eq(flashLogSteps.flashLogId, log.id))).toHaveLength(6);

    const ended = await end(log.id, {
      result: "success",
      ecu: identityOf(demo, VIN, SERIAL).ecu,
      batteryVolts: 12.4,
      flashCounter: 7,
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({
      result: "success",
      batteryEndVolts: 12.4,
      identityAfter: { ecuSerial: SERIAL },
    });
    expect(ended.json().durationMs).toBeGreaterThanOrEqual(0);
    const kinds = (await app.ctx.db.select().from(vehicleSnapshots).where(eq(vehicleSnapshots.flashLogId, log.id)))
      .map((row) => row.kind)
      .sort();
    expect(kinds).toEqual(["after-flash", "before-flash"]);
    stream.close();

    expect((await end(log.id, { result: "failed" })).statusCode).toBe(409);
    expect((await report(log.id, [step(7, "done")])).statusCode).toBe(409);
    const vehicle = await call("GET", `/user-vehicles/${vehicleId}`, customer);
    expect(vehicle.json()).toMatchObject({
      currentTune: { title: "Stage 1", kind: "tune" },
      lastFlash: { id: log.id, result: "success" },
    });
  });

  it("tells the car's watchers each pre-flight the app runs: the checks that passed, or the refusal naming the failed one", async () => {
    const stream = await listen(port, `/api/v1/user-vehicles/${vehicleId}/listen`, bearer(customer.token));
    const ask = (batteryVolts: number) =>
      call("POST", `/user-vehicles/${vehicleId}/flash-authentication`, customer, {
        ...identityOf(demo, VIN, SERIAL),
        batteryVolts,
        seed: "0A0B0C0D",
        kind: "tune",
        bakedTuneFileId: bake.id,
        sha256: bake.sha256,
      });
    expect((await ask(11.4)).statusCode).toBe(409);
    const refused = (await stream.next("preflight")).data as {
      passed: boolean;
      failed: string;
      checks: Array<{ check: string; ok: boolean; message: string }>;
    };
    expect(refused).toMatchObject({ passed: false, kind: "tune", failed: "battery" });
    expect(refused.checks.at(-1)).toMatchObject({ check: "battery", ok: false });
    expect(refused.checks.at(-1)?.message).toContain("11.4");
    expect(refused.checks.slice(0, -1).every((check) => check.ok)).toBe(true);
    // A seed the algorithm cannot take is refused after the checks: the watchers are not told it passed.
    expect(
      (
        await call("POST", `/user-vehicles/${vehicleId}/flash-authentication`, customer, {
          ...identityOf(demo, VIN, SERIAL),
          batteryVolts: 12.6,
          seed: "0A0B",
          kind: "tune",
          bakedTuneFileId: bake.id,
          sha256: bake.sha256,
        })
      ).statusCode,
    ).toBe(400);
    await expect(stream.next("preflight", 300)).rejects.toThrow();
    expect((await ask(12.6)).statusCode).toBe(201);
    const passed = (await stream.next("preflight")).data as {
      passed: boolean;
      failed: null;
      checks: Array<{ ok: boolean }>;
    };
    expect(passed).toMatchObject({ passed: true, failed: null });
    expect(passed.checks.every((check) => check.ok)).toBe(true);
    stream.close();
  });

  it("uses a grant once: a replay, a tampered token, an expired grant and another car's grant are refused", async () => {
    const grant = await grantFor();
    expect((await start(grant)).statusCode).toBe(201);
    const replay = await start(grant);
    expect(replay.statusCode).toBe(403);
    expect(replay.json().description).toContain("already used");
    expect((await start(`${grant.slice(0, -3)}abc`)).statusCode).toBe(403);
    const expiring = await grantFor();
    await app.ctx.db
      .update(flashGrants)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(flashGrants.id, expiring.split(".")[0]));
    expect((await start(expiring)).json().description).toContain("expired");
    const swapped = await start(await grantFor(), { ecu: { ...session.ecu, ecuSerial: "ECU-OTHER" } });
    expect(swapped.statusCode).toBe(409);
    expect((await start("not-a-token")).statusCode).toBe(403);
  });

  it("lets exactly one of twenty concurrent starts use a grant", async () => {
    const grant = await grantFor();
    const answers = await Promise.all(Array.from({ length: 20 }, () => start(grant)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 403)).toHaveLength(19);
    expect(
      await app.ctx.db
        .select()
        .from(flashLogs)
        .where(eq(flashLogs.grantId, grant.split(".")[0])),
    ).toHaveLength(1);
  });

  it("records where a flash failed, and marks it recovered when a later session writes the stock read back", async () => {
    const failed = (await start(await grantFor())).json();
    await report(failed.id, [
      step(1, "setup"),
      step(2, "block", {
        block: 1,
        percent: 40,
        status: "failed",
        nrc: 0x72,
        request: "3601",
        response: "7F3672",
        message: "write failed",
      }),
    ]);
    const ended = await end(failed.id, { result: "failed", message: "0x72 generalProgrammingFailure at block 1" });
    expect(ended.json()).toMatchObject({ result: "failed", failedStep: "block", failedBlock: 1, failedNrc: 0x72 });
    // Only a failed or abandoned session of this car can be recovered.
    expect(
      (await start(await grantFor("stock"), { recoversId: "00000000-0000-4000-8000-000000000000" })).statusCode,
    ).toBe(422);
    const recovery = (await start(await grantFor("stock"), { recoversId: failed.id })).json();
    expect(recovery).toMatchObject({ kind: "stock", recoversId: failed.id, result: "running" });
    expect((await end(recovery.id, { result: "success", ecu: session.ecu })).statusCode).toBe(200);
    const history = (await call("GET", `/user-vehicles/${vehicleId}/flash-logs`, customer)).json().data;
    expect(history.find((log: { id: string }) => log.id === failed.id)).toMatchObject({
      result: "recovered",
      recoveredById: recovery.id,
    });
  });

  it("records the car's hardware and bootloader in the before-flash snapshot when the app sends only the identity the grant checks", async () => {
    const { softwareId, ecuSerial } = session.ecu;
    const started = await start(await grantFor(), { ecu: { softwareId, ecuSerial } });
    expect(started.statusCode, started.body).toBe(201);
    const [before] = await app.ctx.db
      .select()
      .from(vehicleSnapshots)
      .where(eq(vehicleSnapshots.flashLogId, started.json().id));
    expect(before).toMatchObject({ kind: "before-flash", hardwareNumber: "HW-1", bootloaderVersion: "BL-1" });
    expect((await end(started.json().id, { result: "failed", message: "stopped" })).statusCode).toBe(200);
  });

  it("marks a session abandoned when the app stops reporting", async () => {
    const silent = (await start(await grantFor())).json();
    await report(silent.id, [step(1, "setup")]);
    let row = (await app.ctx.db.select().from(flashLogs).where(eq(flashLogs.id, silent.id)))[0];
    for (let waited = 0; row.result === "running" && waited < SILENCE_MS * 4; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      row = (await app.ctx.db.select().from(flashLogs).where(eq(flashLogs.id, silent.id)))[0];
    }
    expect(row.result).toBe("abandoned");
    expect(row.message).toBe("the app stopped reporting");
    expect((await report(silent.id, [step(2, "connecting")])).statusCode).toBe(409);
  });

  it("refuses bad reports naming the field, and reports by anyone but the session's app", async () => {
    const log = (await start(await grantFor())).json();
    const bad = await report(log.id, [{ seq: 1, step: "warp", status: "ok", at: new Date().toISOString() }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data[0].path).toBe("steps.0.step");
    expect((await report(log.id, [step(1, "block", { nrc: 300 })])).statusCode).toBe(400);
    expect((await report(log.id, [step(1, "setup")], dealer)).statusCode).toBe(403);
    expect((await report(log.id, [step(1, "setup")], otherDealer)).statusCode).toBe(404);
    expect(
      (
        await call("POST", `/user-vehicles/${vehicleId}/flash-logs`, customer, {
          grant: "x",
          ...session,
          batteryVolts: "12",
        })
      ).json().data[0].path,
    ).toBe("batteryVolts");
    await end(log.id, { result: "aborted" });
  });

  it("shows support the sessions by role, with steps, snapshots, the grant's facts and a bundle", async () => {
    const list = await call("GET", "/flash-log?result[eq]=recovered", admin);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().total).toBe(1);
    const failedId = list.json().data[0].id;
    const detail = await call("GET", `/flash-log/${failedId}`, admin);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().steps.find((s: { nrc: number | null }) => s.nrc === 0x72)).toMatchObject({
      nrcName: "0x72 generalProgrammingFailure",
    });
    expect(detail.json().snapshots.map((s: { kind: string }) => s.kind)).toEqual(["before-flash"]);
    expect(detail.json().grant).toMatchObject({ kind: "tune", vin: VIN, ecuSerial: SERIAL, firmwareId: "SESSION64K" });
    expect(detail.json().vehicle).toMatchObject({ id: vehicleId, vin: VIN });
    // The owner reads the same session from the car's page.
    const own = await call("GET", `/user-vehicles/${vehicleId}/flash-logs/${failedId}`, customer);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().steps).toEqual(detail.json().steps);
    const bundle = await call("GET", `/flash-log/${failedId}/bundle`, admin);
    expect(bundle.headers["content-disposition"]).toBe(`attachment; filename="flash-session-${failedId}.json"`);
    expect(JSON.parse(bundle.body)).toMatchObject({
      kind: "flash-session-bundle",
      log: { id: failedId },
      grant: { vin: VIN },
    });
    // The dealer whose tune the car runs manages it; another dealer and the customer do not see the support log.
    expect((await call("GET", `/flash-log/${failedId}`, dealer)).statusCode).toBe(200);
    expect((await call("GET", "/flash-log", dealer)).json().total).toBeGreaterThan(0);
    expect((await call("GET", `/flash-log/${failedId}`, otherDealer)).statusCode).toBe(404);
    expect((await call("GET", "/flash-log", otherDealer)).json().total).toBe(0);
    expect((await call("GET", "/flash-log", customer)).statusCode).toBe(403);
    expect((await call("GET", "/flash-log?sort=secret", admin)).statusCode).toBe(400);
  });
});
