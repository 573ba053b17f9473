/**
 * The flashing demo: the demo firmware can be flashed (profile, one block, a bootloader, the
 * security-access secret), the demo customer's car has been connected and has a flash history
 * with one flash that failed mid-transfer and was recovered by writing the stock read back, and
 * a fleet of other customers' cars gives the flashing analytics months of sessions to show.
 * Each part is written only when it is missing, so a second start changes nothing.
 */
import { createHash } from "node:crypto";
import { type AnyColumn, and, eq, gte, lt, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Role } from "../../contracts/account";
import type { FlashStep } from "../../contracts/flash-logs";
import type { AppContext } from "../context";
import type { Tx } from "../db/handle";
import {
  bakedTuneFiles,
  firmwareSecrets,
  firmwareSupport,
  flashGrants,
  flashLogs,
  tuneFiles,
  users,
  userVehicles,
  vehicleSnapshots,
} from "../db/schema";
import { DEMO_PASSWORD } from "./demo-accounts";
import { DEMO_FLASH_SECRET, DEMO_FLASHING_PROFILE } from "./flashing-profile";
import { generateDemo } from "./generator";
import { DEMO_TUNE_OPTIONS, DEMO_VIN } from "./tunes";
import { emulatorSignIn } from "./virtual-car/emulator-sign-in";
import { InjectPortal } from "./virtual-car/inject-portal";
import {
  bake,
  connect,
  type Fault,
  lastFailed,
  pullLog,
  runFlash,
  demoCar as virtualDemoCar,
} from "./virtual-car/phone-app";

export { DEMO_ECU_SERIAL, DEMO_FLASH_SECRET, DEMO_FLASHING_PROFILE } from "./flashing-profile";

const FLEET_UID = "demo-fleet";
const DAY = 86_400_000;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function enableDemoFlashing(ctx: AppContext, firmwareId: string, imageSize: number) {
  const [record] = await ctx.db.select().from(firmwareSupport).where(eq(firmwareSupport.firmwareId, firmwareId));
  if (!record || record.flashingEnabled) return;
  const bootloader = new Uint8Array(4096).map((_, i) => (i * 31 + 7) & 0xff);
  const bootloaderSha256 = await ctx.blobs.put(bootloader);
  await ctx.db
    .update(firmwareSupport)
    .set({
      flashingEnabled: true,
      flashing: DEMO_FLASHING_PROFILE,
      blocks: [
        {
          name: "CAL",
          number: 1,
          baseAddress: imageSize / 2,
          length: imageSize / 2,
          fileOffset: imageSize / 2,
          transferSize: 0xffd,
        },
      ],
      bootloaderSha256,
      bootloaderSize: bootloader.length,
      bootloaderName: "demo-bootloader.bin",
    })
    .where(eq(firmwareSupport.id, record.id));
  const [secret] = await ctx.db
    .select()
    .from(firmwareSecrets)
    .where(and(eq(firmwareSecrets.firmwareId, firmwareId), eq(firmwareSecrets.securityLevel, 0x11)));
  if (!secret)
    await ctx.db.insert(firmwareSecrets).values({
      firmwareId,
      label: "Demo security access (level 0x11)",
      securityLevel: 0x11,
      secret: ctx.secrets.seal(DEMO_FLASH_SECRET),
    });
}

export async function seedFlashing(app: FastifyInstance, accounts: { uid: string; email: string; role: Role }[]) {
  const { ctx } = app;
  const customer = accounts.find((a) => a.role === "customer")!;
  const dealer = accounts.find((a) => a.role === "dealer")!;
  const demo = generateDemo(DEMO_TUNE_OPTIONS);
  await enableDemoFlashing(ctx, demo.firmware.firmwareId, demo.firmware.imageSize);

  const [vehicle] = await ctx.db
    .select()
    .from(userVehicles)
    .where(and(eq(userVehicles.ownerUid, customer.uid), eq(userVehicles.vin, DEMO_VIN)));
  const [flashed] = vehicle
    ? await ctx.db.select({ id: flashLogs.id }).from(flashLogs).where(eq(flashLogs.vehicleId, vehicle.id)).limit(1)
    : [];
  const [tune] = await ctx.db
    .select()
    .from(tuneFiles)
    .where(and(eq(tuneFiles.dealerUid, dealer.uid), eq(tuneFiles.title, demo.tune.title)));
  if (vehicle && tune && !flashed) {
    if (ctx.identity.emulatorHost)
      await driveDemoCar(app, {
        vehicleId: vehicle.id,
        tuneFileId: tune.id,
        idToken: await emulatorSignIn(ctx.identity.emulatorHost, customer.email, DEMO_PASSWORD),
      });
    else
      app.log.warn(
        "the demo car's flash history is made by signing in as the demo customer at the Auth emulator, which is not configured: skipped",
      );
  }
  await fleet(ctx);
}

