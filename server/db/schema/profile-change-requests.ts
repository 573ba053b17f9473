/**
 * Profile change requests: a dealer asks to change their business identity (legal name, company
 * number, VAT id, address, logo) with documents; an admin approves (the changes are applied to the
 * dealer profile in the same transaction) or rejects with a note. At most one request per dealer
 * is open: a partial unique index, so concurrent submissions cannot make two.
 */
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { type IdentityChanges, PROFILE_CHANGE_STATES } from "../../../contracts/profile-change-requests";
import { dealerProfiles } from "./dealers";
import { users } from "./users";

export const profileChangeRequests = pgTable(
  "profile_change_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userUid: text("user_uid")
      .notNull()
      .references(() => users.uid, { onDelete: "cascade" }),
    dealerProfileId: uuid("dealer_profile_id")
      .notNull()
      .references(() => dealerProfiles.id, { onDelete: "cascade" }),
    state: text("state", { enum: PROFILE_CHANGE_STATES }).notNull().default("open"),
    /** Only the fields that change, with their requested values. */
    changes: jsonb("changes").$type<IdentityChanges>().notNull().default({}),
    comment: text("comment"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: text("decided_by"),
    decisionNote: text("decision_note"),
  },
  (t) => [
    uniqueIndex("profile_change_requests_one_open_key").on(t.userUid).where(sql`${t.state} = 'open'`),
    index("profile_change_requests_user_decided_idx").on(t.userUid, t.decidedAt),
    index("profile_change_requests_state_submitted_idx").on(t.state, t.submittedAt, t.id),
  ],
);

/** A request's documents and requested logo (the logo re-encoded as WebP), kept in the blob store. */
export const profileChangeFiles = pgTable(
  "profile_change_files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => profileChangeRequests.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["document", "logo"] }).notNull(),
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    sha256: text("sha256").notNull(),
    size: integer("size").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("profile_change_files_request_idx").on(t.requestId)],
);
