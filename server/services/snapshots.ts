/** ECU snapshots as the API answers them (contracts/user-vehicles snapshotSchema). */
import type { Snapshot } from "../../contracts/user-vehicles";
import type { vehicleSnapshots } from "../db/schema";

type SnapshotRow = typeof vehicleSnapshots.$inferSelect;

export const snapshotToApi = (row: SnapshotRow): Snapshot => ({
  id: row.id,
  vehicleId: row.vehicleId,
  kind: row.kind,
  flashLogId: row.flashLogId,
  vin: row.vin,
  ecuSerial: row.ecuSerial,
  softwareId: row.softwareId,
  hardwareNumber: row.hardwareNumber,
  bootloaderVersion: row.bootloaderVersion,
  calibrationId: row.calibrationId,
  firmwareId: row.firmwareId,
  faultCodes: row.faultCodes,
  batteryVolts: row.batteryVolts,
  flashCounter: row.flashCounter,
  programmingAttempts: row.programmingAttempts,
  adapter: row.adapter,
  appVersion: row.appVersion,
  recordedAt: row.recordedAt.toISOString(),
});

/** What the app read from the ECU at one moment, as the snapshot's row. */
export interface EcuReading {
  vin: string | null;
  ecu: {
    softwareId: string;
    ecuSerial: string;
    hardwareNumber?: string;
    bootloaderVersion?: string;
    calibrationId?: string;
  };
  faultCodes?: string[];
  batteryVolts?: number;
  flashCounter?: number;
  programmingAttempts?: number;
  adapter: { kind: string; firmware: string } | null;
  appVersion: string | null;
}

export function snapshotValues(
  at: {
    vehicleId: string;
    kind: SnapshotRow["kind"];
    flashLogId?: string;
    firmwareId: string | null;
    recordedBy: string;
    recordedAt: Date;
  },
  reading: EcuReading,
): typeof vehicleSnapshots.$inferInsert {
  return {
    ...at,
    flashLogId: at.flashLogId ?? null,
    vin: reading.vin,
    ecuSerial: reading.ecu.ecuSerial,
    softwareId: reading.ecu.softwareId,
    hardwareNumber: reading.ecu.hardwareNumber ?? null,
    bootloaderVersion: reading.ecu.bootloaderVersion ?? null,
    calibrationId: reading.ecu.calibrationId ?? null,
    faultCodes: reading.faultCodes ?? [],
    batteryVolts: reading.batteryVolts ?? null,
    flashCounter: reading.flashCounter ?? null,
    programmingAttempts: reading.programmingAttempts ?? null,
    adapter: reading.adapter,
    appVersion: reading.appVersion,
  };
}
