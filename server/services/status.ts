/**
 * Server management's answers: health per component (each check timed, a failing one reported,
 * not thrown), the machine, the app's versions, build and configuration with secrets masked,
 * and putting a failed background job back on its queue.
 */
import { execFileSync } from "node:child_process";
import { access, constants, readFile, statfs } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type {
  AppInfo,
  ComponentHealth,
  JobSnapshot,
  QueueStatus,
  ServerStatus,
  SystemInfo,
} from "../../contracts/server-management";
import type { Config } from "../config";
import type { AppContext } from "../context";
import { type AuditActor, writeAudit } from "./audit";
import { conflict, notFound } from "./errors";

function uptimeSeconds(ctx: AppContext): number {
  return Math.round((Date.now() - ctx.startedAt.getTime()) / 1000);
}

async function timed(
  name: ComponentHealth["name"],
  check: () => Promise<{ ok: boolean; detail: string }>,
): Promise<ComponentHealth> {
  const started = performance.now();
  let answer: { ok: boolean; detail: string };
  try {
    answer = await check();
  } catch (error) {
    answer = { ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
  return { name, ...answer, latencyMs: Math.round(performance.now() - started) };
}

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;

/** Stripe answers its balance to a valid key; the sandbox is always there. */
async function paymentsHealth(ctx: AppContext): Promise<{ ok: boolean; detail: string }> {
  if (ctx.payments.kind === "sandbox")
    return { ok: true, detail: "Local sandbox (no card payments leave this server)" };
  const base = ctx.config.stripeApiUrl ?? "https://api.stripe.com";
  const response = await fetch(`${base}/v1/balance`, {
    headers: { authorization: `Bearer ${ctx.config.stripeSecretKey}` },
    signal: AbortSignal.timeout(3000),
  });
  if (response.ok) return { ok: true, detail: "Stripe answering" };
  return {
    ok: false,
    detail: response.status === 401 ? "Stripe refused the key" : `Stripe answered ${response.status}`,
  };
}

/** The bucket's answer, with the sentence check() gives as the cause when it does not. */
async function bucketHealth(ctx: AppContext): Promise<string> {
  try {
    return `${await ctx.blobs.check()} answering; `;
  } catch (error) {
    throw error instanceof Error && error.cause instanceof Error ? error.cause : error;
  }
}

/** The data folder (temp uploads, and the files unless they are in a bucket) and the bucket when there is one. */
async function storageHealth(ctx: AppContext): Promise<{ ok: boolean; detail: string }> {
  const bucket = ctx.config.s3Bucket ? await bucketHealth(ctx) : "";
  await access(ctx.config.dataDir, constants.W_OK);
  const fs = await statfs(ctx.config.dataDir);
  const free = fs.bavail * fs.bsize;
  const low = free < 512 * 1024 ** 2;
  return { ok: !low, detail: `${bucket}${gib(free)} free of ${gib(fs.blocks * fs.bsize)}${low ? " (low)" : ""}` };
}

const EMPTY_QUEUE = (ctx: AppContext): QueueStatus => ({
  ok: false,
  backend: ctx.database.kind,
  lagSeconds: 0,
  counts: { queued: 0, retrying: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 },
  failed: 0,
  deadLetters: 0,
  schedules: [],
});

// ---------------------------------------------------------------------------
// App info

/** Libraries whose versions say what the server runs on. */
const KEY_LIBRARIES = [
  "fastify",
  "drizzle-orm",
  "pg",
  "pg-boss",
  "@electric-sql/pglite",
  "firebase-admin",
  "nodemailer",
  "stripe",
  "zod",
  "react",
  "antd",
  "@refinedev/core",
];
const nodeModules = fileURLToPath(new URL("../../node_modules", import.meta.url));

async function libraryVersions(): Promise<Record<string, string>> {
  const versions: Record<string, string> = {};
  for (const name of KEY_LIBRARIES) {
    try {
      versions[name] = (
        JSON.parse(await readFile(path.join(nodeModules, name, "package.json"), "utf8")) as { version: string }
      ).version;
    } catch {
      // not installed here
    }
  }
  return versions;
}

let commitOnce: string | null | undefined;
function commit(): string | null {
  if (commitOnce !== undefined) return commitOnce;
  try {
    commitOnce =
      process.env.BUILD_COMMIT ||
      execFileSync("git", ["rev-parse", "HEAD"], {
        cwd: path.dirname(nodeModules),
        timeout: 2000,
        stdio: ["ignore", "pipe", "ignore"],
      })
        .toString()
        .trim() ||
      null;
  } catch {
    commitOnce = null;
  }
  return commitOnce;
}

const SECRET_NAME = /key|secret|password|passwd|token|credential/i;
const MASK = "••••";

/** A URL's password (and credential-like query parameters) masked; other parts kept, so the host can be checked. */
export function maskUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  if (!url.host) return value;
  let changed = false;
  if (url.password) {
    url.password = MASK;
    changed = true;
  }
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_NAME.test(name)) {
      url.searchParams.set(name, MASK);
      changed = true;
    }
  }
  // Unchanged, the value is shown as written (URL would add a trailing slash).
  return changed ? url.toString().replaceAll(encodeURIComponent(MASK), MASK) : value;
}

