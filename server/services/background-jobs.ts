/**
 * Every kind of background job the portal runs, on the queue (server/services/queue.ts): what each
 * does, its retries and its schedule. Defined once at start by buildApp.
 */
import { eq, gt, isNull, or } from "drizzle-orm";
import type { JobSnapshot } from "../../contracts/server-management";
import type { AppContext } from "../context";
import { bakedTuneFiles, userVehicles } from "../db/schema";
import { type AuditActor, writeAudit } from "./audit";
import { dumpOf } from "./bakes";
import { collectBlobs } from "./blob-collector";
import { Refusal } from "./errors";
import type { MailMessage } from "./mail/messages";
import type { JobContext } from "./queue";
import { versionRow } from "./tune-access";
import { bakeFromBlobs } from "./tune-files";
import { acceptSilentDeliveries, noticeDueRequests } from "./tuning-requests";
import { reconcileUsers } from "./users";

/**
 * What a failed item says, as the answer to the same request would: a refusal's sentence (else its
 * title), any other error's message.
 */
function failureMessage(error: unknown): string {
  if (error instanceof Refusal) return error.message || error.title;
  return error instanceof Error ? error.message : String(error);
}

export const JOB_KINDS = {
  rebakeAll: "rebake-all",
  collectBlobs: "collect-blobs",
  reconcileUsers: "reconcile-users",
  mail: "mail.send",
  autoAccept: "tuning-requests.auto-accept",
  dueNotices: "tuning-requests.due-notices",
} as const;

/** Kinds an admin may start from /admin/server-management. */
export const STARTABLE_KINDS = [JOB_KINDS.rebakeAll, JOB_KINDS.collectBlobs, JOB_KINDS.reconcileUsers] as const;

/** A mail job's data: the message sealed with the server's key, since its link holds a one-time code. */
export interface MailJobData {
  sealed: string;
}

export function defineBackgroundJobs(ctx: AppContext): void {
  ctx.jobs.define({
    kind: JOB_KINDS.rebakeAll,
    handler: (_data, progress) => rebakeAll(ctx, progress),
    retryLimit: 2,
    expireInSeconds: 60 * 60,
  });
  ctx.jobs.define({
    kind: JOB_KINDS.collectBlobs,
    handler: async (_data, progress) => ({ ...(await collectBlobs(ctx, { progress })) }),
    retryLimit: 3,
    expireInSeconds: 30 * 60,
    cron: "0 */6 * * *",
  });
  ctx.jobs.define({
    kind: JOB_KINDS.reconcileUsers,
    handler: async (_data, progress) => ({ ...(await reconcileUsers(ctx.db, ctx.identity.auth, progress)) }),
    retryLimit: 3,
    expireInSeconds: 30 * 60,
    cron: "30 * * * *",
  });
  ctx.jobs.define<MailJobData>({
    kind: JOB_KINDS.mail,
    handler: async (data) => {
      await ctx.mail.send(JSON.parse(ctx.secrets.open(data.sealed)) as MailMessage);
    },
    // An SMTP server that is down for a while: 10 s, 20 s, 40 s, 80 s, 160 s, then the dead letters.
    retryLimit: 5,
    retryDelaySeconds: 10,
    expireInSeconds: 120,
    progress: false,
    // The message's link holds a one-time code: the job goes as soon as the mail server took it.
    deleteOnComplete: true,
    single: false,
  });
  ctx.jobs.define({
    kind: JOB_KINDS.autoAccept,
    handler: async () => ({ accepted: (await acceptSilentDeliveries(ctx)).length }),
    retryLimit: 3,
    expireInSeconds: 10 * 60,
    cron: "*/10 * * * *",
  });
  ctx.jobs.define({
    kind: JOB_KINDS.dueNotices,
    handler: async () => {
      const { dueSoon, late } = await noticeDueRequests(ctx);
      return { dueSoon: dueSoon.length, late: late.length };
    },
    retryLimit: 3,
    expireInSeconds: 10 * 60,
    cron: "*/10 * * * *",
  });
}

/** An admin starts a job: queued in the transaction that writes the audit row, then answered as /status/background lists it. */
export async function startJob(ctx: AppContext, kind: string, actor: AuditActor): Promise<JobSnapshot> {
  await ctx.jobs.start();
  const id = await ctx.db.transaction(async (tx) => {
    const queued = await ctx.jobs.send(kind, {}, { tx });
    await writeAudit(tx, actor, { action: "job.started", targetType: "job", targetId: queued, after: { kind } });
    return queued;
  });
  ctx.jobs.wake(kind);
  const job = await ctx.jobs.get(id);
  if (!job) throw new Error(`job ${id} was queued but is not found`);
  return job;
}

/** Redoes every kept bake from its sources (after a patch or definition change); one failure is recorded and the rest go on. */
export async function rebakeAll(ctx: AppContext, progress: JobContext): Promise<Record<string, number>> {
  const { db } = ctx;
  const rows = await db
    .select()
    .from(bakedTuneFiles)
    .where(or(isNull(bakedTuneFiles.expiresAt), gt(bakedTuneFiles.expiresAt, new Date())))
    .orderBy(bakedTuneFiles.createdAt);
  progress.setTotal(rows.length);
  let rebaked = 0;
  for (const row of rows) {
    let failure: { item: string; message: string } | undefined;
    try {
      const [vehicle] = await db.select().from(userVehicles).where(eq(userVehicles.id, row.vehicleId));
      const dump = dumpOf(db, vehicle);
      const record = await dump.record;
      let tuneSha256 = row.sourceSha256;
      if (row.tuneFileId) tuneSha256 = (await versionRow(db, row.tuneFileId, row.tuneVersion!)).sha256;
      if (!tuneSha256) throw new Error("the bake has neither a tune nor a supplied image");
      const patches = await ctx.catalogue.patches(row.patchIds);
      const result = await bakeFromBlobs(ctx, {
        record,
        dumpSha256: dump.sha256,
        tune: tuneSha256,
        direct: !row.tuneFileId,
        patches,
      });
      await ctx.blobs.put(result.image);
      await db
        .update(bakedTuneFiles)
        .set({
          sha256: result.sha256,
          size: result.image.length,
          report: result.report as unknown as Record<string, unknown>,
          updatedAt: new Date(),
        })
        .where(eq(bakedTuneFiles.id, row.id));
      rebaked += 1;
    } catch (error) {
      failure = { item: row.id, message: failureMessage(error) };
    }
    progress.step(failure);
  }
  return { rebaked, failed: rows.length - rebaked };
}
