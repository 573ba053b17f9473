/**
 * Markers: notes a user pins to a moment or a stretch of a data log, in seconds from the log's
 * start. They go with their log. The file's own markers stay in the log's metadata.
 */

import { sql } from "drizzle-orm";
import { check, doublePrecision, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";
import { dataLogs } from "./data-logs";

export const dataLogMarkers = pgTable(
  "data_log_markers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    logId: uuid("log_id")
      .notNull()
      .references(() => dataLogs.id, { onDelete: "cascade" }),
    startSeconds: doublePrecision("start_seconds").notNull(),
    /** Null for a moment; after the start for a stretch. */
    endSeconds: doublePrecision("end_seconds"),
    note: text("note").notNull(),
    ...timestamps,
  },
  (t) => [
    index("data_log_markers_log_idx").on(t.logId, t.startSeconds),
    check("data_log_markers_range_check", sql`${t.endSeconds} IS NULL OR ${t.endSeconds} > ${t.startSeconds}`),
  ],
);
