/**
 * What changed between two ECU snapshots of a car (a connect, before or after a flash): the
 * fields the vehicle page compares, in the contract's order, with their values before and after.
 */
import { type Snapshot, snapshotComparedFields } from "../../contracts/user-vehicles";

export interface SnapshotChange {
  field: (typeof snapshotComparedFields)[number];
  label: string;
  before: string;
  after: string;
}

const LABELS: Record<(typeof snapshotComparedFields)[number], string> = {
  vin: "VIN",
  ecuSerial: "ECU serial",
  softwareId: "Software",
  calibrationId: "Calibration",
  hardwareNumber: "Hardware",
  bootloaderVersion: "Bootloader",
  firmwareId: "Firmware",
  faultCodes: "Fault codes",
  batteryVolts: "Battery",
  flashCounter: "Flash counter",
  programmingAttempts: "Programming attempts",
  appVersion: "App version",
};

function shown(field: (typeof snapshotComparedFields)[number], value: Snapshot[keyof Snapshot]): string {
  if (value === null || value === undefined) return "—";
  if (field === "faultCodes") return (value as string[]).length ? [...(value as string[])].sort().join(", ") : "none";
  if (field === "batteryVolts") return `${(value as number).toFixed(1)} V`;
  return String(value);
}

export function snapshotChanges(before: Snapshot, after: Snapshot): SnapshotChange[] {
  return snapshotComparedFields.flatMap((field) => {
    const [a, b] = [shown(field, before[field]), shown(field, after[field])];
    return a === b ? [] : [{ field, label: LABELS[field], before: a, after: b }];
  });
}
