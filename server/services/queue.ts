/**
 * Background jobs on a real queue: pg-boss, on the app's own database.
 *
 * - PostgreSQL (DATABASE_URL): pg-boss keeps its own small pool to the same database.
 * - PGlite (the embedded default): pg-boss's `db` option, its SQL run on the app's PGlite client.
 *   PGlite has one session and serialises every query and transaction through one lock, so:
 *   a statement pg-boss sends without parameters (its maintenance, migrations and locked commands,
 *   several statements between its own BEGIN and COMMIT) runs as one PGlite transaction, rolled
 *   back as a whole when it fails, so no other query can ever run inside it or after an aborted
 *   half of it; and a queue call made inside one of the app's open transactions is refused at once
 *   (it would wait for the lock that transaction holds, forever) — pass the transaction instead
 *   (`executorOn(tx)`), which also makes the enqueue part of it.
 *
 * One code path: the same queues, workers, retries, dead letters and schedules on both.
 *
 * Every kind of job is declared once (`define`): its handler, retries with exponential backoff,
 * its dead-letter queue (`<kind>.dead`, where a job lands after its last failed attempt), how
 * long an attempt may run before the queue takes it back (a worker that died mid-job: pg-boss's
 * maintenance finds it expired and it is retried), and its schedule (cron, UTC). Progress is kept
 * in `job_progress` (done/total, failed items, result) under the job's id.
 */
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import PgBoss from "pg-boss";
import type { JobSnapshot, JobState, QueueStatus } from "../../contracts/server-management";
import type { Database, Db, Tx } from "../db/connection";
import { jobProgress } from "../db/schema";
import { insideTransaction, outsideTransaction, QueryEscapedTransactionError } from "../db/transaction-guard";

export const DEAD_LETTER_SUFFIX = ".dead";
const SCHEMA = "pgboss";

export interface JobContext {
  readonly jobId: string;
  /** Attempts made before this one. */
  readonly retries: number;
  /** Aborted when the queue stops (shutdown): stop at the next item; the job is retried at the next start. */
  readonly signal: AbortSignal;
  setTotal(total: number): void;
  /** One unit done; a failure is recorded and the job goes on with the rest. */
  step(failure?: { item: string; message: string }): void;
}

export type JobHandler<T> = (data: T, context: JobContext) => Promise<void | Record<string, number>>;

export interface JobDefinition<T = Record<string, unknown>> {
  kind: string;
  handler: JobHandler<T>;
  /** Attempts after the first (default 3), `retryDelaySeconds` apart, doubling each time. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** An attempt still running after this long is taken back and retried (default 15 minutes). */
  expireInSeconds?: number;
  /** Cron (UTC) on which the queue starts the job by itself. */
  cron?: string;
  /** Record done/total and failed items in job_progress (default true). */
  progress?: boolean;
  /** Remove the job's row once it completed (its data must not outlive it: mail carries one-time codes). */
  deleteOnComplete?: boolean;
  /** At most one attempt runs at a time (default true): two blob collections or rebakes never overlap. */
  single?: boolean;
}

/** Runs pg-boss's SQL on a handle (the app's db, or an open transaction: then it is part of it). */
export interface Executor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface QueueOptions {
  database: Database;
  databaseUrl?: string;
  log: FastifyBaseLogger;
  /** Register the cron schedules (off in tests, where nothing should start by itself). */
  schedules: boolean;
  /** How often an idle worker asks for work (seconds, at least 0.5); jobs sent by this process wake it at once. */
  pollingIntervalSeconds?: number;
  /** How often pg-boss expires attempts that ran too long and archives old jobs (seconds). */
  maintenanceIntervalSeconds?: number;
}

/** pg-boss's SQL through drizzle on a handle: `$1…$n` become parameters. */
export function executorOn(handle: Db | Tx): Executor {
  return {
    async executeSql(text, values = []) {
      const parts = text.split(/\$(\d+)/);
      const query = sql.empty();
      parts.forEach((part, index) => {
        if (index % 2 === 0) query.append(sql.raw(part));
        else query.append(sql`${sql.param(values[Number(part) - 1] ?? null)}`);
      });
      const result = (await handle.execute(query)) as unknown as { rows: any[] };
      return { rows: result.rows };
    },
  };
}

