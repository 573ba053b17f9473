/**
 * Server management (admin only): health per component, the machine, the background jobs on the
 * queue (start, follow, retry) and the app's versions, build and configuration with secrets masked;
 * the answers are made in services/status.ts.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  appInfoSchema,
  backgroundJobsSchema,
  jobSnapshotSchema,
  serverStatusSchema,
  startedJobSchema,
  systemInfoSchema,
} from "../../contracts/server-management";
import type { AppContext } from "../context";
import { idParams } from "../http/crud";
import type { ZodTypeProvider } from "../http/zod";
import { actorFrom } from "../services/audit";
import { JOB_KINDS, startJob } from "../services/background-jobs";
import { appInfo, retryJob, serverStatus, systemInfo } from "../services/status";

/** The configuration's masking, where its tests read it. */
export { maskedConfiguration, maskUrl } from "../services/status";

const STATUS = `/${apiPaths["server-management"].list}`;

const startableKind = z.strictObject({ kind: z.enum([JOB_KINDS.collectBlobs, JOB_KINDS.reconcileUsers]) });

export async function statusRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const admin = { role: "admin" as const };

  app.get(STATUS, { config: admin, schema: { response: { 200: serverStatusSchema } } }, async () => serverStatus(ctx));

  app.get(`${STATUS}/system`, { config: admin, schema: { response: { 200: systemInfoSchema } } }, async () =>
    systemInfo(ctx),
  );

  app.get(
    `/${apiRoutes.serverManagement.appInfo()}`,
    { config: admin, schema: { response: { 200: appInfoSchema } } },
    async () => appInfo(ctx),
  );

  /** The newest jobs with their progress, attempts and errors. */
  app.get(
    `/${apiRoutes.serverManagement.background()}`,
    { config: admin, schema: { response: { 200: backgroundJobsSchema } } },
    async () => ({ jobs: await ctx.jobs.list() }),
  );

  /** Runs the blob collection now (it also runs every 6 hours); the job's result says what was removed. */
  app.post(
    `/${apiRoutes.serverManagement.collectBlobs()}`,
    { config: admin, schema: { response: { 202: jobSnapshotSchema } } },
    async (request, reply) => reply.status(202).send(await startJob(ctx, JOB_KINDS.collectBlobs, actorFrom(request))),
  );

  /** Starts another job an admin may start by hand (user reconciliation; rebake-all has its own path under baked-tune-files). */
  app.post(
    `/${apiRoutes.serverManagement.start(":kind")}`,
    { config: admin, schema: { params: startableKind, response: { 202: startedJobSchema } } },
    async (request, reply) =>
      reply.status(202).send({ job: await startJob(ctx, request.params.kind, actorFrom(request)) }),
  );

  /** Puts a failed job back on its queue for one more attempt; audited. */
  app.post(
    `/${apiRoutes.serverManagement.retryJob(":id")}`,
    { config: admin, schema: { params: idParams, response: { 202: startedJobSchema } } },
    async (request, reply) =>
      reply.status(202).send({ job: await retryJob(ctx, actorFrom(request), request.params.id) }),
  );
}
