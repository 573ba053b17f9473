import { integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Progress of a background job while it runs (the job itself, its state, retries and errors are
 * pg-boss's rows in the `pgboss` schema, keyed by the same id). Written by the job's worker: how
 * many items there are, how many are done, which failed and why, and what the job reported at the
 * end. Kept after the job as its result; one row per attempt's job id.
 */
export const jobProgress = pgTable("job_progress", {
  jobId: uuid("job_id").primaryKey(),
  kind: text("kind").notNull(),
  total: integer("total").notNull().default(0),
  done: integer("done").notNull().default(0),
  failures: jsonb("failures").$type<{ item: string; message: string }[]>().notNull().default([]),
  result: jsonb("result").$type<Record<string, number>>(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