/** Every setting with its value as shown: secrets by name masked whole, URLs with their credentials masked. */
export function maskedConfiguration(config: Config): AppInfo["configuration"] {
  return Object.entries(config)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, raw]) => {
      if (raw === undefined || raw === null || raw === "") return { key, value: null, masked: false };
      const value = Array.isArray(raw) ? raw.join(", ") : String(raw);
      if (SECRET_NAME.test(key)) return { key, value: MASK, masked: true };
      const shown = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? maskUrl(value) : value;
      return { key, value: shown, masked: shown !== value };
    });
}

async function buildInfo(config: Config): Promise<AppInfo["build"]> {
  let manifest: { buildId?: string; builtAt?: string } = {};
  try {
    if (config.distDir) manifest = JSON.parse(await readFile(path.join(config.distDir, "build-manifest.json"), "utf8"));
  } catch {
    // no web build served
  }
  return { id: manifest.buildId ?? null, commit: commit(), time: manifest.builtAt ?? process.env.BUILD_TIME ?? null };
}

/** Every component's health, timed side by side, with the queue's counts. */
export async function serverStatus(ctx: AppContext): Promise<ServerStatus> {
  let queue = EMPTY_QUEUE(ctx);
  const [api, database, identity, payments, storage, queueHealth] = await Promise.all([
    timed("api", async () => ({
      ok: true,
      detail: `${ctx.config.version}, ${ctx.config.mode}, up ${uptimeSeconds(ctx)} s`,
    })),
    timed("database", async () => {
      const ok = await ctx.database.ping();
      return {
        ok,
        detail: `${ctx.database.kind === "pglite" ? "Embedded PGlite" : "PostgreSQL"}${ok ? " answering" : " not answering"}`,
      };
    }),
    timed("identity", async () => {
      const ok = await ctx.identity.ping();
      return {
        ok,
        detail: `${ctx.identity.emulatorHost ? "Auth emulator" : "Firebase Auth"}${ok ? " answering" : " not answering"}`,
      };
    }),
    timed("payments", () => paymentsHealth(ctx)),
    timed("storage", () => storageHealth(ctx)),
    timed("queue", async () => {
      queue = await ctx.jobs.status();
      return {
        ok: true,
        detail: `lag ${queue.lagSeconds} s, ${queue.counts.running} running, ${queue.failed} failed, ${queue.deadLetters} dead letters`,
      };
    }),
  ]);
  queue.ok = queueHealth.ok;
  return {
    version: ctx.config.version,
    mode: ctx.config.mode,
    startedAt: ctx.startedAt.toISOString(),
    uptimeSeconds: uptimeSeconds(ctx),
    memory: { rssBytes: process.memoryUsage().rss, heapUsedBytes: process.memoryUsage().heapUsed },
    database: { kind: ctx.database.kind, ok: database.ok },
    identity: { ok: identity.ok, emulator: Boolean(ctx.identity.emulatorHost) },
    jobs: { running: queue.counts.running },
    components: [api, database, identity, payments, storage, queueHealth],
    queue,
  };
}

/** The machine and the process. */
export const systemInfo = (ctx: AppContext): SystemInfo => ({
  node: process.version,
  platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  cpus: os.cpus().length,
  loadAverage: os.loadavg(),
  memory: { ...process.memoryUsage(), systemTotal: os.totalmem(), systemFree: os.freemem() },
  processUptimeSeconds: Math.round(process.uptime()),
  uptimeSeconds: uptimeSeconds(ctx),
});

/** The app's versions, its build and its configuration with secrets masked. */
export const appInfo = async (ctx: AppContext): Promise<AppInfo> => ({
  versions: { app: ctx.config.version, node: process.version, libraries: await libraryVersions() },
  build: await buildInfo(ctx.config),
  configuration: maskedConfiguration(ctx.config),
});

/** Puts a failed job back on its queue for one more attempt, audited; any other job is a conflict. */
export async function retryJob(ctx: AppContext, actor: AuditActor, id: string): Promise<JobSnapshot> {
  const job = await ctx.jobs.get(id);
  if (!job) throw notFound(`Job ${id}`);
  if (job.state !== "failed") throw conflict(`Only a failed job can be retried; this one is ${job.state}`);
  await ctx.db.transaction(async (tx) => {
    if (!(await ctx.jobs.retry(job, tx))) throw conflict("The job is no longer failed");
    await writeAudit(tx, actor, {
      action: "job.retried",
      targetType: "job",
      targetId: job.id,
      before: { kind: job.kind, state: job.state, retries: job.retries, error: job.error },
      after: { state: "retrying" },
    });
  });
  ctx.jobs.wake(job.kind);
  return (await ctx.jobs.get(job.id))!;
}
