/**
 * The user vehicle: the car as the phone app connected it (VIN, ECU identity), the owner's notes
 * on it, its stock read and the virtual-dyno profile, which belongs to the car rather than to one
 * log. Snapshots of its ECU are in ./vehicle-snapshots.ts.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { timestamps } from "./columns";
import { users } from "./users";

export const userVehicles = pgTable(
  "user_vehicles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerUid: text("owner_uid")
      .notNull()
      .references(() => users.uid, { onDelete: "cascade" }),
    name: text("name").notNull(),
    vin: text("vin"),
    /** contracts/data-logs dynoProfileSchema, null until someone runs the dyno */
    dynoProfile: jsonb("dyno_profile").$type<Record<string, unknown> | null>(),
    /** Baking (schema/tune-files.ts): the firmware identified in the car's own ECU read, and that read. */
    firmwareId: text("firmware_id"),
    stockDumpSha256: text("stock_dump_sha256"),
    stockDumpSize: bigint("stock_dump_size", { mode: "number" }),
    /** The ECU slot the read came from (the {x} of upload-tune-dump). */
    stockDumpSlot: integer("stock_dump_slot"),
    stockDumpUploadedAt: timestamp("stock_dump_uploaded_at", { withTimezone: true }),
    /**
     * The ECU identity as the phone app last read it at connect (contracts/user-vehicles
     * ecuIdentitySchema). The app's, not the owner's: PATCH does not change them.
     */
    ecuSerial: text("ecu_serial"),
    softwareId: text("software_id"),
    hardwareNumber: text("hardware_number"),
    bootloaderVersion: text("bootloader_version"),
    /** The owner's own notes on the car: free-text modifications, notes and the fuel it runs. */
    modifications: text("modifications").array().notNull().default(sql`'{}'::text[]`),
    notes: text("notes").notNull().default(""),
    fuel: text("fuel"),
    /** The app's attributes of the car's connection (contracts/user-vehicles deviceAttributesSchema). */
    deviceAttributes: jsonb("device_attributes").$type<Record<string, unknown>>().notNull().default({}),
    lastConnectedAt: timestamp("last_connected_at", { withTimezone: true }),
    lastBatteryVolts: doublePrecision("last_battery_volts"),
    ...timestamps,
  },
  (t) => [
    index("user_vehicles_owner_idx").on(t.ownerUid, t.id),
    // The same car connected twice is one vehicle of its owner.
    uniqueIndex("user_vehicles_owner_vin_ecu_key")
      .on(t.ownerUid, t.vin, t.ecuSerial)
      .where(sql`${t.vin} IS NOT NULL AND ${t.ecuSerial} IS NOT NULL`),
    index("user_vehicles_vin_idx").on(t.vin),
  ],
);
