/**
 * The virtual vehicle: plays the phone app, the OBD adapter and the demo car's ECU against a
 * running portal, as a person would from a terminal.
 *
 *   npm run vehicle -- [--url http://127.0.0.1:8080] [--email customer@example.com] [--password tune-demo-1] <command>
 *
 * Commands:
 *   connect                     the app meets the car: VIN and ECU identity, adapter, battery
 *   read-stock                  reads the ECU's flash (UDS 0x23) and uploads it as the car's stock read
 *   flash --tune <id>           bakes the tune onto the stock read, runs the pre-flight (the portal answers
 *                               the key for the ECU's seed), and flashes it, reporting every step
 *   back-to-stock               writes the stock read back (recovering the last failed flash, if any)
 *   log                         drives a pull and uploads the data log; boost follows the flashed boost map
 *   --fault <kind>@<step>       arms a fault for flash/back-to-stock: pending-storm, dropped-response,
 *                               wrong-key, wrong-counter, corrupt-block, power-loss, low-voltage
 *   --resume                    with flash: resume the last failed flash from its failed block
 *
 * The car (identity and flash memory) is kept in .data/virtual-vehicle/ between commands.
 */
import { parseArgs } from "node:util";
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
import { carFile, loadCar, saveCar } from "./vehicle/car";
import { Portal } from "./vehicle/portal";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: "string", default: process.env.PORTAL_URL ?? "http://127.0.0.1:8080" },
    emulator: { type: "string", default: process.env.FIREBASE_AUTH_EMULATOR_HOST ?? "127.0.0.1:9099" },
    email: { type: "string", default: "customer@example.com" },
    password: { type: "string", default: DEMO_PASSWORD },
    tune: { type: "string" },
    fault: { type: "string" },
    resume: { type: "boolean", default: false },
    "data-dir": { type: "string", default: process.env.DATA_DIR ?? ".data" },
  },
});
const command = positionals[0];
const APP = { adapter: { kind: "virtual", firmware: "1.0" }, appVersion: "virtual-1.0" };

const say = (line: string) => process.stdout.write(`${line}\n`);

/** Flashes with every step on screen, and says how it ended and what the car does now. */
async function flashAndTell(
  portal: Portal,
  car: CarState,
  vehicle: Vehicle,
  what: Flashing,
  fault: Fault | null,
): Promise<void> {
  const run = await runFlash(portal, car, vehicle, APP, what, {
    fault,
    onStep: (step) => say(`  ${describeStep(step)}`),
  });
  await saveCar(carFile(values["data-dir"], values.email), car);
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

async function main() {
  if (!command || !["connect", "read-stock", "flash", "back-to-stock", "log"].includes(command)) {
    say(
      "usage: npm run vehicle -- [--email …] [--password …] connect | read-stock | flash --tune <id> [--resume] | back-to-stock | log  [--fault <kind>@<step>]",
    );
    process.exitCode = 2;
    return;
  }
  const fault = faultOf(values.fault);
  const file = carFile(values["data-dir"], values.email);
  const car = await loadCar(file, demoCar);
  const portal = new Portal({
    url: values.url,
    emulatorHost: values.emulator,
    email: values.email,
    password: values.password,
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
  } else if (command === "flash") {
    if (!values.tune) throw new Error("flash needs --tune <tune file id>");
    const failed = await lastFailed(portal, vehicle);
    const baked = await bake(portal, vehicle, values.tune);
    say(`Baked ${baked.id} (${baked.sha256.slice(0, 16)}…)`);
    const resume =
      values.resume && failed?.failedBlock !== null && failed?.failedBlock !== undefined
        ? { recoversId: failed.id, resumeFromBlock: failed.failedBlock }
        : {};
    await flashAndTell(
      portal,
      car,
      vehicle,
      { kind: "tune", bakedTuneFileId: baked.id, sha256: baked.sha256, ...resume },
      fault,
    );
  } else if (command === "back-to-stock") {
    if (!vehicle.stockDump) throw new Error("the car has no stock read: run read-stock first");
    const failed = await lastFailed(portal, vehicle);
    await flashAndTell(
      portal,
      car,
      vehicle,
      { kind: "stock", sha256: vehicle.stockDump.sha256, ...(failed && { recoversId: failed.id }) },
      fault,
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
