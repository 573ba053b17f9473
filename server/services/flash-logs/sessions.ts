/**
 * Flash sessions: started with a grant, reported step by step, ended with a
 * result; a silent one is marked abandoned; a successful recovery marks the
 * session it recovers. Answers are published to the vehicle's event stream
 * after the change has committed.
 */
import { and, asc, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  type FlashLog,
  type FlashLogStep,
  type FlashSessionDetail,
  type flashSessionEndSchema,
  type flashSessionStartSchema,
  type flashStepReportSchema,
  negativeResponseLabel,
} from "../../../contracts/flash-logs";
import type { AppContext } from "../../context";
import type { Db, Tx } from "../../db/handle";
import {
  bakedTuneFiles,
  firmwareSupport,
  flashGrants,
  flashLogSteps,
  flashLogs,
  tuneFiles,
  userVehicles,
  vehicleSnapshots,
} from "../../db/schema";
import { forbidden, notFound, Refusal } from "../errors";
import { grantOfToken, useGrant } from "../flash-grants";
import type { VerifiedCaller } from "../identity";
import { consumeLicence } from "../payments/licences";
import { snapshotToApi, snapshotValues } from "../snapshots";
import type { VehicleRow } from "../vehicles";

export type FlashLogRow = typeof flashLogs.$inferSelect;
type StepRow = typeof flashLogSteps.$inferSelect;
type Reader = Db | Tx;

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const sessionConflict = (message: string) => new Refusal("conflict", "Flash session conflict", message);

export const stepToApi = (row: StepRow): FlashLogStep => ({
  seq: row.seq,
  step: row.step as FlashLogStep["step"],
  block: row.block,
  percent: row.percent,
  status: row.status as FlashLogStep["status"],
  at: row.at.toISOString(),
  durationMs: row.durationMs,
  retries: row.retries,
  request: row.request,
  response: row.response,
  nrc: row.nrc,
  nrcName: row.nrc === null ? null : negativeResponseLabel(row.nrc),
  message: row.message,
});

/** Rows as the API answers them, with each session's last step and the session that recovered it. */
export async function flashLogsToApi(db: Reader, rows: FlashLogRow[]): Promise<FlashLog[]> {
  const ids = rows.map((row) => row.id);
  const [lastSteps, recoveries] = ids.length
    ? await Promise.all([
        db
          .selectDistinctOn([flashLogSteps.flashLogId])
          .from(flashLogSteps)
          .where(inArray(flashLogSteps.flashLogId, ids))
          .orderBy(flashLogSteps.flashLogId, desc(flashLogSteps.seq)),
        db
          .select({ id: flashLogs.id, recoversId: flashLogs.recoversId })
          .from(flashLogs)
          .where(and(inArray(flashLogs.recoversId, ids), eq(flashLogs.result, "success"))),
      ])
    : [[], []];
  const progress = new Map(lastSteps.map((step) => [step.flashLogId, step]));
  const recoveredBy = new Map(recoveries.map((row) => [row.recoversId as string, row.id]));
  return rows.map((row) => {
    const step = progress.get(row.id);
    return {
      id: row.id,
      vehicleId: row.vehicleId,
      bakedTuneFileId: row.bakedTuneFileId,
      tuneFileId: row.tuneFileId,
      tuneTitle: row.tuneTitle,
      tuneVersion: row.tuneVersion,
      kind: row.kind,
      sha256: row.sha256,
      result: row.result,
      message: row.message,
      durationMs: row.durationMs,
      flashedAt: row.flashedAt.toISOString(),
      endedAt: iso(row.endedAt),
      lastReportAt: row.lastReportAt.toISOString(),
      reportedBy: row.reportedBy,
      grantId: row.grantId,
      recoversId: row.recoversId,
      recoveredById: recoveredBy.get(row.id) ?? null,
      resumeFromBlock: row.resumeFromBlock,
      firmwareId: row.firmwareId,
      ecuFamily: row.ecuFamily,
      adapterKind: row.adapterKind,
      adapterFirmware: row.adapterFirmware,
      appVersion: row.appVersion,
      batteryStartVolts: row.batteryStartVolts,
      batteryEndVolts: row.batteryEndVolts,
      identityBefore: row.identityBefore,
      identityAfter: row.identityAfter,
      failedStep: row.failedStep,
      failedBlock: row.failedBlock,
      failedNrc: row.failedNrc,
      progress: step
        ? {
            step: step.step as FlashLogStep["step"],
            block: step.block,
            percent: step.percent,
            status: step.status as FlashLogStep["status"],
          }
        : null,
    };
  });
}