/** pg-boss's SQL on the embedded PGlite client (see the file's header for why each rule). */
function pgliteExecutor(client: PGlite, inFlight: Set<Promise<unknown>>, stopped: () => boolean): Executor {
  return {
    executeSql(text, values) {
      if (insideTransaction()) return Promise.reject(new QueryEscapedTransactionError("queue"));
      if (stopped()) return Promise.reject(new Error("the job queue is stopped"));
      const run: Promise<{ rows: any[] }> =
        values && values.length > 0
          ? client.query(text, values as any[])
          : client.transaction(async (tx) => {
              const results = await tx.exec(text);
              return { rows: results.at(-1)?.rows ?? [] };
            });
      const tracked = run.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      return run;
    },
  };
}

const STATE_OF: Record<string, JobState> = {
  created: "queued",
  retry: "retrying",
  active: "running",
  completed: "succeeded",
  failed: "failed",
  cancelled: "cancelled",
};

interface JobRow {
  id: string;
  name: string;
  state: string;
  retry_count: number;
  retry_limit: number;
  created_on: Date | string;
  start_after: Date | string | null;
  started_on: Date | string | null;
  completed_on: Date | string | null;
  output: unknown;
  total: number | null;
  done: number | null;
  failures: { item: string; message: string }[] | null;
  result: Record<string, number> | null;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** The message of a failed attempt as pg-boss stored it (a serialised Error, or what the handler threw). */
export function errorOf(output: unknown): string | null {
  if (output === null || output === undefined) return null;
  if (typeof output === "string") return output;
  if (typeof output === "object") {
    const value = output as { message?: unknown; value?: unknown };
    if (typeof value.message === "string") return value.message;
    if (value.value !== undefined) return errorOf(value.value);
  }
  return JSON.stringify(output);
}

function snapshotOf(row: JobRow): JobSnapshot {
  const state = STATE_OF[row.state] ?? "queued";
  const failedAttempt = state === "failed" || state === "retrying";
  return {
    id: row.id,
    kind: row.name,
    state,
    total: row.total ?? 0,
    done: row.done ?? 0,
    failures: row.failures ?? [],
    createdAt: iso(row.created_on)!,
    startsAt: state === "queued" || state === "retrying" ? iso(row.start_after) : null,
    startedAt: iso(row.started_on),
    finishedAt: state === "succeeded" || state === "failed" || state === "cancelled" ? iso(row.completed_on) : null,
    retries: Number(row.retry_count),
    retryLimit: Number(row.retry_limit),
    error: failedAttempt ? errorOf(row.output) : null,
    deadLetter: row.name.endsWith(DEAD_LETTER_SUFFIX),
    ...(row.result && { result: row.result }),
  };
}

/** Writes a running job's progress, at most every 250 ms, and once more at the end. */
class ProgressWriter implements JobContext {
  total = 0;
  done = 0;
  failures: { item: string; message: string }[] = [];
  private lastWrite = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    readonly jobId: string,
    private readonly kind: string,
    readonly retries: number,
    readonly signal: AbortSignal,
    private readonly enabled: boolean,
  ) {}

  async begin(): Promise<void> {
    if (!this.enabled) return;
    await this.db
      .insert(jobProgress)
      .values({ jobId: this.jobId, kind: this.kind })
      .onConflictDoUpdate({
        target: jobProgress.jobId,
        set: { total: 0, done: 0, failures: [], result: null, updatedAt: new Date() },
      });
  }

  setTotal(total: number): void {
    this.total = total;
    this.maybeWrite();
  }

  step(failure?: { item: string; message: string }): void {
    if (this.signal.aborted) throw new Error("the queue is stopping; the job will be retried");
    this.done += 1;
    if (failure) this.failures.push(failure);
    this.maybeWrite();
  }

  private maybeWrite(): void {
    if (!this.enabled || Date.now() - this.lastWrite < 250) return;
    this.lastWrite = Date.now();
    this.writing = this.writing.then(() => this.write()).catch(() => undefined);
  }

