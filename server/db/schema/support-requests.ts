/**
 * A customer's request that the portal support their car (VIN, ECU ids, optionally a read of the
 * ECU), worked by admins from new to supported or rejected.
 */
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";
import { users } from "./users";

export const supportRequestStatuses = ["new", "investigating", "supported", "rejected"] as const;

type SupportRequestStatusValue = (typeof supportRequestStatuses)[number];

export const supportRequests = pgTable(
  "support_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    requesterUid: text("requester_uid")
      .notNull()
      .references(() => users.uid, { onDelete: "cascade" }),
    vin: text("vin").notNull(),
    make: text("make").notNull(),
    model: text("model").notNull(),
    year: integer("year").notNull(),
    ecuIds: text("ecu_ids").array().notNull().default(sql`'{}'::text[]`),
    readFileSha256: text("read_file_sha256"),
    readFileSize: integer("read_file_size"),
    status: text("status", { enum: supportRequestStatuses }).notNull().default("new"),
    /** Append-only: `{ at, by, text }`; the admins' working notes, not shown to the requester. */
    notes: jsonb("notes").$type<Array<{ at: string; by: string; text: string }>>().notNull().default([]),
    /** Append-only, one entry per change of status: what the requester was told (the note given with the change, if any). */
    history: jsonb("history")
      .$type<Array<{ at: string; status: SupportRequestStatusValue; note: string | null }>>()
      .notNull()
      .default([]),
    firmwareId: text("firmware_id"),
    ...timestamps,
  },
  (t) => [
    index("support_requests_status_idx").on(t.status, t.createdAt, t.id),
    index("support_requests_created_at_idx").on(t.createdAt, t.id),
    // A requester's own requests, newest first (GET …/support-request/mine).
    index("support_requests_requester_idx").on(t.requesterUid, t.createdAt, t.id),
    index("support_requests_firmware_idx").on(t.firmwareId),
    index("support_requests_search_idx").using(
      "gin",
      sql`(${t.vin} || ' ' || ${t.make} || ' ' || ${t.model}) gin_trgm_ops`,
    ),
  ],
);
