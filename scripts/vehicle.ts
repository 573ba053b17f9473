/**
 * The virtual vehicle: plays the phone app, the OBD adapter and the demo car's ECU against a
 * running portal, as a person would from a terminal.
 *
 *   npm run vehicle -- [options] <command>      (npm run vehicle -- --help lists both)
 *
 * `flash` takes what the car's page hands over, the link or the bake's id, and flashes that bake;
 * it bakes only when given a tune instead. The car (identity and flash memory) is kept in
 * .data/virtual-vehicle/ between commands.
 */

import type { BakedTuneFile } from "../contracts/tune-files";
import type { Vehicle } from "../contracts/user-vehicles";
import type { StepReport } from "../domain/flashing/flasher";
import { FAULTS, type FaultKind } from "../domain/flashing/virtual-link";
import { DEMO_PASSWORD } from "../server/seed";
import {
  bake,
  type CarState,
  connect,
  demoCar,
  describeStep,
  type Fault,
  type Flashing,
  lastFailed,
  pullLog,
  readFlash,
  runFlash,
} from "../server/seed/virtual-car/phone-app";
import { type FlashTarget, parseVehicleArgs, USAGE, type VehicleOptions } from "./vehicle/args";
import { carFile, loadCar, saveCar } from "./vehicle/car";
import { Portal } from "./vehicle/portal";

const args = parseVehicleArgs(process.argv.slice(2), {
  url: process.env.PORTAL_URL ?? "http://127.0.0.1:8080",
  emulator: process.env.FIREBASE_AUTH_EMULATOR_HOST ?? "127.0.0.1:9099",
  password: DEMO_PASSWORD,
  dataDir: process.env.DATA_DIR ?? ".data",
});
const APP = { adapter: { kind: "virtual", firmware: "1.0" }, appVersion: "virtual-1.0" };

const say = (line: string) => process.stdout.write(`${line}\n`);

/** Flashes with every step on screen, and says how it ended and what the car does now. */
async function flashAndTell(
  portal: Portal,
  car: CarState,
  vehicle: Vehicle,
  what: Flashing,
  fault: Fault | null,
  options: VehicleOptions,
): Promise<void> {
  const run = await runFlash(portal, car, vehicle, APP, what, {
    fault,
    onStep: (step) => say(`  ${describeStep(step)}`),
  });
  await saveCar(carFile(options.dataDir, options.email), car);
  if (!run.session) {
    say(`The flash did not start: ${run.outcome.ok ? "" : run.outcome.message}`);
    process.exitCode = 1;
    return;
  }
  say(`Pre-flight passed (${run.checks} checks); session ${run.session.id}`);
  if (run.outcome.ok) {
    say("Flash complete: the car starts.");
    return;
  }
  const { step, block, message } = run.outcome;
  say(
    `Flash failed at ${step === "block" ? "" : `${step} `}${block !== null ? `block ${block}` : ""}: ${message}. The car ${run.boots ? "still starts" : "waits in its bootloader: recover with back-to-stock or flash --resume"}.`,
  );
  process.exitCode = 1;
}

function faultOf(flag: string | undefined): Fault | null {
  if (!flag) return null;
  const [kind, at = "block"] = flag.split("@");
  if (!(FAULTS as readonly string[]).includes(kind)) throw new Error(`--fault: one of ${FAULTS.join(", ")}`);
  return { kind: kind as FaultKind, at: at as StepReport["step"] };
}

