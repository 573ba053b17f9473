/**
 * The job queue (pg-boss) on both databases: a job whose worker died mid-job is taken back and
 * retried by another worker; a job that keeps failing is retried with backoff and lands in the dead
 * letters; an admin retries a failed job from the API (audited); progress, lag and health reach
 * /status; app info masks every secret; mail goes through the queue and its job is gone once sent.
 */
import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobSnapshot } from "../../contracts/server-management";
import { auditEvents } from "../../server/db/schema";
import { JobQueue } from "../../server/services/queue";
import { bothDatabases, createUser, createUsers, startTestApp, type TestApp, type TestUser } from "./support/harness";
import { waitForMail } from "./support/inbox";
import { requestsTo } from "./support/requests";

const FAST = { QUEUE_POLL_SECONDS: "0.5", QUEUE_MAINTENANCE_SECONDS: "1" };
const silentLog = {
  warn() {},
  info() {},
  error() {},
  debug() {},
  trace() {},
  fatal() {},
  child() {
    return silentLog;
  },
  level: "silent",
} as never;

async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 25_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(bothDatabases)("job queue on %s", (kind) => {
  let test: TestApp;
  let app: FastifyInstance;
  const { call } = requestsTo(() => app);
  let admin: TestUser;
  let customer: TestUser;
  const extraQueues: JobQueue[] = [];
  /** Another worker process on the same database: its own pg-boss instance and workers. */
  const workerProcess = () => {
    const queue = new JobQueue({
      database: app.ctx.database,
      databaseUrl: app.ctx.config.databaseUrl,
      log: silentLog,
      schedules: false,
      pollingIntervalSeconds: 0.5,
      maintenanceIntervalSeconds: 1,
    });
    extraQueues.push(queue);
    return queue;
  };
  let flakyCalls = 0;
  let releaseSlow: () => void = () => {};

  beforeAll(async () => {
    test = await startTestApp(kind, FAST);
    app = test.app;
    // Kinds of this suite's own, on the app's queue (before it starts, at ready).
    app.ctx.jobs.define({
      kind: "test.flaky",
      retryLimit: 0,
      handler: async () => {
        flakyCalls += 1;
        if (flakyCalls === 1) throw new Error("the first attempt fails");
        return { attempt: flakyCalls };
      },
    });
    app.ctx.jobs.define({
      kind: "test.slow",
      handler: async (_data, progress) => {
        progress.setTotal(2);
        progress.step();
        await new Promise<void>((resolve) => (releaseSlow = resolve));
        progress.step({ item: "second", message: "could not do the second" });
        return { items: 2 };
      },
    });
    await app.ready();
    [admin, customer] = await createUsers(test, ["admin", "customer"]);
  });
  afterAll(async () => {
    releaseSlow();
    for (const queue of extraQueues) await queue.stop(1000);
    await test?.close();
  });

  it("takes back a job whose worker died mid-job and has another worker finish it", async () => {
    const kindName = `test.crash-${randomBytes(3).toString("hex")}`;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const dying = workerProcess();
    dying.define({
      kind: kindName,
      expireInSeconds: 2,
      retryDelaySeconds: 1,
      handler: () => (started(), new Promise(() => {})),
    });
    await dying.start();
    const id = await dying.send(kindName);
    await running;
    // The process dies: its worker stops asking for work and never finishes the job, which stays active.
    await dying.instance.offWork(kindName);
    expect((await dying.get(id))?.state).toBe("running");

    const healthy = workerProcess();
    let finishedBy = "";
    healthy.define({
      kind: kindName,
      expireInSeconds: 2,
      retryDelaySeconds: 1,
      handler: async (_data, context) => ((finishedBy = context.jobId), { recovered: 1 }),
    });
    await healthy.start();
    const job = await until(
      "the crashed job",
      () => healthy.get(id),
      (snapshot) => snapshot?.state === "succeeded",
    );
    expect(finishedBy).toBe(id);
    expect(job).toMatchObject({ state: "succeeded", result: { recovered: 1 } });
    expect(job!.retries).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("stops a running job at its next item when the queue shuts down, and the next start finishes it", async () => {
    const kindName = `test.shutdown-${randomBytes(3).toString("hex")}`;
    const closing = workerProcess();
    let stepsDone = 0;
    closing.define({
      kind: kindName,
      retryDelaySeconds: 1,
      handler: async (_data, progress) => {
        progress.setTotal(1000);
        for (let i = 0; i < 1000; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          progress.step();
          stepsDone += 1;
        }
      },
    });
    await closing.start();
    const id = await closing.send(kindName);
    await until(
      "the long job",
      async () => stepsDone,
      (done) => done >= 3,
    );
    const stopping = Date.now();
    await closing.stop(5000);
    expect(Date.now() - stopping, "it did not wait for the 1000 items").toBeLessThan(3000);
    expect(stepsDone).toBeLessThan(1000);

    const next = workerProcess();
    next.define({ kind: kindName, retryDelaySeconds: 1, handler: async () => ({ resumed: 1 }) });
    await next.start();
    const job = await until(
      "the interrupted job",
      () => next.get(id),
      (snapshot) => snapshot?.state === "succeeded",
    );
    expect(job).toMatchObject({ state: "succeeded", result: { resumed: 1 } });
    expect(job!.retries).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("retries a failing job with backoff, then fails it and puts a copy in its dead-letter queue", async () => {
    const kindName = `test.fails-${randomBytes(3).toString("hex")}`;
    const attempts: number[] = [];
    const queue = workerProcess();
    queue.define({
      kind: kindName,
      retryLimit: 2,
      retryDelaySeconds: 1,
      handler: async () => {
        attempts.push(Date.now());
        throw new Error(`attempt ${attempts.length} failed`);
      },
    });
    await queue.start();
    const id = await queue.send(kindName, { what: "always fails" });
    const job = await until(
      "the failing job",
      () => queue.get(id),
      (snapshot) => snapshot?.state === "failed",
    );
    expect(attempts).toHaveLength(3);
    // Backoff: the second wait is longer than the first.
    expect(attempts[2] - attempts[1]).toBeGreaterThan(attempts[1] - attempts[0]);
    expect(job).toMatchObject({
      state: "failed",
      retries: 2,
      retryLimit: 2,
      error: "attempt 3 failed",
      deadLetter: false,
    });
    const dead = (await queue.list()).filter((candidate: JobSnapshot) => candidate.kind === `${kindName}.dead`);
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ deadLetter: true, state: "queued" });
    const status = await queue.status();
    expect(status.failed).toBeGreaterThanOrEqual(1);
    expect(status.deadLetters).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("lets an admin retry a failed job from the API, audited, and refuses everyone else", async () => {
    const id = await app.ctx.jobs.send("test.flaky");
    await until(
      "the flaky job",
      () => app.ctx.jobs.get(id),
      (snapshot) => snapshot?.state === "failed",
    );
    const failed = (await call("GET", "/status/background", admin))
      .json()
      .jobs.find((job: JobSnapshot) => job.id === id);
    expect(failed).toMatchObject({ state: "failed", error: "the first attempt fails" });

    expect((await call("POST", `/status/background/${id}/retry`, customer)).statusCode).toBe(403);
    expect((await call("POST", `/status/background/${id}/retry`, null)).statusCode).toBe(401);
    expect((await app.ctx.db.select().from(auditEvents).where(eq(auditEvents.targetId, id))).length).toBe(0);

    const retried = await call("POST", `/status/background/${id}/retry`, admin);
    expect(retried.statusCode, retried.body).toBe(202);
    await app.ctx.jobs.idle();
    expect(await app.ctx.jobs.get(id)).toMatchObject({ state: "succeeded", result: { attempt: 2 } });
    const audit = await app.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, "job.retried")));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorUid: admin.uid,
      targetType: "job",
      before: expect.objectContaining({ state: "failed" }),
    });

    expect((await call("POST", `/status/background/${id}/retry`, admin)).statusCode).toBe(409);
    expect((await call("POST", `/status/background/${crypto.randomUUID()}/retry`, admin)).statusCode).toBe(404);
    expect((await call("POST", "/status/background/not-a-job/retry", admin)).statusCode).toBe(400);
  });

  it("refuses every admin endpoint to a customer (403) and to anonymous callers (401)", async () => {
    const endpoints: ["GET" | "POST", string][] = [
      ["GET", "/status"],
      ["GET", "/status/system"],
      ["GET", "/status/background"],
      ["GET", "/status/app-info"],
      ["POST", "/status/background/collect-blobs"],
      ["POST", "/status/background/start/reconcile-users"],
      ["POST", "/baked-tune-files/rebake-all"],
      ["POST", `/status/background/${crypto.randomUUID()}/retry`],
    ];
    for (const [method, url] of endpoints) {
      expect((await call(method, url, customer)).statusCode, `${method} ${url} as a customer`).toBe(403);
      expect((await call(method, url, null)).statusCode, `${method} ${url} anonymous`).toBe(401);
    }
    const before = (await app.ctx.jobs.list()).length;
    expect(before).toBe((await app.ctx.jobs.list()).length);
  });

  it("reports health per component, the queue's lag and counts, and a running job's progress", async () => {
    const first = await app.ctx.jobs.send("test.slow");
    let second = "";
    try {
      await until(
        "the slow job's progress",
        () => app.ctx.jobs.get(first),
        (snapshot) => snapshot?.state === "running" && snapshot.done === 1,
      );
      // One attempt at a time per kind: the second waits, and how long it has waited is the lag.
      second = await app.ctx.jobs.send("test.slow");
      // It has waited: its start moves back, as a second of waiting would have moved it.
      await app.ctx.db.execute(
        sql`UPDATE pgboss.job SET start_after = start_after - interval '2 seconds' WHERE id = ${second}::uuid`,
      );
      const status = await call("GET", "/status", admin);
      expect(status.statusCode, status.body).toBe(200);
      const body = status.json();
      expect(body.components.map((component: { name: string }) => component.name)).toEqual([
        "api",
        "database",
        "identity",
        "payments",
        "storage",
        "queue",
      ]);
      expect(body.components.every((component: { ok: boolean }) => component.ok)).toBe(true);
      expect(body.queue).toMatchObject({ ok: true, backend: kind, counts: { running: 1, queued: 1 } });
      expect(body.queue.lagSeconds).toBeGreaterThanOrEqual(1);
      const listed = (await call("GET", "/status/background", admin))
        .json()
        .jobs.find((job: JobSnapshot) => job.id === first);
      expect(listed).toMatchObject({ state: "running", total: 2, done: 1 });
    } finally {
      releaseSlow();
    }
    // Its first step written means its handler is waiting on the gate again.
    await until(
      "the second slow job",
      () => app.ctx.jobs.get(second),
      (snapshot) => snapshot?.state === "running" && snapshot.done === 1,
    );
    releaseSlow();
    await app.ctx.jobs.idle();
    expect(await app.ctx.jobs.get(first)).toMatchObject({
      state: "succeeded",
      total: 2,
      done: 2,
      failures: [{ item: "second", message: "could not do the second" }],
      result: { items: 2 },
    });
  }, 60_000);

  it("starts reconciliation and blob collection for an admin, each audited, and both finish", async () => {
    const collection = await call("POST", "/status/background/collect-blobs", admin);
    expect(collection.statusCode, collection.body).toBe(202);
    const reconciliation = await call("POST", "/status/background/start/reconcile-users", admin);
    expect(reconciliation.statusCode, reconciliation.body).toBe(202);
    expect((await call("POST", "/status/background/start/mail.send", admin)).statusCode).toBe(400);
    await app.ctx.jobs.idle();
    expect(await app.ctx.jobs.get(collection.json().id)).toMatchObject({
      state: "succeeded",
      result: { removed: expect.any(Number) },
    });
    expect(await app.ctx.jobs.get(reconciliation.json().job.id)).toMatchObject({
      state: "succeeded",
      result: { mirrored: expect.any(Number) },
    });
    const started = await app.ctx.db.select().from(auditEvents).where(eq(auditEvents.action, "job.started"));
    expect(started.map((row) => row.targetId)).toEqual(
      expect.arrayContaining([collection.json().id, reconciliation.json().job.id]),
    );
  });

  it("sends mail through the queue: 202, the message arrives, and its job (with the one-time link) is gone", async () => {
    const user = await createUser(test, "customer");
    const response = await call("POST", `/auth/email/${user.uid}/verification`, user);
    expect(response.statusCode, response.body).toBe(202);
    const [message] = await waitForMail(user.email);
    expect(message.subject).toMatch(/Confirm your email address/);
    await app.ctx.jobs.idle();
    expect((await app.ctx.jobs.list(500)).filter((job) => job.kind === "mail.send")).toEqual([]);
  });
});

