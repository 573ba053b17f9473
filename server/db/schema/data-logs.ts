/**
 * Data logs and their share links. A log belongs to a user vehicle (./user-vehicles.ts) and keeps
 * two blobs by SHA-256 (services/blobs): the original file byte for byte, and the parser's
 * columnar form that the chart view loads.
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
import { userVehicles } from "./user-vehicles";
import { users } from "./users";

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
    /** The layout the link opens with (a name and its panes); null for the viewer's default panes. */
    layout: jsonb("layout").$type<{ name: string; panes: string[][] }>(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("data_log_shares_token_hash_key").on(t.tokenHash), index("data_log_shares_log_idx").on(t.logId)],
);
