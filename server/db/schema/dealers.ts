import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { DEALER_STATUSES } from "../../../contracts/public-site";
import { DEFAULT_FREE_REVISION_DAYS } from "../../../contracts/tuning-requests";
import { users } from "./users";

export const dealerStatuses = DEALER_STATUSES;

export type DealerStatus = (typeof dealerStatuses)[number];

export const dealerProfiles = pgTable(
  "dealer_profiles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userUid: text("user_uid")
      .notNull()
      .references(() => users.uid, { onDelete: "cascade" }),
    businessName: text("business_name").notNull(),
    status: text("status", { enum: dealerStatuses }).notNull().default("pending"),
    address: text("address"),
    registrationNumber: text("registration_number"),
    vatNumber: text("vat_number"),
    website: text("website"),
    phone: text("phone"),
    /** ISO 3166-1 alpha-2, for the dealer directory. */
    country: text("country"),
    /** Why the status last changed (the admin's words, told to the dealer), by whom and when. */
    statusReason: text("status_reason"),
    statusChangedBy: text("status_changed_by"),
    statusChangedAt: timestamp("status_changed_at", { withTimezone: true }),
    /** Custom tunes: free revisions for this many days after the first delivery. */
    freeRevisionDays: integer("free_revision_days").notNull().default(DEFAULT_FREE_REVISION_DAYS),
    /** The approved logo (WebP in the blob store), set only by an approved profile change request. */
    logoSha256: text("logo_sha256"),
    /** The dealer's own words about their business (plain text), changed by them without review. */
    about: text("about"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("dealer_profiles_user_uid_key").on(table.userUid),
    index("dealer_profiles_status_name_idx").on(table.status, table.businessName, table.id),
  ],
);