export async function flashLogToApi(db: Reader, row: FlashLogRow): Promise<FlashLog> {
  return (await flashLogsToApi(db, [row]))[0];
}

const identityOf = (body: { vin?: string; ecu?: StartBody["ecu"] }) =>
  body.ecu
    ? {
        vin: body.vin ?? null,
        softwareId: body.ecu.softwareId,
        ecuSerial: body.ecu.ecuSerial,
        hardwareNumber: body.ecu.hardwareNumber ?? null,
        bootloaderVersion: body.ecu.bootloaderVersion ?? null,
        calibrationId: body.ecu.calibrationId ?? null,
      }
    : null;

type StartBody = z.output<typeof flashSessionStartSchema>;
type EndBody = z.output<typeof flashSessionEndSchema>;
type StepBody = z.output<typeof flashStepReportSchema>;

/** The session a recovery names must be this car's and have failed or been abandoned. */
async function checkRecoverable(tx: Tx, vehicleId: string, recoversId: string): Promise<void> {
  const [failed] = await tx
    .select({ result: flashLogs.result })
    .from(flashLogs)
    .where(and(eq(flashLogs.id, recoversId), eq(flashLogs.vehicleId, vehicleId)));
  if (!failed)
    throw new Refusal("unprocessable", "Nothing to recover", `no flash session ${recoversId} of this vehicle`, [
      { path: "recoversId", message: "no such session of this vehicle" },
    ]);
  if (failed.result !== "failed" && failed.result !== "abandoned") {
    throw new Refusal(
      "unprocessable",
      "Nothing to recover",
      `session ${recoversId} ended ${failed.result}; only a failed or abandoned session is recovered`,
      [{ path: "recoversId", message: `the session is ${failed.result}` }],
    );
  }
}

/** Starts a session with a grant, using the grant up; refuses a grant that is not this car's, is spent or has expired. */
export async function startSession(
  ctx: AppContext,
  vehicle: VehicleRow,
  caller: VerifiedCaller,
  body: StartBody,
): Promise<FlashLogRow> {
  const now = new Date();
  return ctx.db.transaction(async (tx) => {
    const grant = await grantOfToken(tx, ctx.secrets, body.grant, vehicle.id);
    if (grant.grantedTo !== caller.uid) throw forbidden("The grant was given to another user");
    if (body.ecu.ecuSerial !== grant.ecuSerial || body.vin !== grant.vin) {
      throw sessionConflict(
        `the car now reads VIN ${body.vin} and ECU serial ${body.ecu.ecuSerial}; the grant is for ${grant.vin} / ${grant.ecuSerial}: run the pre-flight again`,
      );
    }
    if (body.recoversId) await checkRecoverable(tx, vehicle.id, body.recoversId);
    if (!(await useGrant(tx, grant.id, now)))
      throw new Refusal(
        "forbidden",
        "Flash grant refused",
        "the grant was already used by a flash session: run the pre-flight again",
        [{ path: "grant", message: "already used" }],
      );
    const [baked] = grant.bakedTuneFileId
      ? await tx
          .select({ tuneVersion: bakedTuneFiles.tuneVersion, title: tuneFiles.title })
          .from(bakedTuneFiles)
          .leftJoin(tuneFiles, eq(tuneFiles.id, bakedTuneFiles.tuneFileId))
          .where(eq(bakedTuneFiles.id, grant.bakedTuneFileId))
      : [];
    const [family] = await tx
      .select({ ecuFamily: firmwareSupport.ecuFamily })
      .from(firmwareSupport)
      .where(eq(firmwareSupport.firmwareId, grant.firmwareId));
    const [row] = await tx
      .insert(flashLogs)
      .values({
        vehicleId: vehicle.id,
        bakedTuneFileId: grant.bakedTuneFileId,
        tuneFileId: grant.tuneFileId,
        tuneTitle: baked?.title ?? null,
        tuneVersion: baked?.tuneVersion ?? null,
        kind: grant.kind,
        sha256: grant.sha256,
        result: "running",
        flashedAt: body.startedAt ? new Date(body.startedAt) : now,
        lastReportAt: now,
        reportedBy: caller.uid,
        grantId: grant.id,
        recoversId: body.recoversId ?? null,
        resumeFromBlock: body.resumeFromBlock ?? null,
        firmwareId: grant.firmwareId,
        ecuFamily: family?.ecuFamily ?? null,
        adapterKind: body.adapter.kind,
        adapterFirmware: body.adapter.firmware,
        appVersion: body.appVersion,
        batteryStartVolts: body.batteryVolts,
        identityBefore: identityOf(body),
      })
      .returning();
    await tx.insert(vehicleSnapshots).values(
      snapshotValues(
        {
          vehicleId: vehicle.id,
          kind: "before-flash",
          flashLogId: row.id,
          firmwareId: grant.firmwareId,
          recordedBy: caller.uid,
          recordedAt: now,
        },
        // The app sends the identity the grant checks; the rest of what it read at connect is the car's.
        {
          ...body,
          ecu: {
            ...body.ecu,
            hardwareNumber: body.ecu.hardwareNumber ?? vehicle.hardwareNumber ?? undefined,
            bootloaderVersion: body.ecu.bootloaderVersion ?? vehicle.bootloaderVersion ?? undefined,
          },
        },
      ),
    );
    return row;
  });
}

