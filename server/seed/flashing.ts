/**
 * The flashing demo: the demo firmware can be flashed (profile, one block, a bootloader, the
 * security-access secret), the demo customer's car has been connected and has a flash history
 * with one flash that failed mid-transfer and was recovered by writing the stock read back, and
 * a fleet of other customers' cars gives the flashing analytics months of sessions to show.
 * Each part is written only when it is missing, so a second start changes nothing.
 */
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Role } from "../../contracts/account";
import type { FlashStep } from "../../contracts/flash-logs";
import type { AppContext } from "../context";
import { firmwareSecrets, firmwareSupport, flashGrants, flashLogSteps, flashLogs, tuneFiles, userVehicles, users, vehicleSnapshots } from "../db/schema";
import { DEMO_TUNE_OPTIONS, DEMO_VIN } from "./tunes";
import { generateDemo } from "./generator";

export const DEMO_ECU_SERIAL = "DEMO-ECU-000001";
export const DEMO_FLASH_SECRET = "0x5EED5EED";
export const DEMO_FLASHING_PROFILE = {
  securityLevel: 0x11,
  seedKeyAlgorithm: "xor-rotate-32",
  requestCanId: 0x7e0,
  responseCanId: 0x7e8,
  p2TimeoutMs: 50,
  p2StarTimeoutMs: 5000,
  minBatteryVolts: 12,
};
const FLEET_UID = "demo-fleet";
const DAY = 86_400_000;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The steps of one flash of a single block as the app reports them, failing at `failAt` percent if given. */
function stepsOf(start: Date, options: { failAt?: number; nrc?: number } = {}) {
  const steps: Array<{ step: FlashStep; block?: number; percent?: number; status: "ok" | "failed"; nrc?: number; request?: string; response?: string; message?: string }> = [
    { step: "setup", status: "ok" },
    { step: "connecting", status: "ok", request: "1003", response: "5003003201F4" },
    { step: "security-access", status: "ok", request: "2711", response: "6711A1B2C3D4" },
    { step: "erasing", status: "ok", request: "3101FF00", response: "7101FF00" },
  ];
  for (const percent of [25, 50, 75, 100]) {
    if (options.failAt !== undefined && percent > options.failAt) {
      steps.push({ step: "block", block: 1, percent: options.failAt, status: "failed", nrc: options.nrc ?? 0x72, request: "36", response: `7F36${(options.nrc ?? 0x72).toString(16).toUpperCase()}`, message: "the ECU refused the block" });
      break;
    }
    steps.push({ step: "block", block: 1, percent, status: "ok" });
  }
  if (options.failAt === undefined) steps.push({ step: "verifying", status: "ok", request: "31010202", response: "71010202" }, { step: "dependencies", status: "ok" }, { step: "reset", status: "ok" }, { step: "done", status: "ok" });
  return steps.map((step, i) => ({ ...step, seq: i + 1, at: new Date(start.getTime() + i * 6_000), durationMs: 5_000 }));
}

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
      blocks: [{ name: "CAL", number: 1, baseAddress: imageSize / 2, length: imageSize / 2, fileOffset: imageSize / 2, transferSize: 0xffd }],
      bootloaderSha256,
      bootloaderSize: bootloader.length,
      bootloaderName: "demo-bootloader.bin",
    })
    .where(eq(firmwareSupport.id, record.id));
  const [secret] = await ctx.db.select().from(firmwareSecrets).where(and(eq(firmwareSecrets.firmwareId, firmwareId), eq(firmwareSecrets.securityLevel, 0x11)));
  if (!secret) await ctx.db.insert(firmwareSecrets).values({ firmwareId, label: "Demo security access (level 0x11)", securityLevel: 0x11, secret: ctx.secrets.seal(DEMO_FLASH_SECRET) });
}

export async function seedFlashing(ctx: AppContext, accounts: { uid: string; role: Role }[]) {
  const customer = accounts.find((a) => a.role === "customer")!;
  const dealer = accounts.find((a) => a.role === "dealer")!;
  const demo = generateDemo(DEMO_TUNE_OPTIONS);
  const firmwareId = demo.firmware.firmwareId;
  await enableDemoFlashing(ctx, firmwareId, demo.firmware.imageSize);

  const [vehicle] = await ctx.db.select().from(userVehicles).where(and(eq(userVehicles.ownerUid, customer.uid), eq(userVehicles.vin, DEMO_VIN)));
  if (vehicle && !vehicle.ecuSerial) {
    const identity = { ecuSerial: DEMO_ECU_SERIAL, softwareId: firmwareId, hardwareNumber: "DEMO-HW-1", bootloaderVersion: "DEMO-BL-2" };
    await ctx.db.update(userVehicles).set({ ...identity, lastConnectedAt: new Date(Date.now() - DAY), lastBatteryVolts: 12.6 }).where(eq(userVehicles.id, vehicle.id));
    await ctx.db.insert(vehicleSnapshots).values({ vehicleId: vehicle.id, kind: "connect", vin: DEMO_VIN, ...identity, firmwareId, batteryVolts: 12.6, faultCodes: [], adapter: { kind: "virtual", firmware: "1.0" }, appVersion: "2.4.0", recordedBy: customer.uid, recordedAt: new Date(Date.now() - 21 * DAY) });
    const [tune] = await ctx.db.select().from(tuneFiles).where(and(eq(tuneFiles.dealerUid, dealer.uid), eq(tuneFiles.title, demo.tune.title)));
    await demoHistory(ctx, { vehicleId: vehicle.id, customerUid: customer.uid, firmwareId, tune, tuneSha256: sha256(demo.tune.image), stockSha256: sha256(demo.stock) });
  }
  await fleet(ctx);
}

