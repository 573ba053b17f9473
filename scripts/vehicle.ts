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
import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import type { FlashAuthenticationAnswer, FlashLog } from "../contracts/flash-logs";
import type { BakedTuneFile } from "../contracts/tune-files";
import type { Vehicle, VehicleConnected } from "../contracts/user-vehicles";
import { type FlashBlockData, type StepReport, flash } from "../domain/flashing/flasher";
import { VirtualEcu } from "../domain/flashing/uds-ecu";
import { FAULTS, type FaultKind, VirtualLink, manualClock } from "../domain/flashing/virtual-link";
import { readItem } from "../domain/tune/maps";
import { DEMO_PASSWORD } from "../server/seed";
import { DEMO_ECU_SERIAL, DEMO_FLASHING_PROFILE, DEMO_FLASH_SECRET } from "../server/seed/flashing";
import { generateDemo } from "../server/seed/generator";
import { DEMO_TUNE_OPTIONS, DEMO_VIN } from "../server/seed/tunes";
import { type CarState, carFile, loadCar, saveCar } from "./vehicle/car";
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
const demo = generateDemo(DEMO_TUNE_OPTIONS);
const half = demo.firmware.imageSize / 2;
const ECU_BLOCKS = [{ number: 1, baseAddress: half, length: half }];
const APP = { adapter: { kind: "virtual", firmware: "1.0" }, appVersion: "virtual-1.0" };
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex").toUpperCase();

const say = (line: string) => process.stdout.write(`${line}\n`);

function ecuOf(car: CarState, clock = manualClock(Date.now())) {
  const ecu = new VirtualEcu({
    identity: car.identity,
    blocks: ECU_BLOCKS,
    memory: car.memory,
    seedKeyAlgorithm: DEMO_FLASHING_PROFILE.seedKeyAlgorithm,
    secret: DEMO_FLASH_SECRET,
    securityLevel: DEMO_FLASHING_PROFILE.securityLevel,
    now: clock.now,
  });
  ecu.applicationValid = car.applicationValid;
  return { ecu, clock };
}

async function connect(portal: Portal, car: CarState): Promise<Vehicle> {
  const answer = await portal.call<VehicleConnected>("POST", "user-vehicles/connect", {
    vin: car.identity.vin,
    ecu: { softwareId: car.identity.softwareId, ecuSerial: car.identity.ecuSerial, hardwareNumber: car.identity.hardwareNumber, bootloaderVersion: car.identity.bootloaderVersion },
    ...APP,
    batteryVolts: 12.6,
  });
  const { vehicle } = answer;
  say(`${answer.created ? "New vehicle" : "Vehicle"} ${vehicle.name} (${vehicle.id}): ${vehicle.support.state}${vehicle.support.flashing ? ", flashing supported" : ""}${vehicle.support.reason ? ` — ${vehicle.support.reason}` : ""}`);
  return vehicle;
}

/** Reads the whole flash with ReadMemoryByAddress, 4 KiB at a time. */
function readFlash(ecu: VirtualEcu, size: number): Uint8Array {
  const image = new Uint8Array(size);
  for (let address = 0; address < size; address += 0xfff) {
    const length = Math.min(0xfff, size - address);
    const [answer] = ecu.request(Uint8Array.of(0x23, 0x24, address >>> 24, (address >>> 16) & 0xff, (address >>> 8) & 0xff, address & 0xff, length >>> 8, length & 0xff));
    if (answer[0] !== 0x63) throw new Error(`reading 0x${address.toString(16)} failed: ${hex(answer)}`);
    image.set(answer.subarray(1), address);
  }
  return image;
}

interface Flashing {
  kind: "tune" | "stock";
  bakedTuneFileId?: string;
  sha256: string;
  recoversId?: string;
  resumeFromBlock?: number;
}

