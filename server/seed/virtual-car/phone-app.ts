/**
 * The phone app, the OBD adapter and the demo car's ECU, played against the portal's API: what
 * `npm run vehicle` does from a terminal (over HTTP) and what the demo seed does at start (in
 * process), so that the demo car's flash history is made by the same flasher, link and ECU as
 * a rehearsal, failure and recovery included.
 *
 * The portal is reached through `PortalClient`; the car's state (identity, flash memory, whether
 * its application boots) is a plain value the caller keeps between commands.
 */
import { createHash } from "node:crypto";
import type { FlashAuthenticationAnswer, FlashLog } from "../../../contracts/flash-logs";
import type { BakedTuneFile } from "../../../contracts/tune-files";
import type { Vehicle, VehicleConnected } from "../../../contracts/user-vehicles";
import { type FlashBlockData, type FlashOutcome, flash, type StepReport } from "../../../domain/flashing/flasher";
import { VirtualEcu, type VirtualEcuIdentity } from "../../../domain/flashing/uds-ecu";
import { type Clock, type FaultKind, manualClock, VirtualLink } from "../../../domain/flashing/virtual-link";
import { readItem } from "../../../domain/tune/maps";
import { DEMO_ECU, DEMO_FLASH_SECRET, DEMO_FLASHING_PROFILE } from "../flashing-profile";
import { generateDemo } from "../generator";
import { DEMO_TUNE_OPTIONS, DEMO_VIN } from "../tunes";

/** The portal's API as the app calls it while flashing: JSON calls and file downloads under /api/v1. */
export interface PortalClient {
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
  download(path: string, headers?: Record<string, string>): Promise<Uint8Array>;
}

export interface CarState {
  identity: VirtualEcuIdentity;
  memory: Uint8Array;
  applicationValid: boolean;
}

export interface AppProfile {
  adapter: { kind: string; firmware: string };
  appVersion: string;
}

export interface Fault {
  kind: FaultKind;
  at: StepReport["step"];
}

const demo = generateDemo(DEMO_TUNE_OPTIONS);
const half = demo.firmware.imageSize / 2;
/** The demo ECU's one calibration block: the upper half of its flash (as the demo flashing support says). */
const ECU_BLOCKS = [{ number: 1, baseAddress: half, length: half }];
/**
 * An ISO-TP link through a Bluetooth adapter moves about 8 KB/s: the virtual clock advances by
 * that for every byte sent, so a flash reports the durations a real one has.
 */
const LINK_BYTES_PER_SECOND = 8_000;

export const demoCar = (): CarState => ({
  identity: { vin: DEMO_VIN, softwareId: demo.firmware.firmwareId, ...DEMO_ECU },
  memory: demo.stock.slice(),
  applicationValid: true,
});

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex").toUpperCase();
const fromHex = (text: string) => new Uint8Array(Buffer.from(text, "hex"));
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function ecuOf(car: CarState, clock: Clock) {
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
  return ecu;
}

const ecuIdentity = (car: CarState) => ({ softwareId: car.identity.softwareId, ecuSerial: car.identity.ecuSerial });

/** The app meets the car: VIN, ECU identity, adapter and battery; the portal creates or finds the vehicle. */
export async function connect(
  portal: PortalClient,
  car: CarState,
  app: AppProfile,
  batteryVolts = 12.6,
): Promise<VehicleConnected> {
  return portal.call<VehicleConnected>("POST", "user-vehicles/connect", {
    vin: car.identity.vin,
    ecu: {
      ...ecuIdentity(car),
      hardwareNumber: car.identity.hardwareNumber,
      bootloaderVersion: car.identity.bootloaderVersion,
    },
    ...app,
    batteryVolts,
  });
}

/** Reads the whole flash with ReadMemoryByAddress, 4 KiB at a time. */
export function readFlash(car: CarState): Uint8Array {
  const ecu = ecuOf(car, manualClock(Date.now()));
  const size = car.memory.length;
  const image = new Uint8Array(size);
  for (let address = 0; address < size; address += 0xfff) {
    const length = Math.min(0xfff, size - address);
    const [answer] = ecu.request(
      Uint8Array.of(
        0x23,
        0x24,
        address >>> 24,
        (address >>> 16) & 0xff,
        (address >>> 8) & 0xff,
        address & 0xff,
        length >>> 8,
        length & 0xff,
      ),
    );
    if (answer[0] !== 0x63) throw new Error(`reading 0x${address.toString(16)} failed: ${hex(answer)}`);
    image.set(answer.subarray(1), address);
  }
  return image;
}

export interface Flashing {
  kind: "tune" | "stock";
  bakedTuneFileId?: string;
  sha256: string;
  recoversId?: string;
  resumeFromBlock?: number;
}

export interface FlashRun {
  /** The session the portal opened, or null when the flash never got past the pre-flight. */
  session: FlashLog | null;
  outcome: FlashOutcome;
  checks: number;
  /** Whether the car starts after it (false: it waits in its bootloader for a recovery). */
  boots: boolean;
}

export interface FlashOptions {
  fault?: Fault | null;
  /** When the flash starts, in ms since the epoch: the app's clock for its steps and the session's times. */
  startAt?: number;
  onStep?: (step: StepReport) => void;
}

/**
 * The app's flash: the pre-flight with the ECU's seed (the portal answers the key and a grant),
 * the file downloaded with the grant, the session, every step reported, the end. The car's
 * memory and boot state change as the ECU's do.
 */
