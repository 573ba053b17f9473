/**
 * Markers of data logs: the notes a log's owner pins to its times (made, changed and removed by
 * whoever may change the log, read by whoever may read it or holds a live share link), listed
 * with the markers the logger wrote into the file, which are read only.
 */
import { and, asc, eq } from "drizzle-orm";
import type { DataLogMarker, DataLogMarkerInput, DataLogMarkerPatch } from "../../contracts/data-log-markers";
import { fileMarkersOf } from "../../domain/logs/file-markers";
import type { Db } from "../db/handle";
import { dataLogMarkers } from "../db/schema";
import { auditChangeTo, changedFields } from "./audit";
import { resolveShare } from "./data-log-shares";
import { type LogRow, mayChangeLog, ownedLog, readableLog } from "./data-logs";
import { invalidFields, notFound } from "./errors";
import type { VerifiedCaller } from "./identity";

type MarkerRow = typeof dataLogMarkers.$inferSelect;
type Requester = { caller: VerifiedCaller; id: string };

/** How far past the last sample a marker may sit: the log's duration is rounded as it is stored. */
const EDGE_SECONDS = 1e-6;

const markerOf = (row: MarkerRow): DataLogMarker => ({
  id: row.id,
  logId: row.logId,
  source: "user",
  startSeconds: row.startSeconds,
  endSeconds: row.endSeconds,
  note: row.note,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The file's own markers, numbered in the order written; a bare number reads as "Marker 2". */
function fileMarkers(log: LogRow): DataLogMarker[] {
  return fileMarkersOf(log.meta.extra as Record<string, unknown> | undefined).map((marker, i) => ({
    id: `file-${i + 1}`,
    logId: log.id,
    source: "file",
    startSeconds: marker.seconds,
    endSeconds: null,
    note: /^\d+$/.test(marker.label) ? `Marker ${marker.label}` : marker.label,
    createdAt: null,
    updatedAt: null,
  }));
}

/** The log's markers, the user's and the file's, by time. */
async function markersOfLog(db: Db, log: LogRow): Promise<DataLogMarker[]> {
  const rows = await db
    .select()
    .from(dataLogMarkers)
    .where(eq(dataLogMarkers.logId, log.id))
    .orderBy(asc(dataLogMarkers.startSeconds), asc(dataLogMarkers.createdAt));
  return [...rows.map(markerOf), ...fileMarkers(log)].sort((a, b) => a.startSeconds - b.startSeconds);
}

/** Refuses times outside the log and a stretch that ends before it starts, naming the field. */
function checkTimes(log: LogRow, startSeconds: number, endSeconds: number | null) {
  const last = log.durationSeconds + EDGE_SECONDS;
  const issues: Array<{ path: string; message: string }> = [];
  const within = `must lie within the log (0 to ${log.durationSeconds.toFixed(3)} s)`;
  if (startSeconds > last) issues.push({ path: "startSeconds", message: within });
  if (endSeconds !== null && endSeconds > last) issues.push({ path: "endSeconds", message: within });
  else if (endSeconds !== null && endSeconds <= startSeconds)
    issues.push({ path: "endSeconds", message: "must be after startSeconds" });
  if (issues.length) throw invalidFields("body", issues);
}

/** Every marker of a log the caller may read, and whether they may add and change them. */
export async function markersOf(
  db: Db,
  caller: VerifiedCaller,
  logId: string,
): Promise<{ markers: DataLogMarker[]; writable: boolean }> {
  const log = await readableLog(db, caller, logId);
  return { markers: await markersOfLog(db, log), writable: mayChangeLog(caller, log) };
}

/** Every marker of the log a live share link opens. */
export async function sharedMarkers(db: Db, token: string): Promise<DataLogMarker[]> {
  const { log } = await resolveShare(db, token);
  return markersOfLog(db, log);
}

/** Pins a note to a log the caller may change; an admin's on someone's log is audited. */
export async function addMarker(
  db: Db,
  request: Requester,
  logId: string,
  input: DataLogMarkerInput,
): Promise<DataLogMarker> {
  const log = await ownedLog(db, request.caller, logId);
  const endSeconds = input.endSeconds ?? null;
  checkTimes(log, input.startSeconds, endSeconds);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(dataLogMarkers)
      .values({ logId: log.id, startSeconds: input.startSeconds, endSeconds, note: input.note })
      .returning();
    await auditChangeTo(tx, request, log.ownerUid, {
      action: "data-log.marker-added",
      targetType: "data-log",
      targetId: log.id,
      after: { markerId: row.id, startSeconds: row.startSeconds, endSeconds: row.endSeconds, note: row.note },
    });
    return markerOf(row);
  });
}

/** The marker of a log the caller may change, or 404 (the file's own markers are not kept here). */
async function ownedMarker(db: Db, caller: VerifiedCaller, logId: string, markerId: string) {
  const log = await ownedLog(db, caller, logId);
  const [row] = await db
    .select()
    .from(dataLogMarkers)
    .where(and(eq(dataLogMarkers.id, markerId), eq(dataLogMarkers.logId, log.id)));
  if (!row) throw notFound(`Marker ${markerId}`);
  return { log, row };
}

/** Changes a user's marker: its note, its times, or both. */
export async function updateMarker(
  db: Db,
  request: Requester,
  logId: string,
  markerId: string,
  patch: DataLogMarkerPatch,
): Promise<DataLogMarker> {
  const { log, row } = await ownedMarker(db, request.caller, logId, markerId);
  const next = {
    startSeconds: patch.startSeconds ?? row.startSeconds,
    endSeconds: patch.endSeconds === undefined ? row.endSeconds : patch.endSeconds,
    note: patch.note ?? row.note,
  };
  checkTimes(log, next.startSeconds, next.endSeconds);
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(dataLogMarkers)
      .set({ ...next, updatedAt: new Date() })
      .where(eq(dataLogMarkers.id, row.id))
      .returning();
    if (!updated) throw notFound(`Marker ${markerId}`);
    const { before, after } = changedFields(row, next);
    await auditChangeTo(tx, request, log.ownerUid, {
      action: "data-log.marker-updated",
      targetType: "data-log",
      targetId: log.id,
      before: { markerId, ...before },
      after: { markerId, ...after },
    });
    return markerOf(updated);
  });
}

/** Removes a user's marker. */
export async function deleteMarker(db: Db, request: Requester, logId: string, markerId: string): Promise<void> {
  const { log, row } = await ownedMarker(db, request.caller, logId, markerId);
  await db.transaction(async (tx) => {
    const deleted = await tx
      .delete(dataLogMarkers)
      .where(eq(dataLogMarkers.id, row.id))
      .returning({ id: dataLogMarkers.id });
    if (deleted.length === 0) throw notFound(`Marker ${markerId}`);
    await auditChangeTo(tx, request, log.ownerUid, {
      action: "data-log.marker-deleted",
      targetType: "data-log",
      targetId: log.id,
      before: { markerId, startSeconds: row.startSeconds, endSeconds: row.endSeconds, note: row.note },
    });
  });
}
