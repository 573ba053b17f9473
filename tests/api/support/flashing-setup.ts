/**
 * A car ready to flash, the way the portal gets there: an admin describes the firmware's
 * flashing support (profile, blocks, bootloader, security-access secret); the customer's app
 * connects the car; a dealer's tune is licensed for it; the stock read is uploaded; a bake is made.
 */
import { expect } from "vitest";
import type { Demo } from "../../../server/seed/generator";
import type { TestUser } from "./harness";
import type { requestsTo } from "./requests";

type Requests = ReturnType<typeof requestsTo>;

export const FLASH_SECRET = "0x1A2B3C4D";
export const FLASH_PROFILE = {
  securityLevel: 0x11,
  seedKeyAlgorithm: "xor-rotate-32",
  requestCanId: "0x7E0",
  responseCanId: "0x7E8",
  p2TimeoutMs: 50,
  p2StarTimeoutMs: 5000,
  minBatteryVolts: 12,
};

export const identityOf = (demo: Demo, vin: string, ecuSerial: string) => ({
  vin,
  ecu: { softwareId: demo.firmware.firmwareId, ecuSerial, hardwareNumber: "HW-1", bootloaderVersion: "BL-1" },
});

/**
 * A maker of cars running the demo's firmware, connected by their owner's app: each call a new car
 * (VIN `<prefix>ZZ<number>`, a five-letter prefix per suite), answering its id.
 */
export function carMaker({ call }: Requests, demo: Demo, prefix: string) {
  let seq = 0;
  return async (user: TestUser): Promise<string> => {
    seq += 1;
    const connected = await call("POST", "/user-vehicles/connect", user, {
      ...identityOf(demo, `${prefix}ZZ${String(seq).padStart(10, "0")}`, `ECU-${prefix}-${seq}`),
      adapter: { kind: "virtual", firmware: "1.0" },
      appVersion: "2.4.0",
      batteryVolts: 12.6,
    });
    expect(connected.statusCode, connected.body).toBe(201);
    return connected.json().vehicle.id as string;
  };
}

export async function flashableFirmware(
  { call, upload, storeFirmware }: Requests,
  admin: TestUser,
  demo: Demo,
): Promise<string> {
  const recordId = await storeFirmware(admin, demo);
  const boot = await upload(
    `/firmware-support/flashing-support/${recordId}/bootloader`,
    admin,
    new Uint8Array(2048).fill(0xb0),
    {},
    "boot.bin",
  );
  expect(boot.statusCode, boot.body).toBe(200);
  const support = await call("PUT", "/firmware-support/flashing-support", admin, {
    firmwareId: demo.firmware.firmwareId,
    enabled: true,
    profile: FLASH_PROFILE,
    blocks: [
      {
        name: "CAL",
        number: 1,
        baseAddress: "0x8000",
        length: demo.firmware.imageSize / 2,
        fileOffset: demo.firmware.imageSize / 2,
        transferSize: 0xffd,
      },
    ],
  });
  expect(support.statusCode, support.body).toBe(200);
  const secret = await call("PUT", "/firmware-support/password-storage", admin, {
    firmwareId: demo.firmware.firmwareId,
    label: "SA level 11",
    securityLevel: 0x11,
    secret: FLASH_SECRET,
  });
  expect(secret.statusCode, secret.body).toBe(201);
  return recordId;
}

/** The customer's connected car with a licensed tune, its stock read and a bake of the tune. */
export async function carReadyToFlash(
  { call, upload }: Requests,
  users: { admin: TestUser; dealer: TestUser; customer: TestUser },
  demo: Demo,
  vin: string,
  ecuSerial: string,
) {
  const connected = await call("POST", "/user-vehicles/connect", users.customer, {
    ...identityOf(demo, vin, ecuSerial),
    adapter: { kind: "virtual", firmware: "1.0" },
    appVersion: "2.4.0",
    batteryVolts: 12.7,
  });
  expect(connected.statusCode, connected.body).toBe(201);
  const vehicleId = connected.json().vehicle.id as string;
  const tune = await upload("/tune-files", users.dealer, demo.tune.image, { title: "Stage 1" });
  expect(tune.statusCode, tune.body).toBe(201);
  const tuneId = tune.json().id as string;
  expect((await call("POST", `/tune-files/${tuneId}/grant`, users.admin, { vehicleId })).statusCode).toBe(201);
  expect((await upload(`/user-vehicles/${vehicleId}/upload-tune-dump/0`, users.customer, demo.stock)).statusCode).toBe(
    200,
  );
  const baked = await call("POST", `/user-vehicles/${vehicleId}/temp-bake/0`, users.customer, { tuneFileId: tuneId });
  expect(baked.statusCode, baked.body).toBe(201);
  return { vehicleId, tuneId, bake: baked.json() as { id: string; sha256: string } };
}
