/**
 * The admin catalogue: what the portal knows about each firmware and the
 * vehicles, diagnostics and logging channels that hang off it.
 *
 * Firmware references are the software id text (`firmware_support.firmware_id`)
 * held in text[] columns with GIN indexes, because every catalogue list filters
 * by "applies to firmware X" and a join table per resource would triple the
 * writes. The routes keep them honest: a writer locks the firmware rows it names
 * (FOR KEY SHARE, as a foreign key would) and a delete locks the row FOR UPDATE
 * before looking for referrers, so the two cannot interleave on PostgreSQL.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { timestamps } from "./columns";
import { users } from "./users";

export const firmwareSupport = pgTable(
  "firmware_support",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    firmwareId: text("firmware_id").notNull(),
    ecuFamily: text("ecu_family").notNull(),
    manufacturer: text("manufacturer").notNull(),
    imageSize: integer("image_size").notNull(),
    /** contracts/tune-definition identifyRuleSchema[] */
    identify: jsonb("identify").$type<unknown[]>().notNull().default([]),
    /** contracts/firmware-support flashBlockSchema[] */
    blocks: jsonb("blocks").$type<unknown[]>().notNull().default([]),
    /** contracts/tune-definition checksumSchemeSchema[], in fixing order as written */
    checksums: jsonb("checksums").$type<unknown[]>().notNull().default([]),
    /** contracts/firmware-support flashingProfileSchema, null until flashing is described */
    flashing: jsonb("flashing").$type<Record<string, unknown> | null>(),
    /** contracts/tune-definition tuneDefinitionSchema */
    definition: jsonb("definition").$type<Record<string, unknown> | null>(),
    notes: text("notes").notNull().default(""),
    stockSha256: text("stock_sha256"),
    stockSize: integer("stock_size"),
    stockUploadedAt: timestamp("stock_uploaded_at", { withTimezone: true }),
    flashingEnabled: boolean("flashing_enabled").notNull().default(false),
    bootloaderSha256: text("bootloader_sha256"),
    bootloaderSize: integer("bootloader_size"),
    bootloaderName: text("bootloader_name"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("firmware_support_firmware_id_key").on(t.firmwareId),
    index("firmware_support_manufacturer_idx").on(t.manufacturer, t.firmwareId),
    index("firmware_support_ecu_family_idx").on(t.ecuFamily, t.firmwareId),
    index("firmware_support_updated_at_idx").on(t.updatedAt, t.id),
    index("firmware_support_search_idx").using(
      "gin",
      sql`(${t.firmwareId} || ' ' || ${t.ecuFamily} || ' ' || ${t.manufacturer}) gin_trgm_ops`,
    ),
  ],
);

export const supportedVehicles = pgTable(
  "supported_vehicles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    make: text("make").notNull(),
    model: text("model").notNull(),
    generation: text("generation").notNull().default(""),
    engine: text("engine").notNull(),
    yearFrom: integer("year_from").notNull(),
    yearTo: integer("year_to"),
    ecu: text("ecu").notNull(),
    firmwareIds: text("firmware_ids").array().notNull().default(sql`'{}'::text[]`),
    ...timestamps,
  },
  (t) => [
    index("supported_vehicles_make_model_idx").on(t.make, t.model, t.id),
    index("supported_vehicles_year_idx").on(t.yearFrom, t.id),
    // The supported list is browsed by make and model years, newest first: the filters and that order (DESC is NULLS FIRST in SQL) served by one range scan.
    index("supported_vehicles_make_year_idx").on(t.make, t.yearFrom.desc().nullsFirst(), t.model, t.id),
    index("supported_vehicles_firmware_ids_idx").using("gin", t.firmwareIds),
    index("supported_vehicles_search_idx").using(
      "gin",
      sql`(${t.make} || ' ' || ${t.model} || ' ' || ${t.generation} || ' ' || ${t.engine} || ' ' || ${t.ecu}) gin_trgm_ops`,
    ),
  ],
);

export const obdFunctionCategories = [
  "read-codes",
  "clear-codes",
  "reset-adaptations",
  "service-functions",
  "live-data",
  "coding",
] as const;

export const safetyLevels = ["none", "caution", "dangerous"] as const;

export const obdFunctions = pgTable(
  "obd_functions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    category: text("category", { enum: obdFunctionCategories }).notNull(),
    description: text("description").notNull().default(""),
    request: text("request").notNull(),
    expectedResponse: text("expected_response").notNull(),
    firmwareIds: text("firmware_ids").array().notNull().default(sql`'{}'::text[]`),
    confirmationText: text("confirmation_text"),
    safetyLevel: text("safety_level", { enum: safetyLevels }).notNull().default("none"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("obd_functions_name_key").on(t.name),
    index("obd_functions_category_idx").on(t.category, t.name),
    index("obd_functions_updated_at_idx").on(t.updatedAt, t.id),
    index("obd_functions_firmware_ids_idx").using("gin", t.firmwareIds),
    index("obd_functions_search_idx").using("gin", sql`(${t.name} || ' ' || ${t.description}) gin_trgm_ops`),
  ],
);

