/**
 * Data logs, their share links, and the user vehicle a log belongs to: the car as
 * the phone app connected it (VIN, ECU identity), the owner's notes on it, its
 * stock read and the virtual-dyno profile, which belongs to the car rather than
 * to one log. Snapshots of its ECU are in ./vehicles.ts.
 *
 * A log keeps two blobs by SHA-256 (services/blobs): the original file byte for
 * byte, and the parser's columnar form that the chart view loads.
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
import { users } from "./identity";

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

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

export const dataLogs = pgTable(
  "data_logs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerUid: text("owner_uid")
      .notNull()
      .references(() => users.uid, { onDelete: "cascade" }),
    vehicleId: uuid("vehicle_id").references(() => userVehicles.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    notes: text("notes").notNull().default(""),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    format: text("format").notNull(),
    rowCount: integer("row_count").notNull(),
    durationSeconds: doublePrecision("duration_seconds").notNull(),
    /** The logger's local time (ISO 8601 without a zone), as the file gave it. */
    startedAt: text("started_at"),
    /** domain/logs LogMeta */
    meta: jsonb("meta").$type<Record<string, unknown>>().notNull(),
    /** domain/logs LogChannel[] */
    channels: jsonb("channels").$type<unknown[]>().notNull(),
    warnings: jsonb("warnings").$type<string[]>().notNull().default([]),
    fileName: text("file_name").notNull(),
    fileSize: bigint("file_size", { mode: "number" }).notNull(),
    fileSha256: text("file_sha256").notNull(),
    columnsSha256: text("columns_sha256").notNull(),
    columnsSize: bigint("columns_size", { mode: "number" }).notNull(),
    /** Dyno profile for a log without a vehicle (with one, it lives on the vehicle). */
    dynoProfile: jsonb("dyno_profile").$type<Record<string, unknown> | null>(),
    ...timestamps,
  },
  (t) => [
    index("data_logs_owner_created_idx").on(t.ownerUid, t.createdAt, t.id),
    index("data_logs_vehicle_idx").on(t.vehicleId),
    index("data_logs_file_sha_idx").on(t.fileSha256),
    index("data_logs_columns_sha_idx").on(t.columnsSha256),
    index("data_logs_search_idx").using(
      "gin",
      sql`(${t.title} || ' ' || ${t.fileName} || ' ' || ${t.notes}) gin_trgm_ops`,
    ),
  ],
);

export const dataLogShares = pgTable(
  "data_log_shares",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    logId: uuid("log_id")
      .notNull()
      .references(() => dataLogs.id, { onDelete: "cascade" }),
    /** SHA-256 of the 256-bit link token: a database leak does not leak working links. */
    tokenHash: text("token_hash").notNull(),
    /** Channel ids shown; empty means all. */
    channels: text("channels").array().notNull().default(sql`'{}'::text[]`),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("data_log_shares_token_hash_key").on(t.tokenHash), index("data_log_shares_log_idx").on(t.logId)],
);
