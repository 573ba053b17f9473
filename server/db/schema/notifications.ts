/**
 * What the portal tells a user about their own things (a support request
 * worked, …). A notification is written in the transaction of the change it
 * reports (server/services/notifications.ts), so it exists exactly when the
 * change does.
 */
import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { NOTIFICATION_KINDS } from "../../../contracts/notifications";
import { users } from "./users";

export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    recipientUid: text("recipient_uid")
      .notNull()
      .references(() => users.uid, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    /** An in-app path (`/my-tunes`), never an absolute URL. */
    link: text("link"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (t) => [
    // A user's list, newest first (scanned backwards), and its paging tie-break.
    index("notifications_recipient_created_idx").on(t.recipientUid, t.createdAt, t.id),
    // The unread count and the unread filter touch only unread rows, however many were read.
    index("notifications_recipient_unread_idx").on(t.recipientUid, t.createdAt, t.id).where(sql`${t.readAt} IS NULL`),
  ],
);