interface History {
  vehicleId: string;
  customerUid: string;
  firmwareId: string;
  tune: typeof tuneFiles.$inferSelect | undefined;
  tuneSha256: string;
  stockSha256: string;
}

/** A flash 20 days ago; one 10 days ago that failed mid-transfer, recovered at once by a stock write; the tune again the next day. */
async function demoHistory(ctx: AppContext, h: History) {
  const identity = { vin: DEMO_VIN, ecuSerial: DEMO_ECU_SERIAL, softwareId: h.firmwareId, hardwareNumber: "DEMO-HW-1", bootloaderVersion: "DEMO-BL-2", calibrationId: null };
  const session = async (daysAgo: number, kind: "tune" | "stock", outcome: { failAt?: number; recoversId?: string }) => {
    const start = new Date(Date.now() - daysAgo * DAY);
    const steps = stepsOf(start, { failAt: outcome.failAt });
    const end = new Date(steps[steps.length - 1].at.getTime() + 5_000);
    const written = kind === "tune" ? { sha256: h.tuneSha256, tuneFileId: h.tune?.id ?? null, tuneTitle: h.tune?.title ?? null, tuneVersion: h.tune ? 1 : null } : { sha256: h.stockSha256, tuneFileId: null, tuneTitle: null, tuneVersion: null };
    const [grant] = await ctx.db
      .insert(flashGrants)
      .values({ vehicleId: h.vehicleId, grantedTo: h.customerUid, kind, tuneFileId: written.tuneFileId, sha256: written.sha256, vin: DEMO_VIN, ecuSerial: DEMO_ECU_SERIAL, softwareId: h.firmwareId, firmwareId: h.firmwareId, batteryVolts: 12.6, expiresAt: new Date(start.getTime() + 15 * 60_000), usedAt: start, createdAt: start })
      .returning();
    const failed = outcome.failAt !== undefined;
    const [log] = await ctx.db
      .insert(flashLogs)
      .values({
        vehicleId: h.vehicleId,
        kind,
        ...written,
        result: failed ? "failed" : "success",
        message: failed ? "0x72 generalProgrammingFailure while writing block 1: the adapter lost power" : "",
        durationMs: end.getTime() - start.getTime(),
        flashedAt: start,
        endedAt: end,
        lastReportAt: end,
        reportedBy: h.customerUid,
        grantId: grant.id,
        recoversId: outcome.recoversId ?? null,
        firmwareId: h.firmwareId,
        ecuFamily: "DEMO-ECU",
        adapterKind: "virtual",
        adapterFirmware: "1.0",
        appVersion: "2.4.0",
        batteryStartVolts: 12.6,
        batteryEndVolts: failed ? 11.9 : 12.5,
        identityBefore: identity,
        identityAfter: failed ? null : identity,
        ...(failed && { failedStep: "block", failedBlock: 1, failedNrc: 0x72 }),
      })
      .returning();
    await ctx.db.insert(flashLogSteps).values(steps.map((step) => ({ flashLogId: log.id, ...step })));
    await ctx.db.insert(vehicleSnapshots).values({ vehicleId: h.vehicleId, kind: "before-flash", flashLogId: log.id, ...identity, firmwareId: h.firmwareId, batteryVolts: 12.6, adapter: { kind: "virtual", firmware: "1.0" }, appVersion: "2.4.0", recordedBy: h.customerUid, recordedAt: start });
    if (!failed) await ctx.db.insert(vehicleSnapshots).values({ vehicleId: h.vehicleId, kind: "after-flash", flashLogId: log.id, ...identity, firmwareId: h.firmwareId, batteryVolts: 12.5, adapter: { kind: "virtual", firmware: "1.0" }, appVersion: "2.4.0", recordedBy: h.customerUid, recordedAt: end });
    return log;
  };
  await session(20, "tune", {});
  const failed = await session(10, "tune", { failAt: 50 });
  await session(10 - 0.01, "stock", { recoversId: failed.id });
  await ctx.db.update(flashLogs).set({ result: "recovered" }).where(eq(flashLogs.id, failed.id));
  await session(9, "tune", {});
}

/** Other customers' cars: months of sessions across firmwares, adapters and app versions, about 8 % failing. */
async function fleet(ctx: AppContext) {
  const [exists] = await ctx.db.select({ uid: users.uid }).from(users).where(eq(users.uid, FLEET_UID));
  if (exists) return;
  await ctx.db.insert(users).values({ uid: FLEET_UID, email: "fleet@demo.example.com", displayName: "Demo fleet", role: "customer" });
  const families = [
    { firmwareId: "SC8S50", ecuFamily: "Simos18" },
    { firmwareId: "SC8F40", ecuFamily: "Simos18" },
    { firmwareId: "MED17A", ecuFamily: "MED17" },
    { firmwareId: "MG1CS3", ecuFamily: "MG1" },
  ];
  const cars = await ctx.db
    .insert(userVehicles)
    .values(Array.from({ length: 12 }, (_, i) => ({ ownerUid: FLEET_UID, name: `Fleet car ${i + 1}`, vin: `WFLEET${String(i + 1).padStart(11, "0")}`, ecuSerial: `FLEET-${i + 1}`, softwareId: families[i % families.length].firmwareId, firmwareId: families[i % families.length].firmwareId })))
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
    const result = roll < 5 ? "failed" : roll < 7 ? "recovered" : roll < 8 ? "abandoned" : roll < 10 ? "aborted" : "success";
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
      ...(failing && { failedStep: steps[i % steps.length], failedBlock: steps[i % steps.length] === "block" ? 1 : null, failedNrc: nrcs[i % nrcs.length] }),
    };
  });
  await ctx.db.insert(flashLogs).values(rows);
}
