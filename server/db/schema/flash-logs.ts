import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { bakedTuneFiles, tuneFiles } from "./tune-files";
import { userVehicles } from "./user-vehicles";
import { users } from "./users";

/** The ECU identity as the app read it (contracts/user-vehicles ecuIdentitySchema). */
type EcuIdentity = Record<string, string | null>;

/**
 * A flash grant: the pre-flight passed and the licence to write one file onto
 * one car. Signed, used once (by the flash session that names it), short-lived;
 * bound to the vehicle, the file's SHA-256 and the ECU serial read at pre-flight.
 */
export const flashGrants = pgTable(
  "flash_grants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    vehicleId: uuid("vehicle_id")
      .notNull()
      .references(() => userVehicles.id, { onDelete: "cascade" }),
    grantedTo: text("granted_to")
      .notNull()
      .references(() => users.uid, { onDelete: "cascade" }),
    /** "tune" writes a bake of a licensed tune, "stock" the vehicle's own stock read. */
    kind: text("kind").$type<"tune" | "stock">().notNull(),
    bakedTuneFileId: uuid("baked_tune_file_id").references(() => bakedTuneFiles.id, { onDelete: "set null" }),
    tuneFileId: uuid("tune_file_id").references(() => tuneFiles.id, { onDelete: "set null" }),
    sha256: text("sha256").notNull(),
    vin: text("vin").notNull(),
    ecuSerial: text("ecu_serial").notNull(),
    softwareId: text("software_id").notNull(),
    firmwareId: text("firmware_id").notNull(),
    batteryVolts: doublePrecision("battery_volts").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Set once, by the flash session that used the grant; a second use is refused. */
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("flash_grants_vehicle_idx").on(t.vehicleId, t.createdAt.desc())],
);

/**
 * One row per flash session the app reports: started with a grant, reported
 * step by step (flash_log_steps) and ended with a result. The tune's title and
 * version are copied: a flash log is the car's history and outlives the bake
 * and the tune. Rows from before sessions existed have no grant and no steps.
 * The firmware family, adapter and app version are copied here too, for the
 * flashing analytics.
 */