/** The app's flash: pre-flight with the ECU's seed, the session, every step reported, the end. */
async function runFlash(portal: Portal, car: CarState, vehicle: Vehicle, what: Flashing, fault: { kind: FaultKind; at: StepReport["step"] } | null): Promise<boolean> {
  const { ecu, clock } = ecuOf(car);
  const link = new VirtualLink(ecu, clock);
  if (fault) link.arm(fault);
  let session: FlashLog | null = null;
  let blocks: FlashBlockData[] = [];
  const pending: StepReport[] = [];
  const post = async () => {
    if (!session || pending.length === 0) return;
    await portal.call("POST", `user-vehicles/${vehicle.id}/flash-logs/${session.id}/steps`, { steps: pending.splice(0) });
  };
  const outcome = await flash(
    link,
    { blocks: () => blocks, securityLevel: DEMO_FLASHING_PROFILE.securityLevel, resumeFromBlock: what.resumeFromBlock },
    {
      now: () => new Date(),
      report: (step) => {
        pending.push(step);
        say(`  ${step.step}${step.block !== undefined ? ` ${step.block}` : ""}${step.percent !== undefined ? ` ${step.percent} %` : ""} ${step.status}${step.nrc !== undefined ? ` (0x${step.nrc.toString(16)})` : ""}${step.message ? ` — ${step.message}` : ""}`);
      },
      key: async (seed) => {
        // The portal runs the pre-flight and answers the key; the first grant starts the session.
        const granted = await portal.call<FlashAuthenticationAnswer>("POST", `user-vehicles/${vehicle.id}/flash-authentication`, {
          kind: what.kind,
          ...(what.bakedTuneFileId && { bakedTuneFileId: what.bakedTuneFileId }),
          vin: car.identity.vin,
          ecu: { softwareId: car.identity.softwareId, ecuSerial: car.identity.ecuSerial },
          batteryVolts: ecu.batteryVolts,
          sha256: what.sha256,
          seed: hex(seed),
        });
        if (!session) {
          const file = await fileOf(portal, vehicle, what, granted.grant.token);
          blocks = granted.blocks.map((b) => ({ number: b.number, baseAddress: b.baseAddress, data: file.slice(b.fileOffset, b.fileOffset + b.length) }));
          session = await portal.call<FlashLog>("POST", `user-vehicles/${vehicle.id}/flash-logs`, {
            grant: granted.grant.token,
            vin: car.identity.vin,
            ecu: { softwareId: car.identity.softwareId, ecuSerial: car.identity.ecuSerial },
            ...APP,
            batteryVolts: ecu.batteryVolts,
            ...(what.recoversId && { recoversId: what.recoversId }),
            ...(what.resumeFromBlock !== undefined && { resumeFromBlock: what.resumeFromBlock }),
          });
          say(`Pre-flight passed (${granted.checks.length} checks); session ${session.id}`);
        }
        await post();
        return Uint8Array.from(Buffer.from(granted.key, "hex"));
      },
    },
  );
  car.applicationValid = ecu.boots();
  await saveCar(carFile(values["data-dir"], values.email), car);
  if (!session) {
    say(`The flash did not start: ${outcome.ok ? "" : outcome.message}`);
    return false;
  }
  const started: FlashLog = session;
  await post();
  const identity = { softwareId: car.identity.softwareId, ecuSerial: car.identity.ecuSerial };
  await portal.call("POST", `user-vehicles/${vehicle.id}/flash-logs/${started.id}/end`, outcome.ok ? { result: "success", ecu: identity, batteryVolts: ecu.batteryVolts } : { result: "failed", message: outcome.message });
  say(outcome.ok ? "Flash complete: the car starts." : `Flash failed at ${outcome.step === "block" ? "" : `${outcome.step} `}${outcome.block !== null ? `block ${outcome.block}` : ""}: ${outcome.message}. The car ${ecu.boots() ? "still starts" : "waits in its bootloader: recover with back-to-stock or flash --resume"}.`);
  return outcome.ok;
}

/** The bytes to write: the stock read, or the bake (read with the grant, which a protected tune needs). */
async function fileOf(portal: Portal, vehicle: Vehicle, what: Flashing, grant: string): Promise<Uint8Array> {
  const fileId = what.kind === "stock" ? "stock-read" : (what.bakedTuneFileId as string);
  const bytes = await portal.download(`user-vehicles/${vehicle.id}/attach-file/${fileId}`, { "x-flash-grant": grant });
  if (sha256(bytes) !== what.sha256) throw new Error(`the downloaded file's SHA-256 is not ${what.sha256}`);
  return bytes;
}

async function lastFailed(portal: Portal, vehicle: Vehicle): Promise<FlashLog | null> {
  const history = await portal.call<{ data: FlashLog[] }>("GET", `user-vehicles/${vehicle.id}/flash-logs?pageSize=1`);
  const [last] = history.data;
  return last && (last.result === "failed" || last.result === "abandoned") ? last : null;
}

