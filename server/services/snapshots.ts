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