export const pidSources = ["obd", "uds", "ram"] as const;

export const pidDescriptors = pgTable(
  "pid_descriptors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** The identifier computed descriptors use for this channel. */
    variable: text("variable").notNull(),
    unit: text("unit").notNull().default(""),
    source: text("source", { enum: pidSources }).notNull(),
    /** Mode 01 PID, DID or RAM address as hex. */
    address: text("address").notNull(),
    length: integer("length").notNull(),
    signed: boolean("signed").notNull().default(false),
    endian: text("endian", { enum: ["big", "little"] })
      .notNull()
      .default("big"),
    expression: text("expression").notNull().default("X"),
    decimals: integer("decimals").notNull().default(2),
    min: real("min"),
    max: real("max"),
    warnMin: real("warn_min"),
    warnMax: real("warn_max"),
    /** VW_Flash smoothing factor, 0 (none) to 1. */
    smoothing: real("smoothing").notNull().default(0),
    firmwareIds: text("firmware_ids").array().notNull().default(sql`'{}'::text[]`),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("pid_descriptors_variable_key").on(t.variable),
    index("pid_descriptors_name_idx").on(t.name, t.id),
    index("pid_descriptors_source_idx").on(t.source, t.name, t.id),
    index("pid_descriptors_updated_at_idx").on(t.updatedAt, t.id),
    index("pid_descriptors_firmware_ids_idx").using("gin", t.firmwareIds),
    index("pid_descriptors_search_idx").using(
      "gin",
      sql`(${t.name} || ' ' || ${t.variable} || ' ' || ${t.unit}) gin_trgm_ops`,
    ),
  ],
);

export const pidTemplates = pgTable(
  "pid_templates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Ordered: the order is the logging order. */
    descriptorIds: uuid("descriptor_ids").array().notNull().default(sql`'{}'::uuid[]`),
    sampleRateHz: real("sample_rate_hz").notNull(),
    firmwareIds: text("firmware_ids").array().notNull().default(sql`'{}'::text[]`),
    vehicleFamily: text("vehicle_family").notNull().default(""),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("pid_templates_name_key").on(t.name),
    index("pid_templates_updated_at_idx").on(t.updatedAt, t.id),
    index("pid_templates_descriptor_ids_idx").using("gin", t.descriptorIds),
    index("pid_templates_firmware_ids_idx").using("gin", t.firmwareIds),
    index("pid_templates_search_idx").using("gin", sql`(${t.name} || ' ' || ${t.vehicleFamily}) gin_trgm_ops`),
  ],
);

export const computedDescriptors = pgTable(
  "computed_descriptors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    variable: text("variable").notNull(),
    unit: text("unit").notNull().default(""),
    expression: text("expression").notNull(),
    /** The channel variables the expression reads, from the evaluator; for "who uses this channel". */
    variables: text("variables").array().notNull().default(sql`'{}'::text[]`),
    decimals: integer("decimals").notNull().default(2),
    min: real("min"),
    max: real("max"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("computed_descriptors_variable_key").on(t.variable),
    index("computed_descriptors_name_idx").on(t.name, t.id),
    index("computed_descriptors_updated_at_idx").on(t.updatedAt, t.id),
    index("computed_descriptors_variables_idx").using("gin", t.variables),
    index("computed_descriptors_search_idx").using(
      "gin",
      sql`(${t.name} || ' ' || ${t.variable} || ' ' || ${t.expression}) gin_trgm_ops`,
    ),
  ],
);

/** Security-access secrets per firmware. Lists mask them; a reveal is recorded in secret_reveals. */
export const firmwareSecrets = pgTable(
  "firmware_secrets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    firmwareId: text("firmware_id").notNull(),
    label: text("label").notNull(),
    securityLevel: integer("security_level").notNull(),
    secret: text("secret").notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("firmware_secrets_firmware_label_key").on(t.firmwareId, t.label),
    index("firmware_secrets_search_idx").using("gin", sql`(${t.firmwareId} || ' ' || ${t.label}) gin_trgm_ops`),
  ],
);

export const secretReveals = pgTable(
  "secret_reveals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    secretId: uuid("secret_id")
      .notNull()
      .references(() => firmwareSecrets.id, { onDelete: "cascade" }),
    revealedBy: text("revealed_by")
      .notNull()
      .references(() => users.uid),
    revealedAt: timestamp("revealed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("secret_reveals_secret_idx").on(t.secretId, t.revealedAt)],
);

/**
 * One row, bumped by triggers at the commit of any write to firmware_support
 * or tune_file_patches (migration 0011), whoever writes: CatalogueCache
 * reads it to know whether the identities and patches it keeps are current.
 */
export const catalogueGeneration = pgTable("catalogue_generation", {
  id: integer("id").primaryKey().default(1),
  generation: bigint("generation", { mode: "number" }).notNull().default(0),
});