  private async write(result?: Record<string, number>): Promise<void> {
    await this.db
      .update(jobProgress)
      .set({
        total: this.total,
        done: this.done,
        failures: this.failures,
        ...(result && { result }),
        updatedAt: new Date(),
      })
      .where(sql`${jobProgress.jobId} = ${this.jobId}`);
  }

  async finish(result?: Record<string, number>): Promise<void> {
    if (!this.enabled) return;
    await this.writing;
    await this.write(result);
  }
}

interface BossJob {
  id: string;
  data: unknown;
  retryCount?: number;
}

/** The queue every background job goes through (`ctx.jobs`). */
export class JobQueue {
  readonly backend: "pglite" | "postgres";
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition<any>>();
  private readonly workers = new Map<string, string>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly running = new Set<Promise<unknown>>();
  private readonly stopping = new AbortController();
  private starting: Promise<void> | null = null;
  private stopped = false;
  private readonly db: Db;

  constructor(private readonly options: QueueOptions) {
    this.db = options.database.db;
    this.backend = options.database.kind;
    const common = {
      schema: SCHEMA,
      schedule: options.schedules,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 60,
      // Completed jobs stay an hour in the job table, then a week in the archive.
      archiveCompletedAfterSeconds: 3600,
      archiveFailedAfterSeconds: 7 * 24 * 3600,
      deleteAfterDays: 7,
    };
    if (options.database.pglite) {
      const db = pgliteExecutor(options.database.pglite, this.inFlight, () => this.stopped);
      this.boss = new PgBoss({ ...common, db });
    } else {
      // The database's own address (a scratch database a bench opened) before the configured one.
      const connectionString = options.database.url ?? options.databaseUrl;
      if (!connectionString) throw new Error("the job queue needs DATABASE_URL or the embedded database");
      this.boss = new PgBoss({ ...common, connectionString, max: 3, application_name: "portal-queue" });
    }
    this.boss.on("error", (error: Error) => {
      // A singleton queue's worker asking while one attempt runs meets pg-boss's unique index
      // (job_i2): that is how the policy waits, not a failure.
      if (/job_i2/.test(String(error.message)))
        options.log.debug({ err: error }, "job queue: one attempt at a time, the next waits");
      else options.log.warn({ err: error }, "job queue error");
    });
  }

  /** Declares a kind of job; `start` creates its queues, worker and schedule. */
  define<T>(definition: JobDefinition<T>): void {
    this.definitions.set(definition.kind, definition);
  }

  kinds(): string[] {
    return [...this.definitions.keys()];
  }

