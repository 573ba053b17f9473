/**
 * Layouts: the log chart's panes a user keeps under a name for one logger's logs ("Boost" for
 * their RomRaider logs). They go with their user.
 */

import { sql } from "drizzle-orm";
import { jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";
import { users } from "./users";

export const dataLogLayouts = pgTable(
  "data_log_layouts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerUid: text("owner_uid")
      .notNull()
      .references(() => users.uid, { onDelete: "cascade" }),
    /** The logger's format id, as data logs name it. */
    format: text("format").notNull(),
    name: text("name").notNull(),
    /** Panes top to bottom, each the channel ids it draws. */
    panes: jsonb("panes").$type<string[][]>().notNull(),
    ...timestamps,
  },
  // One name per user and logger, whatever its case: "boost" and "Boost" would read as one.
  (t) => [uniqueIndex("data_log_layouts_owner_format_name_key").on(t.ownerUid, t.format, sql`lower(${t.name})`)],
);
