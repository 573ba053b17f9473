/** The portal's users: the identity service's accounts mirrored, with their role and profile. */
import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const roles = ["customer", "dealer", "admin"] as const;

export type Role = (typeof roles)[number];

/** Our mirror of identity users: the identity service owns credentials, we own role and profile. */
export const users = pgTable(
  "users",
  {
    uid: text("uid").primaryKey(),
    email: text("email"),
    displayName: text("display_name"),
    photoUrl: text("photo_url"),
    phoneNumber: text("phone_number"),
    role: text("role", { enum: roles }).notNull().default("customer"),
    disabled: boolean("disabled").notNull().default(false),
    emailVerified: boolean("email_verified").notNull().default(false),
    preferences: jsonb("preferences")
      .$type<{ units?: "metric" | "imperial"; language?: string; emailNotifications?: boolean }>()
      .notNull()
      .default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    /** From the identity service (the mirror's copy, for search without paging through it). */
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
    /** Set when an admin deleted the account: the row stays (money and the audit refer to it), its personal data cleared. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (table) => [
    index("users_email_idx").on(sql`lower(${table.email})`),
    // The list's orders end with the uid in the sort's direction: ascending indexes serve both
    // directions (scanned backwards for "newest first"), so no sort of the whole table.
    index("users_created_idx").on(table.createdAt, table.uid),
    index("users_role_idx").on(table.role, table.createdAt, table.uid),
    index("users_role_last_sign_in_idx").on(table.role, table.lastSignInAt, table.uid),
    index("users_last_sign_in_idx").on(table.lastSignInAt, table.uid),
    index("users_email_sort_idx").on(table.email, table.uid),
    // Few rows each: support's "disabled" and "deleted" views read only these.
    index("users_disabled_idx").on(table.createdAt, table.uid).where(sql`${table.disabled}`),
    index("users_deleted_idx").on(table.createdAt, table.uid).where(sql`${table.deletedAt} is not null`),
    // The list's `q` (email or name anywhere): the trigram index on exactly the search expression.
    index("users_search_idx").using(
      "gin",
      sql`(coalesce(${table.email}, '') || ' ' || coalesce(${table.displayName}, '')) gin_trgm_ops`,
    ),
  ],
);
