/**
 * What the server-management page reads: the server's state, the machine it runs on, and the
 * background jobs (blob collection, re-baking) with their progress.
 */
import { z } from "zod";

export const jobStateSchema = z.enum(["queued", "running", "succeeded", "failed"]);
export type JobState = z.infer<typeof jobStateSchema>;

export const jobSnapshotSchema = z.strictObject({
  id: z.string(),
  kind: z.string(),
  state: jobStateSchema,
  total: z.number(),
  done: z.number(),
  failures: z.array(z.strictObject({ item: z.string(), message: z.string() })),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** What the job reports when it ends (counts, sizes). */
  result: z.record(z.string(), z.number()).optional(),
});
export type JobSnapshot = z.infer<typeof jobSnapshotSchema>;

export const serverStatusSchema = z.strictObject({
  version: z.string(),
  mode: z.string(),
  startedAt: z.string(),
  uptimeSeconds: z.number(),
  memory: z.strictObject({ rssBytes: z.number(), heapUsedBytes: z.number() }),
  database: z.strictObject({ kind: z.enum(["pglite", "postgres"]), ok: z.boolean() }),
  identity: z.strictObject({ ok: z.boolean(), emulator: z.boolean() }),
  jobs: z.strictObject({ running: z.number() }),
});
export type ServerStatus = z.infer<typeof serverStatusSchema>;

export const systemInfoSchema = z.strictObject({
  node: z.string(),
  platform: z.string(),
  cpus: z.number(),
  loadAverage: z.array(z.number()),
  /** process.memoryUsage() with the machine's total and free memory. */
  memory: z.record(z.string(), z.number()),
  processUptimeSeconds: z.number(),
  uptimeSeconds: z.number(),
});
export type SystemInfo = z.infer<typeof systemInfoSchema>;

export const backgroundJobsSchema = z.strictObject({ jobs: z.array(jobSnapshotSchema) });

/** A job started on request (re-baking every kept bake): follow it in the background jobs. */
export const startedJobSchema = z.strictObject({ job: jobSnapshotSchema });
