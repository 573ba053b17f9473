/**
 * Tune files, their versions, purchases, tune-file patches and baked files.
 *
 * Images are blobs by SHA-256 (services/blobs); rows keep the hash, the size
 * and the checksum report computed when the bytes arrived, so lists never
 * read an image. Firmware references are the software id text, as in the
 * catalogue (schema/firmware-support.ts explains why there is no foreign key).
 *
 * "A dealer manages a vehicle" is defined by purchases: a vehicle for which
 * a tune file of that dealer was bought (or granted). No separate link table
 * exists until the vehicles issue brings one.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
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
import { tuneRepositories } from "./repositories";
import { userVehicles } from "./user-vehicles";
import { users } from "./users";

export const tuneFiles = pgTable(
  "tune_files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    dealerUid: text("dealer_uid")
      .notNull()
      .references(() => users.uid),
    /** Identified from the image by the firmware records' identify rules, never taken from the client. */
    firmwareId: text("firmware_id").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    /** Number of the version buyers get; versions are never rewritten. */
    currentVersion: integer("current_version").notNull().default(1),
    published: boolean("published").notNull().default(false),
    /** Minor units (cents); null until published. */
    priceCents: integer("price_cents"),
    currency: text("currency"),
    /** Lower-case emails allowed to buy; empty means anyone. */
    buyerEmails: text("buyer_emails").array().notNull().default(sql`'{}'::text[]`),
    /** Protection: whether a buyer may see the map-level changes, and download the image. */
    mayView: boolean("may_view").notNull().default(true),
    mayDownload: boolean("may_download").notNull().default(false),
    /** A private collection of the dealer's: then offered only to its members (schema/repositories.ts). */
    repositoryId: uuid("repository_id").references(() => tuneRepositories.id, { onDelete: "restrict" }),
    ...timestamps,
  },
  (t) => [
    index("tune_files_dealer_idx").on(t.dealerUid, t.updatedAt, t.id),
    index("tune_files_firmware_idx").on(t.firmwareId, t.id),
    index("tune_files_published_idx").on(t.published, t.updatedAt, t.id),
    index("tune_files_repository_idx").on(t.repositoryId),
    index("tune_files_search_idx").using(
      "gin",
      sql`(${t.title} || ' ' || ${t.description} || ' ' || ${t.firmwareId}) gin_trgm_ops`,
    ),
  ],
);

export const tuneFileVersions = pgTable(
  "tune_file_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tuneFileId: uuid("tune_file_id")
      .notNull()
      .references(() => tuneFiles.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    /** The dealer's own name for it ("1.2 winter fuel"). */
    label: text("label").notNull(),
    notes: text("notes").notNull().default(""),
    sha256: text("sha256").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    /** domain/tune ChecksumResult[] as verified on upload */
    checksums: jsonb("checksums").$type<unknown[]>().notNull(),
    createdBy: text("created_by")
      .notNull()
      .references(() => users.uid),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("tune_file_versions_number_key").on(t.tuneFileId, t.number),
    index("tune_file_versions_sha_idx").on(t.sha256),
  ],
);

export const tuneFilePurchases = pgTable(
  "tune_file_purchases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    customerUid: text("customer_uid")
      .notNull()
      .references(() => users.uid, { onDelete: "cascade" }),
    tuneFileId: uuid("tune_file_id")
      .notNull()
      .references(() => tuneFiles.id, { onDelete: "cascade" }),
    /** A licence binds the tune to one car: a purchase is for one vehicle, and bakes are made only for it. */
    vehicleId: uuid("vehicle_id")
      .notNull()
      .references(() => userVehicles.id, { onDelete: "cascade" }),
    /** Who granted it when no payment was involved. */
    grantedBy: text("granted_by").references(() => users.uid),
    /**
     * The paid order that made it (orders in ./payments; no foreign key, which would make the two
     * schema files import each other: orders are never deleted, and a refund removes this row).
     */
    orderId: uuid("order_id"),
    /**
     * The car it is bound to, as the car was when the licence was made (copied from the vehicle by
     * the trigger tune_file_purchases_bind, whoever inserts): the pre-flight refuses another VIN,
     * ECU serial or software id, as HP Tuners binds a licence to VIN, ECU and OS.
     */
    vin: text("vin"),
    ecuSerial: text("ecu_serial"),
    softwareId: text("software_id"),
    /** The first verified flash of the tune onto the car: the licence is used from then on. */
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("tune_file_purchases_key").on(t.customerUid, t.tuneFileId, t.vehicleId),
    index("tune_file_purchases_vehicle_idx").on(t.vehicleId),
    index("tune_file_purchases_tune_idx").on(t.tuneFileId),
  ],
);

export const tuneFilePatches = pgTable(
  "tune_file_patches",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    firmwareIds: text("firmware_ids").array().notNull().default(sql`'{}'::text[]`),
    /** contracts/tune-definition patchEntrySchema[], normalised */
    entries: jsonb("entries").$type<Array<{ address: number; patch: string; base: string }>>().notNull(),
    ...timestamps,
  },
  (t) => [
    index("tune_file_patches_firmware_ids_idx").using("gin", t.firmwareIds),
    index("tune_file_patches_updated_at_idx").on(t.updatedAt, t.id),
    index("tune_file_patches_search_idx").using("gin", sql`(${t.title} || ' ' || ${t.description}) gin_trgm_ops`),
  ],
);

export const bakedTuneFiles = pgTable(
  "baked_tune_files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    vehicleId: uuid("vehicle_id")
      .notNull()
      .references(() => userVehicles.id, { onDelete: "cascade" }),
    firmwareId: text("firmware_id").notNull(),
    /** Null for a direct bake of a supplied image (sourceSha256). */
    tuneFileId: uuid("tune_file_id").references(() => tuneFiles.id, { onDelete: "cascade" }),
    tuneVersion: integer("tune_version"),
    sourceSha256: text("source_sha256"),
    patchIds: uuid("patch_ids").array().notNull().default(sql`'{}'::uuid[]`),
    sha256: text("sha256").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    /** domain/tune BakeReport */
    report: jsonb("report").$type<Record<string, unknown>>().notNull(),
    /** Flash slot the bake was made for; null for a preview. */
    slot: integer("slot"),
    /** Temp bakes expire; reads after this answer 404 (410 would leak that it existed to others). */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdBy: text("created_by")
      .notNull()
      .references(() => users.uid),
    ...timestamps,
  },
  (t) => [
    index("baked_tune_files_vehicle_idx").on(t.vehicleId, t.createdAt),
    index("baked_tune_files_tune_idx").on(t.tuneFileId),
    index("baked_tune_files_patch_ids_idx").using("gin", t.patchIds),
  ],
);
