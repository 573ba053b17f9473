/**
 * Snapshots of a vehicle's ECU: what the phone app read at a connect, and before and after each
 * flash. A vehicle page shows them as a timeline and what changed between two; support reads them
 * beside a flash session.
 */
import { doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { flashLogs } from "./flash-logs";
import { userVehicles } from "./user-vehicles";
import { users } from "./users";

export const vehicleSnapshots = pgTable(
  "vehicle_snapshots",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    vehicleId: uuid("vehicle_id")
      .notNull()
      .references(() => userVehicles.id, { onDelete: "cascade" }),
    /** contracts/user-vehicles snapshotKinds: connect, before-flash, after-flash. */
    kind: text("kind").$type<"connect" | "before-flash" | "after-flash">().notNull(),
    /** The flash session a before/after snapshot belongs to. */
    flashLogId: uuid("flash_log_id").references(() => flashLogs.id, { onDelete: "set null" }),
    vin: text("vin"),
    ecuSerial: text("ecu_serial"),
    softwareId: text("software_id"),
    hardwareNumber: text("hardware_number"),
    bootloaderVersion: text("bootloader_version"),
    calibrationId: text("calibration_id"),
    /** The firmware the catalogue identified from the software id, when it knows it. */
    firmwareId: text("firmware_id"),
    /** Diagnostic trouble codes as the ECU reported them (P0299, …). */
    faultCodes: text("fault_codes").array().notNull().default([]),
    batteryVolts: doublePrecision("battery_volts"),
    /** Where the ECU reports them (VW: 0xF1 counters), else null. */
    flashCounter: integer("flash_counter"),
    programmingAttempts: integer("programming_attempts"),
    /** { kind, firmware } of the OBD adapter, and the phone app's version. */
    adapter: jsonb("adapter").$type<{ kind: string; firmware: string } | null>(),
    appVersion: text("app_version"),
    recordedBy: text("recorded_by").references(() => users.uid, { onDelete: "set null" }),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("vehicle_snapshots_vehicle_idx").on(t.vehicleId, t.recordedAt.desc(), t.id)],
);
