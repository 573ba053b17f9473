/**
 * What the server-management page reads: the server's state, the machine it runs on, and the
 * background jobs (blob collection, re-baking) with their progress.
 */
import { z } from "zod";

/**
 * A job's state on the queue (pg-boss): waiting, waiting again after a failed attempt (with
 * backoff), running, done, failed after its last attempt (retryable by an admin), cancelled.
 */
export const jobStateSchema = z.enum(["queued", "retrying", "running", "succeeded", "failed", "cancelled"]);
export type JobState = z.infer<typeof jobStateSchema>;

export const jobFailureSchema = z.strictObject({ item: z.string(), message: z.string() });

export const jobSnapshotSchema = z.strictObject({
  /** The queue's job id (pg-boss), as `SELECT * FROM pgboss.job WHERE id = …` finds it. */
  id: z.string(),
  /** The queue: rebake-all, collect-blobs, reconcile-users, mail.send, tuning-requests.auto-accept, tuning-requests.due-notices; `<kind>.dead` for dead letters. */
  kind: z.string(),
  state: jobStateSchema,
  total: z.number(),
  done: z.number(),
  /** Items that failed while the job went on with the rest (a bake that could not be redone). */
  failures: z.array(jobFailureSchema),
  createdAt: z.string(),
  /** When a waiting job may run: later than now for a delayed start or a retry's backoff. */
  startsAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Attempts made after the first, and how many are allowed. */
  retries: z.number(),
  retryLimit: z.number(),
  /** Why the last attempt failed (a failed or retrying job). */
  error: z.string().nullable(),
  /** A copy in a dead-letter queue of a job that failed its last attempt. */
  deadLetter: z.boolean(),
  /** What the job reports when it ends (counts, sizes). */
  result: z.record(z.string(), z.number()).optional(),
});
export type JobSnapshot = z.infer<typeof jobSnapshotSchema>;

export const queueCountsSchema = z.strictObject({
  queued: z.number(),
  retrying: z.number(),
  running: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  cancelled: z.number(),
});

export const queueStatusSchema = z.strictObject({
  ok: z.boolean(),
  /** Where the queue's tables are: the app's own database (PostgreSQL or PGlite). */
  backend: z.enum(["pglite", "postgres"]),
  /** How long, in seconds, the longest-waiting job that is due has waited to run (since it became due: a delayed start or a retry's backoff is not lag); 0 when none waits. */
  lagSeconds: z.number(),
  counts: queueCountsSchema,
  /** Failed jobs (after their last attempt), retryable from /status/background. */
  failed: z.number(),
  /** Jobs in the dead-letter queues. */
  deadLetters: z.number(),
  schedules: z.array(z.strictObject({ kind: z.string(), cron: z.string() })),
});
export type QueueStatus = z.infer<typeof queueStatusSchema>;

export const componentNameSchema = z.enum(["api", "database", "identity", "payments", "storage", "queue"]);
export const componentHealthSchema = z.strictObject({
  name: componentNameSchema,
  ok: z.boolean(),
  /** One line for the card: what answered, or why not. */
  detail: z.string(),
  /** How long the check took. */
  latencyMs: z.number(),
});
export type ComponentHealth = z.infer<typeof componentHealthSchema>;

export const serverStatusSchema = z.strictObject({
  version: z.string(),
  mode: z.string(),
  startedAt: z.string(),
  uptimeSeconds: z.number(),
  memory: z.strictObject({ rssBytes: z.number(), heapUsedBytes: z.number() }),
  database: z.strictObject({ kind: z.enum(["pglite", "postgres"]), ok: z.boolean() }),
  identity: z.strictObject({ ok: z.boolean(), emulator: z.boolean() }),
  jobs: z.strictObject({ running: z.number() }),
  /** Health per component: API, database, identity, payment provider, storage, queue. */
  components: z.array(componentHealthSchema),
  queue: queueStatusSchema,
});
export type ServerStatus = z.infer<typeof serverStatusSchema>;

/** GET /status/app-info: versions, build and the configuration with every secret masked. */
export const appInfoSchema = z.strictObject({
  versions: z.strictObject({
    app: z.string(),
    node: z.string(),
    /** Key libraries by package name, as installed. */
    libraries: z.record(z.string(), z.string()),
  }),
  build: z.strictObject({
    /** The web app's build id (build-manifest.json), null when no build is served. */
    id: z.string().nullable(),
    commit: z.string().nullable(),
    time: z.string().nullable(),
  }),
  /** Each setting the server read; a secret's value is masked (`••••`, or a URL with its password masked). */
  configuration: z.array(z.strictObject({ key: z.string(), value: z.string().nullable(), masked: z.boolean() })),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

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
