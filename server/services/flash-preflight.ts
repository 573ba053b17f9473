/**
 * The pre-flight before any write, in the order of `preflightChecks`: the
 * caller owns the car; what the app reads now (VIN, ECU serial, software id)
 * is the car's and the file's; the file is licensed for the car (a bake of a
 * tune bought for it, or its own stock read: back to stock is always
 * allowed); the bytes are that file; its checksums verify; the battery is
 * above the family's minimum; and the firmware can be flashed (profile,
 * blocks, a stored security-access secret). Most bricked ECUs come from a
 * wrong file, a wrong step order or a power problem (domain.md).
 */
import { and, eq, gt, isNull, or } from "drizzle-orm";
import { type FlashBlock, type FlashingProfile, flashingProfileSchema } from "../../contracts/firmware-support";
import {
  DEFAULT_MIN_BATTERY_VOLTS,
  type FlashAuthentication,
  type PreflightCheck,
  preflightChecks,
} from "../../contracts/flash-logs";
import type { ChecksumScheme } from "../../contracts/tune-definition";
import type { AppContext } from "../context";
import { bakedTuneFiles, firmwareSecrets, firmwareSupport, tuneFilePurchases, tuneFiles } from "../db/schema";
import { Refusal } from "./errors";
import { verifyAll } from "./tune-engine";
import type { VehicleRow } from "./vehicles";

export interface PreflightResult {
  check: PreflightCheck;
  ok: boolean;
  message: string;
}

/** A 409 naming the first check that failed, with every result so far (`data.check`, `data.checks`). */
export class PreflightRefused extends Refusal {
  constructor(
    readonly check: PreflightCheck,
    message: string,
    readonly checks: PreflightResult[],
  ) {
    super("conflict", "Pre-flight failed", `${check}: ${message}`, { check, checks, order: preflightChecks });
  }
}

export interface PreflightPassed {
  checks: PreflightResult[];
  kind: "tune" | "stock";
  bakedTuneFileId: string | null;
  tuneFileId: string | null;
  sha256: string;
  firmwareId: string;
  ecuFamily: string;
  profile: FlashingProfile;
  blocks: FlashBlock[];
  /** The stored security-access secret for the profile's level, opened. */
  secret: string;
  firmwareRecordId: string;
  hasBootloader: boolean;
}

type Body = Omit<FlashAuthentication, "seed"> & { sha256: string };

type Pass = (check: PreflightCheck, message: string) => void;
type Fail = (check: PreflightCheck, message: string) => never;

/** What will be written. */
interface FileToWrite {
  kind: "tune" | "stock";
  sha256: string;
  firmwareId: string;
  bakedTuneFileId: string | null;
  tuneFileId: string | null;
}

/** The owner, and that the car reads now as the vehicle was connected; answers the vehicle's firmware. */
function checkCar(vehicle: VehicleRow, owner: boolean, body: Body, pass: Pass, fail: Fail): string {
  if (!owner) fail("owner", "only the vehicle's owner flashes it, from the app signed in as them");
  pass("owner", "the caller owns the vehicle");

  if (!vehicle.vin || body.vin !== vehicle.vin)
    fail("vin", `the car reads VIN ${body.vin}; the vehicle is ${vehicle.vin ?? "without a VIN (connect it first)"}`);
  pass("vin", `VIN ${body.vin}`);
  if (!vehicle.ecuSerial || body.ecu.ecuSerial !== vehicle.ecuSerial) {
    fail(
      "ecu-serial",
      `the ECU reads serial ${body.ecu.ecuSerial}; the vehicle's ECU is ${vehicle.ecuSerial ?? "unknown (connect it first)"}: was the ECU swapped?`,
    );
  }
  pass("ecu-serial", `ECU serial ${body.ecu.ecuSerial}`);
  if (!vehicle.softwareId || body.ecu.softwareId !== vehicle.softwareId) {
    fail(
      "software-id",
      `the ECU runs ${body.ecu.softwareId}; the vehicle was connected with ${vehicle.softwareId ?? "no software id"}: connect it again`,
    );
  }
  if (!vehicle.firmwareId)
    fail("software-id", `software ${body.ecu.softwareId} is not a firmware the catalogue supports`);
  return vehicle.firmwareId as string;
}

/** The licence of the tune a file was baked from, bound to the car as it was bought for. */
async function checkTuneLicence(
  ctx: AppContext,
  tuneFileId: string,
  vehicle: VehicleRow,
  body: Body,
  pass: Pass,
  fail: Fail,
) {
  const [licence] = await ctx.db
    .select({
      id: tuneFilePurchases.id,
      title: tuneFiles.title,
      vin: tuneFilePurchases.vin,
      ecuSerial: tuneFilePurchases.ecuSerial,
      softwareId: tuneFilePurchases.softwareId,
    })
    .from(tuneFilePurchases)
    .innerJoin(tuneFiles, eq(tuneFiles.id, tuneFilePurchases.tuneFileId))
    .where(and(eq(tuneFilePurchases.tuneFileId, tuneFileId), eq(tuneFilePurchases.vehicleId, vehicle.id)));
  if (!licence)
    fail("licence", "the tune this file was baked from is not licensed for this vehicle: buy it for this car first");
  // Bound to the car as it was bought for: another ECU or software needs another licence.
  const bound = [
    licence.vin && licence.vin !== body.vin && `VIN ${licence.vin}`,
    licence.ecuSerial && licence.ecuSerial !== body.ecu.ecuSerial && `ECU serial ${licence.ecuSerial}`,
    licence.softwareId && licence.softwareId !== body.ecu.softwareId && `software ${licence.softwareId}`,
  ].filter(Boolean);
  if (bound.length)
    fail(
      "licence",
      `"${licence.title}" is licensed for ${bound.join(", ")}, not what the car reads now: ask the dealer to move the licence`,
    );
  pass("licence", `"${licence.title}" is licensed for this vehicle`);
}

