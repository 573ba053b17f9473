/** A user's profile picture, kept in the database and served by the public site. */
import { pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

/** A user's resized profile picture, kept in the blob store; the identity user's photoURL points at it. */
export const profilePictures = pgTable("profile_pictures", {
  userUid: text("user_uid")
    .primaryKey()
    .references(() => users.uid, { onDelete: "cascade" }),
  sha256: text("sha256").notNull(),
  contentType: text("content_type").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