  /** Starts pg-boss (creating its schema the first time), the queues, their workers and schedules. Idempotent. */
  start(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error("the job queue is stopped"));
    // pg-boss's pollers and timers must not inherit a transaction's context from whoever started it.
    this.starting ??= outsideTransaction(() => this.startOnce());
    return this.starting;
  }

  private async startOnce(): Promise<void> {
    await this.boss.start();
    for (const definition of this.definitions.values()) {
      const deadLetter = `${definition.kind}${DEAD_LETTER_SUFFIX}`;
      await this.boss.createQueue(deadLetter, { name: deadLetter, retentionMinutes: 14 * 24 * 60 });
      const queueOptions = {
        name: definition.kind,
        policy: definition.single === false ? "standard" : "singleton",
        retryLimit: definition.retryLimit ?? 3,
        retryDelay: definition.retryDelaySeconds ?? 30,
        retryBackoff: true,
        expireInSeconds: definition.expireInSeconds ?? 15 * 60,
        retentionMinutes: 7 * 24 * 60,
        deadLetter,
      } as const;
      if (await this.boss.getQueue(definition.kind)) await this.boss.updateQueue(definition.kind, queueOptions);
      else await this.boss.createQueue(definition.kind, queueOptions);
      const workerId = await this.boss.work(
        definition.kind,
        { pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2 },
        ([job]: BossJob[]) => this.run(definition, job),
      );
      this.workers.set(definition.kind, workerId);
      if (this.options.schedules && definition.cron)
        await this.boss.schedule(definition.kind, definition.cron, {}, { tz: "UTC" });
    }
  }

  private run(definition: JobDefinition<any>, job: BossJob): Promise<unknown> {
    const work = (async () => {
      const progress = new ProgressWriter(
        this.db,
        job.id,
        definition.kind,
        job.retryCount ?? 0,
        this.stopping.signal,
        definition.progress !== false,
      );
      await progress.begin();
      try {
        const result = await definition.handler(job.data ?? {}, progress);
        await progress.finish(result ?? undefined);
        if (definition.deleteOnComplete) await this.boss.deleteJob(definition.kind, job.id);
        return result ?? null;
      } catch (error) {
        await progress.finish().catch(() => undefined);
        this.options.log.warn(
          { err: error, jobId: job.id, kind: definition.kind, retries: job.retryCount },
          "background job attempt failed",
        );
        throw error;
      }
    })();
    const tracked = work.catch(() => undefined).finally(() => this.running.delete(tracked));
    this.running.add(tracked);
    return work;
  }

  /**
   * Queues a job; with `tx` it is part of that transaction (committed with it, or never). Resolves
   * with the job's id once the queue has it.
   */
  async send(kind: string, data: object = {}, options: { startAfterSeconds?: number; tx?: Tx } = {}): Promise<string> {
    if (!this.definitions.has(kind)) throw new Error(`no job kind ${kind}`);
    // Inside a transaction the queue must have been started before (buildApp's onReady does).
    if (!options.tx) await this.start();
    else if (!this.starting) throw new Error("the job queue is not started");
    else await this.starting;
    const id = await this.boss.send(kind, data, {
      ...(options.startAfterSeconds && { startAfter: options.startAfterSeconds }),
      ...(options.tx && { db: executorOn(options.tx) }),
    });
    if (!id) throw new Error(`the queue did not take the ${kind} job (one is waiting already)`);
    const worker = this.workers.get(kind);
    // A job queued in a transaction is not visible before the commit: the caller wakes the worker then.
    if (worker && !options.startAfterSeconds && !options.tx) this.boss.notifyWorker(worker);
    return id;
  }

  private async rows(where: ReturnType<typeof sql>, limit: number): Promise<JobRow[]> {
    const names = this.allNames();
    const result = await this.db.execute(sql`
      SELECT j.id, j.name, j.state, j.retry_count, j.retry_limit, j.created_on, j.start_after, j.started_on, j.completed_on, j.output,
             p.total, p.done, p.failures, p.result
      FROM (
        SELECT id, name, state, retry_count, retry_limit, created_on, start_after, started_on, completed_on, output FROM ${sql.raw(SCHEMA)}.job
        UNION ALL
        SELECT id, name, state, retry_count, retry_limit, created_on, start_after, started_on, completed_on, output FROM ${sql.raw(SCHEMA)}.archive
      ) j
      LEFT JOIN job_progress p ON p.job_id = j.id
      WHERE j.name = ANY(${sql.param(names)}::text[]) AND ${where}
      ORDER BY j.created_on DESC, j.id
      LIMIT ${limit}`);
    return (result as unknown as { rows: JobRow[] }).rows;
  }

  private allNames(): string[] {
    return this.kinds().flatMap((kind) => [kind, `${kind}${DEAD_LETTER_SUFFIX}`]);
  }

  /** The newest jobs, with their progress and errors (mail jobs are deleted once sent). */
  async list(limit = 50): Promise<JobSnapshot[]> {
    await this.start();
    return (await this.rows(sql`true`, limit)).map(snapshotOf);
  }

  async get(id: string): Promise<JobSnapshot | null> {
    await this.start();
    const [row] = await this.rows(sql`j.id = ${id}::uuid`, 1);
    return row ? snapshotOf(row) : null;
  }

  /** Lag, counts by state, failed jobs and dead letters over every queue of ours. */
  async status(): Promise<QueueStatus> {
    await this.start();
    const kinds = this.kinds();
    const deadLetters = kinds.map((kind) => `${kind}${DEAD_LETTER_SUFFIX}`);
    const result = await this.db.execute(sql`
      SELECT state, count(*)::int AS count,
             extract(epoch FROM now() - min(CASE WHEN state IN ('created', 'retry') AND start_after <= now() THEN start_after END))::float AS lag
      FROM ${sql.raw(SCHEMA)}.job WHERE name = ANY(${sql.param(kinds)}::text[]) GROUP BY state`);
    const counts = { queued: 0, retrying: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
    let lag = 0;
    for (const row of (result as unknown as { rows: { state: string; count: number; lag: number | null }[] }).rows) {
      const state = STATE_OF[row.state];
      if (state) counts[state] += Number(row.count);
      if (row.lag !== null) lag = Math.max(lag, Number(row.lag));
    }
    const dead = await this.db.execute(
      sql`SELECT count(*)::int AS count FROM ${sql.raw(SCHEMA)}.job WHERE name = ANY(${sql.param(deadLetters)}::text[]) AND state IN ('created', 'retry')`,
    );
    const schedules = this.options.schedules
      ? ((await this.boss.getSchedules()) as { name: string; cron: string }[])
      : [];
    return {
      ok: true,
      backend: this.backend,
      lagSeconds: Math.round(lag * 10) / 10,
      counts,
      failed: counts.failed,
      deadLetters: Number((dead as unknown as { rows: { count: number }[] }).rows[0]?.count ?? 0),
      schedules: schedules
        .filter((schedule) => this.definitions.has(schedule.name))
        .map((schedule) => ({ kind: schedule.name, cron: schedule.cron })),
    };
  }

  /**
   * Puts a failed job back on its queue (one more attempt allowed); with `tx`, as part of that
   * transaction (the audit row of the admin who asked). false when the job is not a failed one.
   */
  async retry(job: JobSnapshot, tx?: Tx): Promise<boolean> {
    if (!tx) await this.start();
    const answer = (await this.boss.retry(job.kind, job.id, tx ? { db: executorOn(tx) } : {})) as unknown as {
      affected: number;
    };
    const worker = this.workers.get(job.kind);
    if (answer.affected > 0 && worker && !tx) this.boss.notifyWorker(worker);
    return answer.affected > 0;
  }

  /** Wakes the kind's worker (after a retry committed in a transaction). */
  wake(kind: string): void {
    const worker = this.workers.get(kind);
    if (worker) this.boss.notifyWorker(worker);
  }

  /**
   * Resolves once no job of ours is running or due (tests, and anyone who wants the work done
   * before going on). Jobs waiting for a later time (a retry's backoff) are not waited for.
   */
  async idle(timeoutMs = 30_000): Promise<void> {
    if (!this.starting) return;
    await this.starting;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const due = await this.db.execute(
        sql`SELECT count(*)::int AS count FROM ${sql.raw(SCHEMA)}.job WHERE name = ANY(${sql.param(this.kinds())}::text[]) AND (state = 'active' OR (state IN ('created', 'retry') AND start_after <= now()))`,
      );
      const count = Number((due as unknown as { rows: { count: number }[] }).rows[0]?.count ?? 0);
      if (count === 0 && this.running.size === 0) return;
      if (Date.now() > deadline)
        throw new Error(`the job queue was still busy after ${timeoutMs} ms (${count} jobs due or running)`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * Stops taking work and waits up to `timeoutMs` for attempts in progress (they are told through
   * their signal to stop at the next item); attempts still running then are marked failed and are
   * retried at the next start. Then closes pg-boss's connections.
   */
  async stop(timeoutMs = 5000): Promise<void> {
    if (this.stopped) return;
    const started = this.starting;
    if (!started) {
      this.stopped = true;
      return;
    }
    await started.catch(() => undefined);
    this.stopping.abort();
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((resolve) => setTimeout(resolve, timeoutMs).unref()),
    ]);
    // pg-boss completes a job without awaiting it: let those last statements finish before the database closes.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await Promise.allSettled([...this.inFlight]);
    this.stopped = true;
  }

  /** For tests: the pg-boss instance (a second "worker process" is a second PgBoss on the same database). */
  get instance(): PgBoss {
    return this.boss;
  }
}
