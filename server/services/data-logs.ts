/**
 * What the data-log routes share: the logs' own blob store, who sees a log,
 * and the API shapes of logs, their channels and share links.
 *
 * Files live in their own blob store (`<dataDir>/data-logs/blobs`): a log's blobs are removed
 * with its last referring row, and no other resource's file can share their hash. Adding and
 * removing a hash happen under a transaction-scoped advisory lock on it, so an upload of the
 * same bytes cannot interleave with a delete that is about to remove them.
 */
import { createHash } from "node:crypto";
import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { DataLogShare, DataLogSummary } from "../../contracts/data-logs";
import type { LogChannel } from "../../domain/logs";
import type { Db } from "../db/handle";
import { dataLogShares, dataLogs, tuningRequestEvents, tuningRequests, userVehicles } from "../db/schema";
import { notFound } from "../errors";
import type { VerifiedCaller } from "./identity";

export type LogRow = typeof dataLogs.$inferSelect;
export type ShareRow = typeof dataLogShares.$inferSelect;

/** Serialises writers of one blob hash until the transaction ends (see the top of this file). */
export const lockHash = (tx: Db, sha256: string) =>
  tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${sha256}, 0))`);

/** Owner's rows only, unless the caller is an admin. */
export const visibleTo = (caller: VerifiedCaller): SQL | undefined =>
  caller.role === "admin" ? undefined : eq(dataLogs.ownerUid, caller.uid);

/**
 * Only a log's owner sees it (admins see every log); anyone else gets the same 404 as for a log
 * that does not exist, so ids reveal nothing.
 */
export async function ownedLog(db: Db, caller: VerifiedCaller, id: string): Promise<LogRow> {
  const [row] = await db
    .select()
    .from(dataLogs)
    .where(and(eq(dataLogs.id, id), visibleTo(caller)));
  if (!row) throw notFound(`Data log ${id}`);
  return row;
}

/**
 * A log the caller may read: their own, any for admins, and for a dealer the logs a customer
 * attached to a tuning request to them (on asking, or with a revision request). Only reading:
 * changes stay with the owner (ownedLog).
 */
export async function readableLog(db: Db, caller: VerifiedCaller, id: string): Promise<LogRow> {
  const attached = sql`EXISTS (SELECT 1 FROM ${tuningRequests} WHERE ${tuningRequests.dealerUid} = ${caller.uid} AND (${dataLogs.id} = ANY(${tuningRequests.logIds})
    OR EXISTS (SELECT 1 FROM ${tuningRequestEvents} WHERE ${tuningRequestEvents.requestId} = ${tuningRequests.id} AND ${dataLogs.id} = ANY(${tuningRequestEvents.logIds}))))`;
  const scope =
    caller.role === "admin"
      ? undefined
      : caller.role === "dealer"
        ? or(eq(dataLogs.ownerUid, caller.uid), attached)
        : eq(dataLogs.ownerUid, caller.uid);
  const [row] = await db
    .select()
    .from(dataLogs)
    .where(and(eq(dataLogs.id, id), scope));
  if (!row) throw notFound(`Data log ${id}`);
  return row;
}

/** The owner's vehicle, or 404. */
export async function vehicleOf(db: Db, ownerUid: string, id: string) {
  const [vehicle] = await db
    .select()
    .from(userVehicles)
    .where(and(eq(userVehicles.id, id), eq(userVehicles.ownerUid, ownerUid)));
  if (!vehicle) throw notFound(`Vehicle ${id}`);
  return vehicle;
}

/** A live share: not revoked, not expired. */
export const liveShare = () =>
  and(isNull(dataLogShares.revokedAt), or(isNull(dataLogShares.expiresAt), sql`${dataLogShares.expiresAt} > now()`));

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export const summaryOf = (row: LogRow): DataLogSummary => ({
  id: row.id,
  title: row.title,
  format: row.format,
  rowCount: row.rowCount,
  durationSeconds: row.durationSeconds,
  startedAt: row.startedAt,
  vehicleId: row.vehicleId,
  fileName: row.fileName,
  fileSize: row.fileSize,
  tags: row.tags,
  channelCount: row.channels.length,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const apiChannel = ({ id, name, unit, min, max, mean }: LogChannel) => ({ id, name, unit, min, max, mean });

export const shareOf = (row: ShareRow): DataLogShare => ({
  id: row.id,
  logId: row.logId,
  channels: row.channels,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});