export const flashLogs = pgTable(
  "flash_logs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    vehicleId: uuid("vehicle_id")
      .notNull()
      .references(() => userVehicles.id, { onDelete: "cascade" }),
    bakedTuneFileId: uuid("baked_tune_file_id").references(() => bakedTuneFiles.id, { onDelete: "set null" }),
    tuneFileId: uuid("tune_file_id").references(() => tuneFiles.id, { onDelete: "set null" }),
    tuneTitle: text("tune_title"),
    tuneVersion: integer("tune_version"),
    kind: text("kind").$type<"tune" | "stock">().notNull(),
    sha256: text("sha256").notNull(),
    /** contracts/flash-logs flashResults: running until the app ends the session. */
    result: text("result").$type<"running" | "success" | "failed" | "recovered" | "abandoned" | "aborted">().notNull(),
    message: text("message").notNull().default(""),
    durationMs: integer("duration_ms"),
    /** When the flash started (for a log reported after the fact: when it happened). */
    flashedAt: timestamp("flashed_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    /** The app's last report: a running session silent for too long is marked abandoned. */
    lastReportAt: timestamp("last_report_at", { withTimezone: true }).notNull().defaultNow(),
    reportedBy: text("reported_by")
      .notNull()
      .references(() => users.uid),
    grantId: uuid("grant_id")
      .unique("flash_logs_grant_key")
      .references(() => flashGrants.id, { onDelete: "set null" }),
    /** The failed session this one recovers (resume from a block, or back to stock). */
    recoversId: uuid("recovers_id").references((): AnyPgColumn => flashLogs.id, { onDelete: "set null" }),
    resumeFromBlock: integer("resume_from_block"),
    firmwareId: text("firmware_id"),
    ecuFamily: text("ecu_family"),
    adapterKind: text("adapter_kind"),
    adapterFirmware: text("adapter_firmware"),
    appVersion: text("app_version"),
    batteryStartVolts: doublePrecision("battery_start_volts"),
    batteryEndVolts: doublePrecision("battery_end_volts"),
    identityBefore: jsonb("identity_before").$type<EcuIdentity | null>(),
    identityAfter: jsonb("identity_after").$type<EcuIdentity | null>(),
    /** Where a failed session stopped: its step, block and negative response code. */
    failedStep: text("failed_step"),
    failedBlock: integer("failed_block"),
    failedNrc: integer("failed_nrc"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("flash_logs_vehicle_flashed_idx").on(table.vehicleId, table.flashedAt.desc(), table.id),
    index("flash_logs_running_idx").on(table.lastReportAt).where(sql`${table.result} = 'running'`),
  ],
);

/**
 * The steps of a flash session as the app reported them, numbered by the app
 * (`seq`), so a step sent twice after a lost answer is stored once.
 */
export const flashLogSteps = pgTable(
  "flash_log_steps",
  {
    flashLogId: uuid("flash_log_id")
      .notNull()
      .references(() => flashLogs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    /** contracts/flash-logs flashSteps. */
    step: text("step").notNull(),
    block: integer("block"),
    percent: doublePrecision("percent"),
    /** started, ok, retry or failed. */
    status: text("status").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    durationMs: integer("duration_ms"),
    retries: integer("retries").notNull().default(0),
    /** The UDS request and response bytes, hexadecimal. */
    request: text("request"),
    response: text("response"),
    /** A negative response code (0x7F …) by number; contracts/flash-logs names it. */
    nrc: integer("nrc"),
    message: text("message").notNull().default(""),
  },
  (t) => [primaryKey({ name: "flash_log_steps_pk", columns: [t.flashLogId, t.seq] })],
);

/**
 * The flashing analytics' rollup: ended sessions counted per day and per what the analytics
 * filter and group by, one column per result, with a histogram of the successful sessions'
 * durations (domain/flashing/duration-histogram.ts; the migration spells out the same edges).
 * Where failing sessions failed (step, negative response) is counted apart in
 * `flash_failures_daily`, so the counts stay a few rows per day and dimension while failures,
 * nearly each one different, are read only where failures are asked for. Both are kept by a
 * trigger on flash_logs (migration 0014), so every writer — sessions, reports after the fact,
 * the seed, a delete of a vehicle — keeps them exact without knowing of them. Unknown values
 * are '' and -1 so that the keys are unique.
 */
const rollupKey = {
  day: date("day", { mode: "string" }).notNull(),
  firmwareId: text("firmware_id").notNull(),
  ecuFamily: text("ecu_family").notNull(),
  adapterKind: text("adapter_kind").notNull(),
  appVersion: text("app_version").notNull(),
  kind: text("kind").notNull(),
};

export const flashStatsDaily = pgTable(
  "flash_stats_daily",
  {
    ...rollupKey,
    success: integer("success").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    recovered: integer("recovered").notNull().default(0),
    abandoned: integer("abandoned").notNull().default(0),
    aborted: integer("aborted").notNull().default(0),
    durationHistogram: integer("duration_histogram").array().notNull(),
  },
  (t) => [
    primaryKey({
      name: "flash_stats_daily_pk",
      columns: [t.day, t.firmwareId, t.ecuFamily, t.adapterKind, t.appVersion, t.kind],
    }),
  ],
);

export const flashFailuresDaily = pgTable(
  "flash_failures_daily",
  {
    ...rollupKey,
    /** failed, recovered or abandoned. */
    result: text("result").notNull(),
    failedStep: text("failed_step").notNull(),
    failedNrc: integer("failed_nrc").notNull(),
    sessions: integer("sessions").notNull().default(0),
  },
  (t) => [
    primaryKey({
      name: "flash_failures_daily_pk",
      columns: [
        t.day,
        t.firmwareId,
        t.ecuFamily,
        t.adapterKind,
        t.appVersion,
        t.kind,
        t.result,
        t.failedStep,
        t.failedNrc,
      ],
    }),
  ],
);