describe.each(bothDatabases)("app info and schedules on %s", (kind) => {
  const smtpPassword = `smtp-pass-${randomBytes(6).toString("hex")}`;
  const secretsKey = randomBytes(32).toString("base64");
  let test: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    // Schedules on, as outside tests: this app's queue registers its crons.
    test = await startTestApp(kind, {
      SMTP_URL: `smtp://mailer:${smtpPassword}@127.0.0.1:2525`,
      SECRETS_KEY: secretsKey,
      QUEUE_SCHEDULES: "1",
    });
    admin = await createUser(test, "admin");
  });
  afterAll(async () => test?.close());

  it("answers versions, build and configuration, and never a secret's value", async () => {
    const response = await requestsTo(() => test.app).call("GET", "/status/app-info", admin);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).not.toContain(smtpPassword);
    expect(response.body).not.toContain(secretsKey);
    const info = response.json();
    expect(info.versions).toMatchObject({
      app: expect.any(String),
      node: process.version,
      libraries: { "pg-boss": "10.4.2", fastify: expect.any(String) },
    });
    const setting = (key: string) => info.configuration.find((entry: { key: string }) => entry.key === key);
    expect(setting("smtpUrl")).toEqual({ key: "smtpUrl", value: "smtp://mailer:••••@127.0.0.1:2525", masked: true });
    expect(setting("secretsKey")).toEqual({ key: "secretsKey", value: "••••", masked: true });
    expect(setting("webApiKey").masked).toBe(true);
    expect(setting("port")).toEqual({ key: "port", value: String(test.app.ctx.config.port), masked: false });
  });

  it("registers the schedules: blob collection every 6 hours, reconciliation hourly, the auto-accept and due notices every 10 minutes", async () => {
    const status = await requestsTo(() => test.app).call("GET", "/status", admin);
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json().queue.schedules).toEqual(
      expect.arrayContaining([
        { kind: "collect-blobs", cron: "0 */6 * * *" },
        { kind: "reconcile-users", cron: "30 * * * *" },
        { kind: "tuning-requests.auto-accept", cron: "*/10 * * * *" },
        { kind: "tuning-requests.due-notices", cron: "*/10 * * * *" },
      ]),
    );
  });
});