/**
 * The demo car's weeks, played by the virtual car through the API: connected three weeks ago;
 * the demo tune flashed; ten days ago a flash that failed at block 1 when the battery sagged
 * (0x93, the ECU left in its bootloader), recovered half an hour later on a charger by writing
 * the stock read back; the tune again the next day; connected yesterday.
 *
 * The app's own clock dates the sessions and their steps (the virtual link takes a real link's
 * time per byte, so durations are a real flash's); what the portal stamps itself as it answers
 * (grants, bakes, snapshots, the last connect) is moved back afterwards by each episode's offset.
 */
async function driveDemoCar(app: FastifyInstance, demoCar: { vehicleId: string; tuneFileId: string; idToken: string }) {
  const portal = new InjectPortal(app, demoCar.idToken);
  const car = virtualDemoCar();
  const phone = { adapter: { kind: "virtual", firmware: "1.0" }, appVersion: "2.4.0" };
  const now = Date.now();
  const episodes: Array<{ daysAgo: number; play: (startAt: number) => Promise<void> }> = [];
  const connectAt = (daysAgo: number, volts = 12.6) =>
    episodes.push({ daysAgo, play: async () => void (await connect(portal, car, phone, volts)) });
  const flashTune = (daysAgo: number, fault?: Fault) =>
    episodes.push({
      daysAgo,
      play: async (startAt) => {
        const { vehicle } = await connect(portal, car, phone);
        const baked = await bake(portal, vehicle, demoCar.tuneFileId);
        await runFlash(
          portal,
          car,
          vehicle,
          phone,
          { kind: "tune", bakedTuneFileId: baked.id, sha256: baked.sha256 },
          { fault, startAt },
        );
      },
    });
  connectAt(21);
  flashTune(20);
  flashTune(10, { kind: "low-voltage", at: "block" });
  episodes.push({
    daysAgo: 10 - 0.02,
    play: async (startAt) => {
      const { vehicle } = await connect(portal, car, phone, 12.9);
      const failed = await lastFailed(portal, vehicle);
      if (!vehicle.stockDump || !failed)
        throw new Error("the demo car's recovery needs its stock read and the failed flash");
      const run = await runFlash(
        portal,
        car,
        vehicle,
        phone,
        { kind: "stock", sha256: vehicle.stockDump.sha256, recoversId: failed.id },
        { startAt },
      );
      if (!run.outcome.ok || !run.boots)
        throw new Error(
          `the demo car's recovery failed: ${run.outcome.ok ? "the ECU does not boot" : run.outcome.message}`,
        );
    },
  });
  flashTune(9);
  // A pull logged after the tune went back on: the demo customer's first data log, charted at once.
  episodes.push({
    daysAgo: 9 - 0.01,
    play: async () => {
      const { vehicle } = await connect(portal, car, phone);
      await portal.upload("data-logs", "third-gear-pull.csv", new TextEncoder().encode(pullLog(car)), {
        vehicleId: vehicle.id,
        title: "3rd gear pull after the tune",
      });
    },
  });
  connectAt(1, 12.5);

  const windows: Array<{ from: Date; to: Date; shiftMs: number }> = [];
  for (const episode of episodes) {
    const from = new Date();
    const startAt = now - episode.daysAgo * DAY;
    await episode.play(startAt);
    windows.push({ from, to: new Date(Date.now() + 1), shiftMs: from.getTime() - startAt });
  }
  await app.ctx.db.transaction(async (tx) => {
    for (const window of windows) await moveBack(tx, demoCar.vehicleId, window);
  });
}