export async function runFlash(
  portal: PortalClient,
  car: CarState,
  vehicle: Vehicle,
  app: AppProfile,
  what: Flashing,
  options: FlashOptions = {},
): Promise<FlashRun> {
  const clock = manualClock(options.startAt ?? Date.now());
  const ecu = ecuOf(car, clock);
  const link = new VirtualLink(ecu, clock, {
    p2Ms: 50,
    p2StarMs: 5000,
    pendingMs: 100,
    bytesPerSecond: LINK_BYTES_PER_SECOND,
  });
  if (options.fault) link.arm(options.fault);
  const now = () => new Date(clock.now());
  let session: FlashLog | null = null;
  let checks = 0;
  let blocks: FlashBlockData[] = [];
  const pending: StepReport[] = [];
  const post = async () => {
    if (!session || pending.length === 0) return;
    await portal.call("POST", `user-vehicles/${vehicle.id}/flash-logs/${session.id}/steps`, {
      steps: pending.splice(0),
    });
  };
  const outcome = await flash(
    link,
    { blocks: () => blocks, securityLevel: DEMO_FLASHING_PROFILE.securityLevel, resumeFromBlock: what.resumeFromBlock },
    {
      now,
      report: (step) => {
        pending.push(step);
        options.onStep?.(step);
      },
      key: async (seed) => {
        // The portal runs the pre-flight and answers the key; the first grant starts the session.
        const granted = await portal.call<FlashAuthenticationAnswer>(
          "POST",
          `user-vehicles/${vehicle.id}/flash-authentication`,
          {
            kind: what.kind,
            ...(what.bakedTuneFileId && { bakedTuneFileId: what.bakedTuneFileId }),
            vin: car.identity.vin,
            ecu: ecuIdentity(car),
            batteryVolts: ecu.batteryVolts,
            sha256: what.sha256,
            seed: hex(seed),
          },
        );
        if (!session) {
          checks = granted.checks.length;
          const file = await fileOf(portal, vehicle, what, granted.grant.token);
          blocks = granted.blocks.map((b) => ({
            number: b.number,
            baseAddress: b.baseAddress,
            data: file.slice(b.fileOffset, b.fileOffset + b.length),
          }));
          session = await portal.call<FlashLog>("POST", `user-vehicles/${vehicle.id}/flash-logs`, {
            grant: granted.grant.token,
            vin: car.identity.vin,
            ecu: ecuIdentity(car),
            ...app,
            batteryVolts: ecu.batteryVolts,
            startedAt: now().toISOString(),
            ...(what.recoversId && { recoversId: what.recoversId }),
            ...(what.resumeFromBlock !== undefined && { resumeFromBlock: what.resumeFromBlock }),
          });
        }
        await post();
        return fromHex(granted.key);
      },
    },
  );
  car.applicationValid = ecu.boots();
  const started = session as FlashLog | null;
  if (started) {
    await post();
    const end = outcome.ok
      ? { result: "success", ecu: ecuIdentity(car), batteryVolts: ecu.batteryVolts }
      : { result: "failed", message: outcome.message };
    await portal.call("POST", `user-vehicles/${vehicle.id}/flash-logs/${started.id}/end`, {
      ...end,
      endedAt: now().toISOString(),
    });
  }
  return { session: started, outcome, checks, boots: ecu.boots() };
}

/** The bytes to write: the stock read, or the bake (read with the grant, which a protected tune needs). */
async function fileOf(portal: PortalClient, vehicle: Vehicle, what: Flashing, grant: string): Promise<Uint8Array> {
  const fileId = what.kind === "stock" ? "stock-read" : (what.bakedTuneFileId as string);
  const bytes = await portal.download(`user-vehicles/${vehicle.id}/attach-file/${fileId}`, { "x-flash-grant": grant });
  if (sha256(bytes) !== what.sha256) throw new Error(`the downloaded file's SHA-256 is not ${what.sha256}`);
  return bytes;
}

/** Bakes a tune onto the car's stock read, as the app asks before a flash. */
export const bake = (portal: PortalClient, vehicle: Vehicle, tuneFileId: string) =>
  portal.call<BakedTuneFile>("POST", `user-vehicles/${vehicle.id}/temp-bake/0`, { tuneFileId, patchIds: [] });

/** The car's last session when it failed or was abandoned: what a recovery or a resume refers to. */
export async function lastFailed(portal: PortalClient, vehicle: Vehicle): Promise<FlashLog | null> {
  const history = await portal.call<{ data: FlashLog[] }>("GET", `user-vehicles/${vehicle.id}/flash-logs?pageSize=1`);
  const [last] = history.data;
  return last && (last.result === "failed" || last.result === "abandoned") ? last : null;
}

/** A full-throttle pull from 2,000 to 6,500 rpm as CSV; boost follows the boost target the ECU holds. */
export function pullLog(car: CarState): string {
  const item = demo.firmware.definition.items.find((i) => i.id === "boost_target");
  if (!item) throw new Error("the demo definition has no boost_target map");
  const map = readItem(car.memory, item);
  // The rpm axis is a row of values, or (in the demo definition) labels that are numbers.
  const rpmAxis = !map.y ? [] : "values" in map.y ? Array.from(map.y.values) : map.y.labels.map(Number);
  if (rpmAxis.length < 2 || rpmAxis.some((rpm) => !Number.isFinite(rpm)))
    throw new Error("the boost_target map has no numeric rpm axis");
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

/** One line for a step, as the CLI prints it. */
export const describeStep = (step: StepReport) =>
  `${step.step}${step.block !== undefined ? ` ${step.block}` : ""}${step.percent !== undefined ? ` ${step.percent} %` : ""} ${step.status}${step.nrc !== undefined ? ` (0x${step.nrc.toString(16)})` : ""}${step.message ? ` — ${step.message}` : ""}`;