/** The bake (or stock read) a flash writes, from what the page handed over or a tune baked here. */
async function flashingOf(portal: Portal, vehicle: Vehicle, target: FlashTarget, resume: boolean): Promise<Flashing> {
  const failed = await lastFailed(portal, vehicle);
  const resumed =
    resume && failed?.failedBlock !== null && failed?.failedBlock !== undefined
      ? { recoversId: failed.id, resumeFromBlock: failed.failedBlock }
      : {};
  if (target.kind === "handover") {
    const { handover } = target;
    if (handover.vehicleId !== vehicle.id)
      throw new Error(`the link is for vehicle ${handover.vehicleId}; the car connected is ${vehicle.id}`);
    const named = {
      ...(handover.recoversId && { recoversId: handover.recoversId }),
      ...(handover.resumeFromBlock !== undefined && { resumeFromBlock: handover.resumeFromBlock }),
    };
    if (handover.kind === "stock") {
      if (!vehicle.stockDump) throw new Error("the car has no stock read: run read-stock first");
      return { kind: "stock", sha256: vehicle.stockDump.sha256, ...named };
    }
    if (!handover.bakedTuneFileId) throw new Error("the link names no bake");
    return { ...(await bakeOf(portal, vehicle, handover.bakedTuneFileId)), ...resumed, ...named };
  }
  if (target.kind === "bake") return { ...(await bakeOf(portal, vehicle, target.bakedTuneFileId)), ...resumed };
  const baked = await bake(portal, vehicle, target.tuneFileId);
  say(`Baked ${baked.id} (${baked.sha256.slice(0, 16)}…)`);
  return { kind: "tune", bakedTuneFileId: baked.id, sha256: baked.sha256, ...resumed };
}

/** A bake the page made, read as the app reads it (its bytes' SHA-256 comes with the grant's download). */
async function bakeOf(portal: Portal, vehicle: Vehicle, id: string): Promise<Flashing> {
  const baked = await portal.call<BakedTuneFile>("GET", `baked-tune-files/${id}`);
  if (baked.vehicleId !== vehicle.id) throw new Error(`bake ${id} is for another vehicle (${baked.vehicleId})`);
  say(`Flashing bake ${baked.id} (${baked.sha256.slice(0, 16)}…)`);
  return { kind: "tune", bakedTuneFileId: baked.id, sha256: baked.sha256 };
}

async function main() {
  if (args.kind === "help") {
    say(USAGE);
    return;
  }
  if (args.kind === "error") {
    process.stderr.write(`npm run vehicle: ${args.message}\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const { command, options, target } = args;
  const fault = faultOf(options.fault);
  const file = carFile(options.dataDir, options.email);
  const car = await loadCar(file, demoCar);
  const portal = new Portal({
    url: options.url,
    emulatorHost: options.emulator,
    email: options.email,
    password: options.password,
  });
  await portal.signIn();
  const { vehicle, created } = await connect(portal, car, APP);
  say(
    `${created ? "New vehicle" : "Vehicle"} ${vehicle.name} (${vehicle.id}): ${vehicle.support.state}${vehicle.support.flashing ? ", flashing supported" : ""}${vehicle.support.reason ? ` — ${vehicle.support.reason}` : ""}`,
  );
  await saveCar(file, car);
  if (command === "read-stock") {
    const image = readFlash(car);
    const stored = await portal.upload<{ firmwareId: string | null }>(
      `user-vehicles/${vehicle.id}/upload-tune-dump/0`,
      "ecu-read.bin",
      image,
    );
    say(`Stock read uploaded: ${image.length} bytes, firmware ${stored.firmwareId ?? "unknown"}`);
  } else if (command === "flash" && target) {
    await flashAndTell(portal, car, vehicle, await flashingOf(portal, vehicle, target, options.resume), fault, options);
  } else if (command === "back-to-stock") {
    if (!vehicle.stockDump) throw new Error("the car has no stock read: run read-stock first");
    const failed = await lastFailed(portal, vehicle);
    await flashAndTell(
      portal,
      car,
      vehicle,
      { kind: "stock", sha256: vehicle.stockDump.sha256, ...(failed && { recoversId: failed.id }) },
      fault,
      options,
    );
  } else if (command === "log") {
    const log = await portal.upload<{ id: string; title: string }>(
      "data-logs",
      "virtual-pull.csv",
      new TextEncoder().encode(pullLog(car)),
      { vehicleId: vehicle.id, title: "Virtual car: 3rd gear pull" },
    );
    say(`Data log uploaded: ${log.title} (${log.id})`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
