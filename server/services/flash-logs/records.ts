/**
 * Flash logs of a vehicle and the support flash log: a flash reported after the fact (checked
 * against the bake or stock read it names), a session's start, steps and end with their news for
 * the car's listeners, and the sessions a car's viewers, its dealers and admins may read.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  FlashLog,
  FlashSessionDetail,
  flashLogCreateSchema,
  flashSessionEndSchema,
  flashSessionStartSchema,
  flashStepReportSchema,
} from "../../../contracts/flash-logs";
import type { AppContext } from "../../context";
import type { Db } from "../../db/handle";
import { bakedTuneFiles, flashLogs, tuneFiles } from "../../db/schema";
import { auditChangeTo } from "../audit";
import { notFound, Refusal } from "../errors";
import type { VerifiedCaller } from "../identity";
import type { Lister } from "../list-pages";
import { dealerManagesSql } from "../tune-access";
import type { VehicleRow } from "../vehicles";
import {
  endSession,
  type FlashLogRow,
  flashLogsToApi,
  flashLogToApi,
  markAbandoned,
  publishSessions,
  reportSteps,
  sessionDetail,
  startSession,
} from "./sessions";

type Requester = { caller: VerifiedCaller | null; id: string };
type FlashReport = z.output<typeof flashLogCreateSchema>;
type Written = Pick<FlashLogRow, "kind" | "sha256" | "bakedTuneFileId" | "tuneFileId" | "tuneTitle" | "tuneVersion">;

const mismatch = (path: string, message: string) =>
  new Refusal("unprocessable", "Flash does not match", message, [{ path, message }]);

/** What a reported flash wrote: the bake it names (this car's, the same bytes), else the car's stock read. */
async function writtenBy(db: Db, vehicle: VehicleRow, body: FlashReport): Promise<Written> {
  if (body.bakedTuneFileId) {
    const [bake] = await db
      .select({
        id: bakedTuneFiles.id,
        vehicleId: bakedTuneFiles.vehicleId,
        sha256: bakedTuneFiles.sha256,
        tuneFileId: bakedTuneFiles.tuneFileId,
        tuneVersion: bakedTuneFiles.tuneVersion,
        tuneTitle: tuneFiles.title,
      })
      .from(bakedTuneFiles)
      .leftJoin(tuneFiles, eq(tuneFiles.id, bakedTuneFiles.tuneFileId))
      .where(eq(bakedTuneFiles.id, body.bakedTuneFileId));
    // An expired temp bake still counts: the app may report a flash made before it expired.
    if (!bake || bake.vehicleId !== vehicle.id)
      throw mismatch("bakedTuneFileId", `no baked file ${body.bakedTuneFileId} for vehicle ${vehicle.name}`);
    if (body.sha256 && body.sha256 !== bake.sha256) {
      throw mismatch(
        "sha256",
        `the flashed bytes (SHA-256 ${body.sha256}) are not the baked file (SHA-256 ${bake.sha256})`,
      );
    }
    const { id, sha256, tuneFileId, tuneTitle, tuneVersion } = bake;
    return { kind: "tune", sha256, bakedTuneFileId: id, tuneFileId, tuneTitle, tuneVersion };
  }
  if (!vehicle.stockDumpSha256)
    throw mismatch(
      "bakedTuneFileId",
      `vehicle ${vehicle.name} has no stock read; name the baked file that was flashed`,
    );
  if (body.sha256 !== vehicle.stockDumpSha256) {
    throw mismatch(
      "sha256",
      `SHA-256 ${body.sha256} is neither a baked file nor vehicle ${vehicle.name}'s stock read (${vehicle.stockDumpSha256}); send bakedTuneFileId`,
    );
  }
  return {
    kind: "stock",
    sha256: vehicle.stockDumpSha256,
    bakedTuneFileId: null,
    tuneFileId: null,
    tuneTitle: null,
    tuneVersion: null,
  };
}

/** A flash reported after the fact (no grant), written into the car's history; audited on another's car. */
export async function reportFlash(
  db: Db,
  request: Requester,
  vehicle: VehicleRow,
  caller: VerifiedCaller,
  body: FlashReport,
): Promise<FlashLog> {
  const written = await writtenBy(db, vehicle, body);
  const row = await db.transaction(async (tx) => {
    const [reported] = await tx
      .insert(flashLogs)
      .values({
        vehicleId: vehicle.id,
        ...written,
        result: body.result,
        message: body.message,
        durationMs: body.durationMs ?? null,
        ...(body.flashedAt && { flashedAt: new Date(body.flashedAt) }),
        reportedBy: caller.uid,
      })
      .returning();
    // A flash written into someone else's car's history (its dealer, an admin): audited.
    await auditChangeTo(tx, request, vehicle.ownerUid, {
      action: "flash-log.reported",
      targetType: "vehicle",
      targetId: vehicle.id,
      after: {
        flashLogId: reported.id,
        kind: reported.kind,
        sha256: reported.sha256,
        result: reported.result,
        message: reported.message,
      },
    });
    return reported;
  });
  return flashLogToApi(db, row);
}