/** The vehicle's session, locked, for the app that reports it: only its reporter (the owner's app) may. */
async function runningSession(
  tx: Tx,
  vehicle: VehicleRow,
  caller: VerifiedCaller,
  logId: string,
): Promise<FlashLogRow> {
  const [row] = await tx
    .select()
    .from(flashLogs)
    .where(and(eq(flashLogs.id, logId), eq(flashLogs.vehicleId, vehicle.id)))
    .for("update");
  if (!row) throw notFound(`Flash session ${logId}`);
  if (row.reportedBy !== caller.uid) throw forbidden("Only the app that started the session reports it");
  if (row.result !== "running")
    throw sessionConflict(`the session has ended (${row.result}); start a new one to flash again`);
  return row;
}

/** Stores steps once each (by seq) and answers the ones that were new. */
export async function reportSteps(
  ctx: AppContext,
  vehicle: VehicleRow,
  caller: VerifiedCaller,
  logId: string,
  steps: StepBody[],
) {
  const now = new Date();
  return ctx.db.transaction(async (tx) => {
    await runningSession(tx, vehicle, caller, logId);
    const stored = await tx
      .insert(flashLogSteps)
      .values(
        steps.map((step) => ({
          flashLogId: logId,
          seq: step.seq,
          step: step.step,
          block: step.block ?? null,
          percent: step.percent ?? null,
          status: step.status,
          at: new Date(step.at),
          durationMs: step.durationMs ?? null,
          retries: step.retries,
          request: step.request ?? null,
          response: step.response ?? null,
          nrc: step.nrc ?? null,
          message: step.message,
        })),
      )
      .onConflictDoNothing()
      .returning();
    const lastFailed = [...stored]
      .sort((a, b) => a.seq - b.seq)
      .filter((step) => step.status === "failed")
      .pop();
    const [row] = await tx
      .update(flashLogs)
      .set({
        lastReportAt: now,
        ...(lastFailed && { failedStep: lastFailed.step, failedBlock: lastFailed.block, failedNrc: lastFailed.nrc }),
      })
      .where(eq(flashLogs.id, logId))
      .returning();
    return { row, stored: stored.sort((a, b) => a.seq - b.seq) };
  });
}

