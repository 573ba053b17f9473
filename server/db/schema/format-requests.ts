/**
 * Format requests: a refused data log kept, with its uploader's consent, for administrators to add
 * its format. The file lives in the data logs' blob store while the request is open; closing the
 * request clears `fileSha256` and deletes the file unless a data log holds the same bytes.
 */
import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { FORMAT_REQUEST_STATES } from "../../../contracts/format-requests";
import { users } from "./users";

export const formatRequests = pgTable(
  "format_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerUid: text("owner_uid")
      .notNull()
      .references(() => users.uid, { onDelete: "cascade" }),
    state: text("state", { enum: FORMAT_REQUEST_STATES }).notNull().default("open"),
    tool: text("tool").notNull(),
    note: text("note"),
    fileName: text("file_name").notNull(),
    fileSize: integer("file_size").notNull(),
    /** Null once the request is closed and its file deleted. */
    fileSha256: text("file_sha256"),
    refusalCode: text("refusal_code").notNull(),
    refusalMessage: text("refusal_message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    closedBy: text("closed_by"),
    closingNote: text("closing_note"),
  },
  (t) => [
    index("format_requests_owner_state_idx").on(t.ownerUid, t.state),
    index("format_requests_created_idx").on(t.createdAt, t.id),
    index("format_requests_file_idx").on(t.fileSha256),
  ],
);