/** What will be written, and whether this car may have it: a live bake of a licensed tune, or its stock read. */
async function fileToWrite(
  ctx: AppContext,
  vehicle: VehicleRow,
  body: Body,
  firmwareId: string,
  pass: Pass,
  fail: Fail,
): Promise<FileToWrite> {
  if (body.kind !== "tune") {
    pass("software-id", `software ${body.ecu.softwareId} is firmware ${firmwareId}`);
    if (!vehicle.stockDumpSha256)
      fail("licence", "the vehicle has no stock read to go back to: read and upload it first");
    pass("licence", "back to stock is always allowed");
    return {
      kind: "stock",
      sha256: vehicle.stockDumpSha256 as string,
      firmwareId,
      bakedTuneFileId: null,
      tuneFileId: null,
    };
  }
  const [baked] = await ctx.db
    .select()
    .from(bakedTuneFiles)
    .where(
      and(
        eq(bakedTuneFiles.id, body.bakedTuneFileId as string),
        or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date())),
      ),
    );
  if (!baked || baked.vehicleId !== vehicle.id)
    fail(
      "licence",
      `no baked file ${body.bakedTuneFileId} for this vehicle (a preview expires after a while: bake again)`,
    );
  if (baked.firmwareId !== firmwareId)
    fail("software-id", `the file is for ${baked.firmwareId}; the car runs ${firmwareId}`);
  pass("software-id", `software ${body.ecu.softwareId} is firmware ${firmwareId}, the file's`);
  if (baked.tuneFileId) await checkTuneLicence(ctx, baked.tuneFileId, vehicle, body, pass, fail);
  else pass("licence", "a file a dealer baked for this vehicle");
  return {
    kind: "tune",
    sha256: baked.sha256,
    firmwareId: baked.firmwareId,
    bakedTuneFileId: baked.id,
    tuneFileId: baked.tuneFileId,
  };
}

/** Runs the checks in order and throws a 409 naming the first that failed, with every result so far. */
export async function preflight(
  ctx: AppContext,
  vehicle: VehicleRow,
  owner: boolean,
  body: Body,
): Promise<PreflightPassed> {
  const { db } = ctx;
  const checks: PreflightResult[] = [];
  const pass: Pass = (check, message) => void checks.push({ check, ok: true, message });
  const fail: Fail = (check, message) => {
    checks.push({ check, ok: false, message });
    throw new PreflightRefused(check, message, checks);
  };

  const firmwareId = checkCar(vehicle, owner, body, pass, fail);
  const file = await fileToWrite(ctx, vehicle, body, firmwareId, pass, fail);
  if (body.sha256 !== file.sha256)
    fail(
      "file",
      `the app would write bytes with SHA-256 ${body.sha256}, not the ${file.kind === "tune" ? "baked file" : "stock read"} (${file.sha256})`,
    );
  pass("file", `SHA-256 ${file.sha256}`);

  const [record] = await db.select().from(firmwareSupport).where(eq(firmwareSupport.firmwareId, firmwareId));
  if (!record) fail("software-id", `firmware ${firmwareId} is no longer in the catalogue`);
  const image = new Uint8Array(await ctx.blobs.read(file.sha256));
  const bad = verifyAll(image, record.checksums as ChecksumScheme[]).filter((result) => !result.valid);
  if (bad.length)
    fail(
      "checksums",
      bad.map((result) => `${result.name}: stored ${result.stored}, calculated ${result.computed}`).join("; "),
    );
  pass("checksums", `${(record.checksums as ChecksumScheme[]).length} checksum(s) verify`);

  const profile = flashingProfileSchema.safeParse(record.flashing);
  const minimum = profile.success ? profile.data.minBatteryVolts : DEFAULT_MIN_BATTERY_VOLTS;
  if (body.batteryVolts < minimum)
    fail(
      "battery",
      `the battery reads ${body.batteryVolts.toFixed(1)} V, below the ${minimum.toFixed(1)} V minimum: connect a charger and try again`,
    );
  pass("battery", `${body.batteryVolts.toFixed(1)} V (minimum ${minimum.toFixed(1)} V)`);

  const blocks = (record.blocks ?? []) as FlashBlock[];
  if (!record.flashingEnabled || !profile.success || blocks.length === 0)
    fail("flashing-support", `flashing of ${firmwareId} is not supported yet`);
  const level = (profile.data as FlashingProfile).securityLevel;
  const [secret] = await db
    .select({ secret: firmwareSecrets.secret })
    .from(firmwareSecrets)
    .where(and(eq(firmwareSecrets.firmwareId, firmwareId), eq(firmwareSecrets.securityLevel, level)))
    .limit(1);
  if (!secret)
    fail("flashing-support", `no security-access secret is stored for ${firmwareId} level 0x${level.toString(16)}`);
  pass("flashing-support", `${blocks.length} block(s), security level 0x${level.toString(16)}`);

  return {
    checks,
    ...file,
    firmwareId,
    ecuFamily: record.ecuFamily,
    profile: profile.data as FlashingProfile,
    blocks,
    secret: ctx.secrets.open(secret.secret),
    firmwareRecordId: record.id,
    hasBootloader: Boolean(record.bootloaderSha256),
  };
}
