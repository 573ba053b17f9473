import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FlashLog } from "../../contracts/flash-logs";
import { bakedTuneFiles, dataLogs, tuneFiles, userVehicles } from "../../server/db/schema";
import { DEMO_PASSWORD, seedDemo } from "../../server/seed";
import { DEMO_VIN } from "../../server/seed/tunes";
import { apiDatabases, bearer, signIn, startTestApp, type TestApp } from "./support/harness";

const run = promisify(execFile);
/** Each command is a process of its own that loads the TypeScript sources: seconds each on a busy machine. */
const CLI_TEST_MS = 180_000;

/**
 * `npm run vehicle` itself, as a person runs it from a terminal: the CLI in its own process
 * against the portal listening on a port, signed in at the Auth emulator as the demo customer.
 */
describe.each(apiDatabases)("the virtual vehicle's command line on %s", (kind) => {
  let test: TestApp;
  let url: string;
  let dataDir: string;
  let tuneId: string;

  beforeAll(async () => {
    test = await startTestApp(kind);
    await seedDemo(test.app);
    await test.app.listen({ host: "127.0.0.1", port: 0 });
    url = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
    dataDir = await mkdtemp(path.join(tmpdir(), "virtual-vehicle-"));
    const [tune] = await test.app.ctx.db.select().from(tuneFiles).where(eq(tuneFiles.published, true));
    tuneId = tune.id;
  });
  afterAll(async () => {
    await test?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** Runs one command; a failed flash exits 1, which is an answer here, not an error. */
  const vehicle = async (...args: string[]) => {
    const flags = ["--url", url, "--emulator", test.emulatorHost, "--data-dir", dataDir];
    try {
      const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/vehicle.ts", ...flags, ...args], {
        cwd: process.cwd(),
        timeout: 60_000,
      });
      return { code: 0, out: stdout };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      if (typeof failed.code !== "number") throw error;
      return { code: failed.code, out: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
    }
  };

  const sessions = async () => {
    const token = await signIn(test.emulatorHost, "customer@example.com", DEMO_PASSWORD);
    const [car] = await test.app.ctx.db.select().from(userVehicles).where(eq(userVehicles.vin, DEMO_VIN));
    const answer = await test.app.inject({
      method: "GET",
      url: `/api/v1/user-vehicles/${car.id}/flash-logs?pageSize=3`,
      headers: bearer(token),
    });
    return answer.json().data as FlashLog[];
  };

  it(
    "connects the demo car, reads its stock, flashes the tune, fails on a sagging battery, recovers, and uploads a pull",
    async () => {
      const connected = await vehicle("connect");
      expect(connected.code, connected.out).toBe(0);
      expect(connected.out).toMatch(/^Vehicle Demo hatchback \([0-9a-f-]{36}\): supported, flashing supported$/m);

      const read = await vehicle("read-stock");
      expect(read.out).toContain("Stock read uploaded: 524288 bytes, firmware DEMO-ECU-0001");

      // The car's page bakes the tune and hands the link over; the app flashes that bake, baking nothing.
      const token = await signIn(test.emulatorHost, "customer@example.com", DEMO_PASSWORD);
      const [car0] = await test.app.ctx.db.select().from(userVehicles).where(eq(userVehicles.vin, DEMO_VIN));
      const baked = await test.app.inject({
        method: "POST",
        url: `/api/v1/user-vehicles/${car0.id}/temp-bake/0`,
        headers: bearer(token),
        payload: { tuneFileId: tuneId, patchIds: [] },
      });
      expect(baked.statusCode, baked.body).toBe(201);
      const bakeId = baked.json().id as string;
      const bakes = () => test.app.ctx.db.select().from(bakedTuneFiles).where(eq(bakedTuneFiles.vehicleId, car0.id));
      const bakesBefore = (await bakes()).length;
      const flashed = await vehicle("flash", `tuningportal://flash?vehicle=${car0.id}&kind=tune&bake=${bakeId}`);
      expect(flashed.code, flashed.out).toBe(0);
      expect((await bakes()).length, "the flash baked nothing more").toBe(bakesBefore);
      expect((await sessions())[0]).toMatchObject({ bakedTuneFileId: bakeId });
      expect(flashed.out).toMatch(/Pre-flight passed \(\d+ checks\)/);
      expect(flashed.out).toContain("  block 1 100 % ok");
      expect(flashed.out).toContain("Flash complete: the car starts.");
      expect((await sessions())[0]).toMatchObject({ kind: "tune", result: "success", adapterKind: "virtual" });

      const sagging = await vehicle("flash", "--tune", tuneId, "--fault", "low-voltage@block");
      expect(sagging.code).toBe(1);
      expect(sagging.out).toContain("Flash failed at block 1");
      expect(sagging.out).toContain("waits in its bootloader");
      const [failed] = await sessions();
      expect(failed).toMatchObject({ result: "failed", failedStep: "block", failedBlock: 1, failedNrc: 0x93 });

      const recovered = await vehicle("back-to-stock");
      expect(recovered.code, recovered.out).toBe(0);
      expect(recovered.out).toContain("Flash complete: the car starts.");
      const [stock, wasFailed] = await sessions();
      expect(stock).toMatchObject({ kind: "stock", result: "success", recoversId: failed.id });
      expect(wasFailed).toMatchObject({ id: failed.id, result: "recovered" });

      // Back on stock: the pull's boost follows the stock boost target, and the log is the car's.
      const logged = await vehicle("log");
      expect(logged.out).toMatch(/Data log uploaded: Virtual car: 3rd gear pull \([0-9a-f-]{36}\)/);
      const [car] = await test.app.ctx.db.select().from(userVehicles).where(eq(userVehicles.vin, DEMO_VIN));
      expect(
        await test.app.ctx.db
          .select()
          .from(dataLogs)
          .where(and(eq(dataLogs.vehicleId, car.id), eq(dataLogs.title, "Virtual car: 3rd gear pull"))),
      ).toHaveLength(1);
    },
    CLI_TEST_MS,
  );

  it(
    "refuses an unknown fault and a flash without a tune, naming what is wrong",
    async () => {
      const fault = await vehicle("flash", "--tune", tuneId, "--fault", "meteor@block");
      expect(fault.code).toBe(1);
      expect(fault.out).toContain(
        "--fault: one of pending-storm, dropped-response, wrong-key, wrong-counter, corrupt-block, power-loss, low-voltage",
      );
      const noTune = await vehicle("flash");
      expect(noTune.code).toBe(2);
      expect(noTune.out).toContain("flash needs what the car's page handed over: its link, or --bake <id>");
      const usage = await vehicle("drive");
      expect(usage.code).toBe(2);
      expect(usage.out).toContain("unknown command drive");
      expect(usage.out).toContain("usage: npm run vehicle");
    },
    CLI_TEST_MS,
  );

  it(
    "prints its usage for --help and exits 0, and an unknown flag with the usage, exiting 2",
    async () => {
      const help = await vehicle("--help");
      expect(help.code, help.out).toBe(0);
      expect(help.out).toMatch(/^usage: npm run vehicle/);
      expect(help.out).toContain("flash <link>");
      expect(help.out).not.toMatch(/\n\s+at /);
      const flag = await vehicle("connect", "--colour", "red");
      expect(flag.code).toBe(2);
      expect(flag.out).toContain("Unknown option '--colour'");
      expect(flag.out).toContain("usage: npm run vehicle");
      expect(flag.out).not.toMatch(/\n\s+at /);
    },
    CLI_TEST_MS,
  );
});