/** Ends a running session; a successful recovery marks the session it recovered. */
export async function endSession(
  ctx: AppContext,
  vehicle: VehicleRow,
  caller: VerifiedCaller,
  logId: string,
  body: EndBody,
) {
  const now = new Date();
  return ctx.db.transaction(async (tx) => {
    const session = await runningSession(tx, vehicle, caller, logId);
    const endedAt = body.endedAt ? new Date(body.endedAt) : now;
    const [row] = await tx
      .update(flashLogs)
      .set({
        result: body.result,
        message: body.message,
        endedAt,
        lastReportAt: now,
        durationMs: Math.max(0, endedAt.getTime() - session.flashedAt.getTime()),
        batteryEndVolts: body.batteryVolts ?? null,
        identityAfter: identityOf({ vin: vehicle.vin ?? undefined, ecu: body.ecu }),
      })
      .where(eq(flashLogs.id, logId))
      .returning();
    // A verified flash of a tune uses the car's licence for it; a failed one leaves it unused.
    if (body.result === "success" && session.kind === "tune" && session.tuneFileId)
      await consumeLicence(tx, { vehicleId: vehicle.id, tuneFileId: session.tuneFileId });
    if (body.ecu) {
      const adapter = session.adapterKind
        ? { kind: session.adapterKind, firmware: session.adapterFirmware ?? "" }
        : null;
      await tx.insert(vehicleSnapshots).values(
        snapshotValues(
          {
            vehicleId: vehicle.id,
            kind: "after-flash",
            flashLogId: logId,
            firmwareId: session.firmwareId,
            recordedBy: caller.uid,
            recordedAt: endedAt,
          },
          { ...body, ecu: body.ecu, vin: vehicle.vin, adapter, appVersion: session.appVersion },
        ),
      );
    }
    const recovered =
      body.result === "success" && session.recoversId
        ? await tx
            .update(flashLogs)
            .set({ result: "recovered" })
            .where(and(eq(flashLogs.id, session.recoversId), inArray(flashLogs.result, ["failed", "abandoned"])))
            .returning()
        : [];
    return { row, recovered };
  });
}

/** Marks running sessions silent for longer than `silenceMs` abandoned; answers them. */
export async function markAbandoned(db: Db, silenceMs: number): Promise<FlashLogRow[]> {
  return db
    .update(flashLogs)
    .set({
      result: "abandoned",
      endedAt: flashLogs.lastReportAt,
      message: sql`CASE WHEN ${flashLogs.message} = '' THEN 'the app stopped reporting' ELSE ${flashLogs.message} END`,
    })
    .where(and(eq(flashLogs.result, "running"), lt(flashLogs.lastReportAt, new Date(Date.now() - silenceMs))))
    .returning();
}

/** Tells the vehicle's listeners about changed sessions and new steps (after the commit). */
export async function publishSessions(
  ctx: AppContext,
  rows: FlashLogRow[],
  steps: { flashLogId: string; rows: StepRow[] } | null = null,
) {
  if (steps)
    for (const step of steps.rows)
      ctx.vehicleEvents.publish(rows[0].vehicleId, {
        type: "flash-step",
        flashLogId: steps.flashLogId,
        step: stepToApi(step),
      });
  for (const log of await flashLogsToApi(ctx.db, rows))
    ctx.vehicleEvents.publish(log.vehicleId, { type: "flash-log", log });
}

/** A session with its steps, its snapshots and the facts of the grant it used: what support reads. */
export async function sessionDetail(db: Db, row: FlashLogRow): Promise<FlashSessionDetail> {
  const [[vehicle], steps, snapshots, [grant]] = await Promise.all([
    db
      .select({ id: userVehicles.id, name: userVehicles.name, vin: userVehicles.vin, ownerUid: userVehicles.ownerUid })
      .from(userVehicles)
      .where(eq(userVehicles.id, row.vehicleId)),
    db.select().from(flashLogSteps).where(eq(flashLogSteps.flashLogId, row.id)).orderBy(asc(flashLogSteps.seq)),
    db
      .select()
      .from(vehicleSnapshots)
      .where(eq(vehicleSnapshots.flashLogId, row.id))
      .orderBy(asc(vehicleSnapshots.recordedAt)),
    row.grantId ? db.select().from(flashGrants).where(eq(flashGrants.id, row.grantId)) : Promise.resolve([]),
  ]);
  return {
    log: await flashLogToApi(db, row),
    vehicle,
    steps: steps.map(stepToApi),
    snapshots: snapshots.map(snapshotToApi),
    grant: grant
      ? {
          id: grant.id,
          kind: grant.kind,
          sha256: grant.sha256,
          vin: grant.vin,
          ecuSerial: grant.ecuSerial,
          softwareId: grant.softwareId,
          firmwareId: grant.firmwareId,
          batteryVolts: grant.batteryVolts,
          createdAt: grant.createdAt.toISOString(),
          expiresAt: grant.expiresAt.toISOString(),
          usedAt: grant.usedAt?.toISOString() ?? null,
        }
      : null,
  };
}