/** A full-throttle pull from 2,000 to 6,500 rpm; boost follows the boost target the ECU holds. */
function pullLog(car: CarState): string {
  const item = demo.firmware.definition.items.find((i) => i.id === "boost_target");
  if (!item) throw new Error("the demo definition has no boost_target map");
  const map = readItem(car.memory, item);
  const rpmAxis = map.y && "values" in map.y ? map.y.values : [];
  const loadCol = map.cols - 1;
  const target = (rpm: number) => {
    let row = 0;
    while (row < rpmAxis.length - 2 && rpm > rpmAxis[row + 1]) row++;
    const [r0, r1] = [rpmAxis[row], rpmAxis[row + 1]];
    const t = Math.min(1, Math.max(0, (rpm - r0) / (r1 - r0)));
    return map.values[row * map.cols + loadCol] * (1 - t) + map.values[(row + 1) * map.cols + loadCol] * t;
  };
  const lines = ["Time (s),Engine speed (rpm),Boost target (psi),Boost (psi)"];
  for (let i = 0; i <= 200; i++) {
    const rpm = 2000 + i * 22.5;
    const want = target(rpm);
    // Spool: the turbo reaches the target from 3,000 rpm; a small ripple after that.
    const got = rpm < 3000 ? want * ((rpm - 2000) / 1000) : want + Math.sin(i / 3) * 0.15;
    lines.push(`${(i * 0.05).toFixed(2)},${rpm.toFixed(0)},${want.toFixed(2)},${got.toFixed(2)}`);
  }
  return `${lines.join("\n")}\n`;
}

async function main() {
  if (!command || !["connect", "read-stock", "flash", "back-to-stock", "log"].includes(command)) {
    say("usage: npm run vehicle -- [--email …] [--password …] connect | read-stock | flash --tune <id> [--resume] | back-to-stock | log  [--fault <kind>@<step>]");
    process.exitCode = 2;
    return;
  }
  let fault: { kind: FaultKind; at: StepReport["step"] } | null = null;
  if (values.fault) {
    const [kind, at = "block"] = values.fault.split("@");
    if (!(FAULTS as readonly string[]).includes(kind)) throw new Error(`--fault: one of ${FAULTS.join(", ")}`);
    fault = { kind: kind as FaultKind, at: at as StepReport["step"] };
  }
  const file = carFile(values["data-dir"], values.email);
  const car = await loadCar(file, () => ({
    identity: { vin: DEMO_VIN, ecuSerial: DEMO_ECU_SERIAL, softwareId: demo.firmware.firmwareId, hardwareNumber: "DEMO-HW-1", bootloaderVersion: "DEMO-BL-2" },
    memory: demo.stock.slice(),
    applicationValid: true,
  }));
  const portal = new Portal({ url: values.url, emulatorHost: values.emulator, email: values.email, password: values.password });
  await portal.signIn();
  const vehicle = await connect(portal, car);
  await saveCar(file, car);
  if (command === "read-stock") {
    const { ecu } = ecuOf(car);
    const image = readFlash(ecu, car.memory.length);
    const stored = await portal.upload<{ firmwareId: string | null }>(`user-vehicles/${vehicle.id}/upload-tune-dump/0`, "ecu-read.bin", image);
    say(`Stock read uploaded: ${image.length} bytes, firmware ${stored.firmwareId ?? "unknown"}`);
  } else if (command === "flash") {
    if (!values.tune) throw new Error("flash needs --tune <tune file id>");
    const failed = await lastFailed(portal, vehicle);
    const bake = await portal.call<BakedTuneFile>("POST", `user-vehicles/${vehicle.id}/temp-bake/0`, { tuneFileId: values.tune, patchIds: [] });
    say(`Baked ${bake.id} (${bake.sha256.slice(0, 16)}…)`);
    const resume = values.resume && failed?.failedBlock !== null && failed?.failedBlock !== undefined ? { recoversId: failed.id, resumeFromBlock: failed.failedBlock } : {};
    await runFlash(portal, car, vehicle, { kind: "tune", bakedTuneFileId: bake.id, sha256: bake.sha256, ...resume }, fault);
  } else if (command === "back-to-stock") {
    const seen = await portal.call<Vehicle>("GET", `user-vehicles/${vehicle.id}`);
    if (!seen.stockDump) throw new Error("the car has no stock read: run read-stock first");
    const failed = await lastFailed(portal, vehicle);
    await runFlash(portal, car, vehicle, { kind: "stock", sha256: seen.stockDump.sha256, ...(failed && { recoversId: failed.id }) }, fault);
  } else if (command === "log") {
    const log = await portal.upload<{ id: string; title: string }>("data-logs", "virtual-pull.csv", new TextEncoder().encode(pullLog(car)), { vehicleId: vehicle.id, title: "Virtual car: 3rd gear pull" });
    say(`Data log uploaded: ${log.title} (${log.id})`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