/** Starts a session with the grant of its pre-flight and tells the car's listeners. */
export async function startFlashSession(
  ctx: AppContext,
  vehicle: VehicleRow,
  caller: VerifiedCaller,
  body: z.output<typeof flashSessionStartSchema>,
): Promise<FlashLog> {
  const session = await startSession(ctx, vehicle, caller, body);
  await publishSessions(ctx, [session]);
  return flashLogToApi(ctx.db, session);
}

/** Stores the steps the app reports and tells the car's listeners of the new ones. */
export async function reportFlashSteps(
  ctx: AppContext,
  vehicle: VehicleRow,
  caller: VerifiedCaller,
  logId: string,
  steps: z.output<typeof flashStepReportSchema>[],
): Promise<FlashLog> {
  const { row, stored } = await reportSteps(ctx, vehicle, caller, logId, steps);
  await publishSessions(ctx, [row], { flashLogId: row.id, rows: stored });
  return flashLogToApi(ctx.db, row);
}

/** Ends the session (and marks the one it recovered) and tells the car's listeners. */
export async function endFlashSession(
  ctx: AppContext,
  vehicle: VehicleRow,
  caller: VerifiedCaller,
  logId: string,
  body: z.output<typeof flashSessionEndSchema>,
): Promise<FlashLog> {
  const { row, recovered } = await endSession(ctx, vehicle, caller, logId, body);
  await publishSessions(ctx, [row, ...recovered]);
  return flashLogToApi(ctx.db, row);
}

/** Marks the sessions the app stopped reporting abandoned and tells their cars' listeners. */
export async function abandonSilentSessions(ctx: AppContext, silenceMs: number): Promise<void> {
  const rows = await markAbandoned(ctx.db, silenceMs);
  if (rows.length) await publishSessions(ctx, rows);
}

/** One session of the car with its steps and snapshots. */
export async function vehicleFlashSession(db: Db, vehicleId: string, logId: string): Promise<FlashSessionDetail> {
  const [row] = await db
    .select()
    .from(flashLogs)
    .where(and(eq(flashLogs.id, logId), eq(flashLogs.vehicleId, vehicleId)));
  if (!row) throw notFound(`Flash session ${logId}`);
  return sessionDetail(db, row);
}

/** A page of flash sessions within `scope`. */
async function flashLogPageWithin<Page extends { data: FlashLogRow[] }>(
  db: Db,
  list: Lister<FlashLogRow, Page>,
  scope: SQL | undefined,
) {
  const page = await list(
    ({ where, orderBy, limit, offset }) =>
      db
        .select()
        .from(flashLogs)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    scope,
  );
  return { ...page, data: await flashLogsToApi(db, page.data) };
}

/** A page of the car's flash sessions. */
export async function vehicleFlashLogPage<Page extends { data: FlashLogRow[] }>(
  db: Db,
  vehicleId: string,
  list: Lister<FlashLogRow, Page>,
) {
  return flashLogPageWithin(db, list, sql`${flashLogs.vehicleId} = ${vehicleId}`);
}

/** Admins see every session; a dealer the sessions of the cars they manage. */
const visibleTo = (caller: VerifiedCaller): SQL | undefined =>
  caller.role === "admin" ? undefined : dealerManagesSql(caller.uid, flashLogs.vehicleId);

/** A page of the support flash log: every session for admins, a dealer's cars' sessions for a dealer. */
export async function flashLogPage<Page extends { data: FlashLogRow[] }>(
  db: Db,
  caller: VerifiedCaller,
  list: Lister<FlashLogRow, Page>,
) {
  return flashLogPageWithin(db, list, visibleTo(caller));
}

/** One session of the support flash log, with its steps, snapshots and grant; one the caller may not see is not found. */
export async function visibleFlashSession(db: Db, caller: VerifiedCaller, id: string): Promise<FlashSessionDetail> {
  const [row] = await db
    .select()
    .from(flashLogs)
    .where(and(eq(flashLogs.id, id), visibleTo(caller)));
  if (!row) throw notFound(`Flash session ${id}`);
  return sessionDetail(db, row);
}
