/**
 * The virtual car between commands: its identity and its ECU's flash memory, kept in a file
 * under .data/virtual-vehicle/ so that a flash, a failure and a recovery carry over from one
 * command to the next as they would on a real car.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { VirtualEcuIdentity } from "../../domain/flashing/uds-ecu";
import type { CarState } from "../../server/seed/virtual-car/phone-app";

export const carFile = (dataDir: string, email: string) =>
  path.join(dataDir, "virtual-vehicle", `${email.replace(/[^a-z0-9@.-]/gi, "_")}.json`);

export async function loadCar(file: string, fresh: () => CarState): Promise<CarState> {
  try {
    const stored = JSON.parse(await readFile(file, "utf8")) as {
      identity: VirtualEcuIdentity;
      memory: string;
      applicationValid: boolean;
    };
    return {
      identity: stored.identity,
      memory: new Uint8Array(Buffer.from(stored.memory, "base64")),
      applicationValid: stored.applicationValid,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return fresh();
  }
}

export async function saveCar(file: string, car: CarState): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    JSON.stringify({
      identity: car.identity,
      memory: Buffer.from(car.memory).toString("base64"),
      applicationValid: car.applicationValid,
    }),
  );
}
