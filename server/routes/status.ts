import os from "node:os";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context";
import { actorFrom, writeAudit } from "../services/audit";
import { startBlobCollection } from "../services/blob-collector";
import { apiPaths } from "../../contracts/api-paths";
import { backgroundJobsSchema, jobSnapshotSchema, serverStatusSchema, systemInfoSchema } from "../../contracts/server-management";
import type { ZodTypeProvider } from "../http/zod";

const STATUS = `/${apiPaths["server-management"].list}`;

function uptimeSeconds(ctx: AppContext): number {
  return Math.round((Date.now() - ctx.startedAt.getTime()) / 1000);
}

export async function statusRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const admin = { role: "admin" as const };

  app.get(STATUS, { config: admin, schema: { response: { 200: serverStatusSchema } } }, async () => {
    const [database, identity] = await Promise.all([ctx.database.ping(), ctx.identity.ping()]);
    return {
      version: ctx.config.version,
      mode: ctx.config.mode,
      startedAt: ctx.startedAt.toISOString(),
      uptimeSeconds: uptimeSeconds(ctx),
      memory: { rssBytes: process.memoryUsage().rss, heapUsedBytes: process.memoryUsage().heapUsed },
      database: { kind: ctx.database.kind, ok: database },
      identity: { ok: identity, emulator: Boolean(ctx.identity.emulatorHost) },
      jobs: { running: ctx.jobs.list().filter((job) => job.state === "running").length },
    };
  });

  app.get(`${STATUS}/system`, { config: admin, schema: { response: { 200: systemInfoSchema } } }, async () => ({
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().length,
    loadAverage: os.loadavg(),
    memory: { ...process.memoryUsage(), systemTotal: os.totalmem(), systemFree: os.freemem() },
    processUptimeSeconds: Math.round(process.uptime()),
    uptimeSeconds: uptimeSeconds(ctx),
  }));

  app.get(`${STATUS}/background`, { config: admin, schema: { response: { 200: backgroundJobsSchema } } }, async () => ({ jobs: ctx.jobs.list() }));

  /** Runs the blob collection now (it also runs every few hours); the job's result says what was removed. */
  app.post(`${STATUS}/background/collect-blobs`, { config: admin, schema: { response: { 202: jobSnapshotSchema } } }, async (request, reply) => {
    const job = startBlobCollection(ctx);
    await writeAudit(ctx.db, actorFrom(request), { action: "job.started", targetType: "job", targetId: job.id, after: { kind: job.kind } });
    return reply.status(202).send(job);
  });
}