/** Moves what the portal stamped during one episode (between `from` and `to`) back by `shiftMs`. */
async function moveBack(tx: Tx, vehicleId: string, { from, to, shiftMs }: { from: Date; to: Date; shiftMs: number }) {
  const back = (column: AnyColumn) => sql`${column} - (${shiftMs} * interval '1 millisecond')`;
  const during = (column: AnyColumn) => and(gte(column, from), lt(column, to));
  await tx
    .update(flashGrants)
    .set({
      createdAt: back(flashGrants.createdAt),
      usedAt: back(flashGrants.usedAt),
      expiresAt: back(flashGrants.expiresAt),
    })
    .where(and(eq(flashGrants.vehicleId, vehicleId), during(flashGrants.createdAt)));
  await tx
    .update(flashLogs)
    .set({ createdAt: back(flashLogs.createdAt), lastReportAt: back(flashLogs.lastReportAt) })
    .where(and(eq(flashLogs.vehicleId, vehicleId), during(flashLogs.createdAt)));
  await tx
    .update(bakedTuneFiles)
    .set({
      createdAt: back(bakedTuneFiles.createdAt),
      updatedAt: back(bakedTuneFiles.updatedAt),
      expiresAt: back(bakedTuneFiles.expiresAt),
    })
    .where(and(eq(bakedTuneFiles.vehicleId, vehicleId), during(bakedTuneFiles.createdAt)));
  await tx
    .update(vehicleSnapshots)
    .set({ recordedAt: back(vehicleSnapshots.recordedAt) })
    .where(and(eq(vehicleSnapshots.vehicleId, vehicleId), during(vehicleSnapshots.recordedAt)));
  await tx
    .update(userVehicles)
    .set({ lastConnectedAt: back(userVehicles.lastConnectedAt) })
    .where(and(eq(userVehicles.id, vehicleId), during(userVehicles.lastConnectedAt)));
}

/** Other customers' cars: months of sessions across firmwares, adapters and app versions, about 8 % failing. */
async function fleet(ctx: AppContext) {
  const [exists] = await ctx.db.select({ uid: users.uid }).from(users).where(eq(users.uid, FLEET_UID));
  if (exists) return;
  await ctx.db
    .insert(users)
    .values({ uid: FLEET_UID, email: "fleet@demo.example.com", displayName: "Demo fleet", role: "customer" });
  const families = [
    { firmwareId: "SC8S50", ecuFamily: "Simos18" },
    { firmwareId: "SC8F40", ecuFamily: "Simos18" },
    { firmwareId: "MED17A", ecuFamily: "MED17" },
    { firmwareId: "MG1CS3", ecuFamily: "MG1" },
  ];
  const cars = await ctx.db
    .insert(userVehicles)
    .values(
      Array.from({ length: 12 }, (_, i) => ({
        ownerUid: FLEET_UID,
        name: `Fleet car ${i + 1}`,
        vin: `WFLEET${String(i + 1).padStart(11, "0")}`,
        ecuSerial: `FLEET-${i + 1}`,
        softwareId: families[i % families.length].firmwareId,
        firmwareId: families[i % families.length].firmwareId,
      })),
    )
    .returning();
  const adapters = ["OBDLink MX+", "ENET", "Vgate iCar Pro", "virtual"];
  const steps: FlashStep[] = ["connecting", "security-access", "erasing", "block", "block", "verifying"];
  const nrcs = [0x72, 0x73, 0x35, 0x78, 0x93, 0x22];
  const rows = Array.from({ length: 400 }, (_, i) => {
    const car = cars[i % cars.length];
    const family = families[i % families.length];
    const daysAgo = (i * 37) % 180;
    const start = new Date(Date.now() - daysAgo * DAY - (i % 24) * 3_600_000);
    const roll = (i * 7919) % 100;
    const result =
      roll < 5 ? "failed" : roll < 7 ? "recovered" : roll < 8 ? "abandoned" : roll < 10 ? "aborted" : "success";
    const failing = result === "failed" || result === "recovered" || result === "abandoned";
    const durationMs = 60_000 + ((i * 104729) % 240_000);
    return {
      vehicleId: car.id,
      kind: (i % 7 === 0 ? "stock" : "tune") as "stock" | "tune",
      sha256: sha256(new TextEncoder().encode(`fleet-${i}`)),
      result: result as "success",
      reportedBy: FLEET_UID,
      flashedAt: start,
      endedAt: new Date(start.getTime() + durationMs),
      lastReportAt: new Date(start.getTime() + durationMs),
      durationMs,
      firmwareId: family.firmwareId,
      ecuFamily: family.ecuFamily,
      adapterKind: adapters[(i >> 2) % adapters.length],
      adapterFirmware: "5.6",
      appVersion: daysAgo > 120 ? "2.2.0" : daysAgo > 45 ? "2.3.1" : "2.4.0",
      batteryStartVolts: 12.2 + (i % 8) / 10,
      ...(failing && {
        failedStep: steps[i % steps.length],
        failedBlock: steps[i % steps.length] === "block" ? 1 : null,
        failedNrc: nrcs[i % nrcs.length],
      }),
    };
  });
  await ctx.db.insert(flashLogs).values(rows);
}
