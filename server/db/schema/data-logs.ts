/**
 * Data logs, their share links, and the minimal user vehicle a log can belong to
 * (the vehicles issue grows `user_vehicles`; here it holds a name, a VIN and the
 * virtual-dyno profile, which belongs to the car rather than to one log).
 *
 * A log keeps two blobs by SHA-256 (services/blobs): the original file byte for
 * byte, and the parser's columnar form that the chart view loads.
 */
import { sql } from "drizzle-orm";
import { bigint, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
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
    ...timestamps,
  },
  (t) => [index("user_vehicles_owner_idx").on(t.ownerUid, t.id)],
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
    index("data_logs_search_idx").using("gin", sql`(${t.title} || ' ' || ${t.fileName} || ' ' || ${t.notes}) gin_trgm_ops`),
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
