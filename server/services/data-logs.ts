/**
 * Data logs: importing an uploaded log (parsed into its columnar form), who sees a log, reading,
 * changing and deleting one, the logs' own blob store, and the API shapes of logs, their channels
 * and share links.
 *
 * Files live in their own blob store (`<dataDir>/data-logs/blobs`, or `data-logs/blobs/` in the
 * bucket): a log's blobs are removed with its last referring row, in its transaction (a storage
 * that cannot remove them keeps the row too), and no other resource's file can share their hash.
 * Adding and removing a hash happen under a transaction-scoped advisory lock on it, so an upload
 * of the same bytes cannot interleave with a delete that is about to remove them.
 */
import { createHash } from "node:crypto";
import { rm } from "node:fs/promises";
import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  DataLogChannel,
  DataLogDetail,
  DataLogShare,
  DataLogSummary,
  DynoProfile,
  dataLogPatchSchema,
  LogComputedDescriptor,
} from "../../contracts/data-logs";
import type { FormatId, LogChannel } from "../../domain/logs";
import { channelRole } from "../../domain/logs/roles";
import type { AppContext } from "../context";
import type { Db } from "../db/handle";
import {
  computedDescriptors,
  dataLogShares,
  dataLogs,
  formatRequests,
  tuningRequestEvents,
  tuningRequests,
  userVehicles,
} from "../db/schema";
import { auditChangeTo, changedFields } from "./audit";
import type { BlobStore } from "./blob-store";
import { notFound, Refusal } from "./errors";
import type { VerifiedCaller } from "./identity";
import type { Lister } from "./list-pages";
import { parseLogFile } from "./log-parse";

export type LogRow = typeof dataLogs.$inferSelect;
export type ShareRow = typeof dataLogShares.$inferSelect;

/** Serialises writers of one blob hash until the transaction ends (see the top of this file). */
export const lockHash = (tx: Db, sha256: string) =>
  tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${sha256}, 0))`);

/** Owner's rows only, unless the caller is an admin. */
export const visibleTo = (caller: VerifiedCaller): SQL | undefined =>
  caller.role === "admin" ? undefined : eq(dataLogs.ownerUid, caller.uid);

/** Whether the caller may change a log it reads: its owner, or an admin (the rule visibleTo puts in SQL). */
export const mayChangeLog = (caller: VerifiedCaller, log: LogRow): boolean =>
  caller.role === "admin" || log.ownerUid === caller.uid;

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

/** A stored channel as the API gives it, with the role its name and unit say (read by the log's format's own words first). */
export const apiChannel =
  (format: string) =>
  (channel: LogChannel): DataLogChannel => {
    const { id, name, unit, min, max, mean } = channel;
    return { id, name, unit, min, max, mean, role: channelRole(channel, format as FormatId) };
  };

export const shareOf = (row: ShareRow): DataLogShare => ({
  id: row.id,
  logId: row.logId,
  channels: row.channels,
  layout: row.layout,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

type Requester = { caller: VerifiedCaller | null; id: string };
type DataLogPatch = z.output<typeof dataLogPatchSchema>;

/** An uploaded log file, stored at `path` until it is imported. */
export interface LogUpload {
  path: string;
  filename: string;
  size: number;
  sha256: string;
}

/** More than a picker can usefully list; the catalogue holds a few dozen. */
const COMPUTED_DESCRIPTORS_SHOWN = 500;

/** The log as its page shows it; a log on a vehicle carries the vehicle's dyno profile. */
export async function dataLogDetail(db: Db, row: LogRow): Promise<DataLogDetail> {
  let dynoProfile = row.dynoProfile as DynoProfile | null;
  if (row.vehicleId) dynoProfile = (await vehicleOf(db, row.ownerUid, row.vehicleId)).dynoProfile as DynoProfile | null;
  const { channelCount: _count, ...summary } = summaryOf(row);
  return {
    ...summary,
    notes: row.notes,
    meta: row.meta,
    channels: (row.channels as LogChannel[]).map(apiChannel(row.format)),
    warnings: row.warnings,
    dynoProfile,
  };
}

/**
 * Parses the uploaded file (with the files it needs beside it, such as Emerald's .lg2) and stores
 * the log with its file and columnar form; a file that is no log the parser reads is refused with
 * where it failed.
 */
export async function importDataLog(
  ctx: Pick<AppContext, "db" | "dataLogBlobs">,
  caller: VerifiedCaller,
  file: LogUpload,
  fields: { title?: string; vehicleId?: string },
  companions: LogUpload[] = [],
): Promise<LogRow> {
  const blobs = ctx.dataLogBlobs;
  if (fields.vehicleId) await vehicleOf(ctx.db, caller.uid, fields.vehicleId);
  const columnsPath = `${file.path}.columns`;
  try {
    const outcome = await parseLogFile({
      inputPath: file.path,
      columnsPath,
      // Read beside the log only: what they say is in the parsed channels, so they are not kept.
      companions: companions.map((c) => ({ name: c.filename, path: c.path })),
    });
    if (!outcome.ok) {
      throw new Refusal("unprocessable", "The log could not be read", outcome.message, {
        code: outcome.code,
        line: outcome.line ?? null,
      });
    }
    const { summary } = outcome;
    return await ctx.db.transaction(async (tx) => {
      await lockHash(tx, file.sha256);
      await lockHash(tx, outcome.columnsSha256);
      const [row] = await tx
        .insert(dataLogs)
        .values({
          ownerUid: caller.uid,
          vehicleId: fields.vehicleId ?? null,
          title: fields.title ?? (file.filename.replace(/\.[^.]+$/, "") || "Data log"),
          format: summary.format,
          rowCount: summary.rowCount,
          durationSeconds: summary.durationSeconds,
          startedAt: summary.meta.startedAt ?? null,
          meta: summary.meta as unknown as Record<string, unknown>,
          channels: summary.channels,
          warnings: summary.warnings,
          fileName: file.filename,
          fileSize: file.size,
          fileSha256: file.sha256,
          columnsSha256: outcome.columnsSha256,
          columnsSize: outcome.columnsSize,
        })
        .returning();
      // Moved in last, inside the transaction: if a move fails the row rolls back with it.
      await blobs.adopt(file.path, file.sha256);
      await blobs.adopt(columnsPath, outcome.columnsSha256);
      return row;
    });
  } finally {
    await rm(columnsPath, { force: true });
  }
}

/** A page of the logs the caller sees (admins: every log). */
export async function dataLogPage<Page extends { data: LogRow[] }>(
  db: Db,
  caller: VerifiedCaller,
  list: Lister<LogRow, Page>,
) {
  const page = await list(
    ({ where, orderBy, limit, offset }) =>
      db
        .select()
        .from(dataLogs)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    visibleTo(caller),
  );
  return { ...page, data: page.data.map(summaryOf) };
}

/** The computed channels the analysis view offers, by name. */
export async function logComputedDescriptors(db: Db): Promise<{ data: LogComputedDescriptor[]; total: number }> {
  const data: LogComputedDescriptor[] = await db
    .select({
      id: computedDescriptors.id,
      name: computedDescriptors.name,
      unit: computedDescriptors.unit,
      expression: computedDescriptors.expression,
      decimals: computedDescriptors.decimals,
      variables: computedDescriptors.variables,
    })
    .from(computedDescriptors)
    .orderBy(computedDescriptors.name, computedDescriptors.id)
    .limit(COMPUTED_DESCRIPTORS_SHOWN);
  return { data, total: data.length };
}

/** A log the caller may read, as its page shows it. */
export async function readDataLog(db: Db, caller: VerifiedCaller, id: string): Promise<DataLogDetail> {
  return dataLogDetail(db, await readableLog(db, caller, id));
}

/**
 * The owner's (or an admin's) change to a log: title, notes, tags, vehicle and dyno profile. A
 * dyno profile is the vehicle's when the log is on one, else the log's own.
 */
export async function updateDataLog(
  db: Db,
  request: Requester,
  caller: VerifiedCaller,
  id: string,
  patch: DataLogPatch,
): Promise<DataLogDetail> {
  const row = await ownedLog(db, caller, id);
  const vehicleId = patch.vehicleId === undefined ? row.vehicleId : patch.vehicleId;
  if (patch.vehicleId) await vehicleOf(db, row.ownerUid, patch.vehicleId);
  await db.transaction(async (tx) => {
    const profileOnVehicle = patch.dynoProfile !== undefined && vehicleId !== null;
    if (profileOnVehicle) {
      await tx
        .update(userVehicles)
        .set({ dynoProfile: patch.dynoProfile, updatedAt: new Date() })
        .where(eq(userVehicles.id, vehicleId));
    }
    await tx
      .update(dataLogs)
      .set({
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.notes !== undefined && { notes: patch.notes }),
        ...(patch.tags !== undefined && { tags: [...new Set(patch.tags)] }),
        ...(patch.vehicleId !== undefined && { vehicleId: patch.vehicleId }),
        ...(patch.dynoProfile !== undefined && !profileOnVehicle && { dynoProfile: patch.dynoProfile }),
        updatedAt: new Date(),
      })
      .where(eq(dataLogs.id, id));
    const fields = Object.keys(patch) as (keyof typeof patch)[];
    const after = { ...patch, ...(patch.tags !== undefined && { tags: [...new Set(patch.tags)] }) };
    await auditChangeTo(tx, request, row.ownerUid, {
      action: "data-log.updated",
      targetType: "data-log",
      targetId: id,
      ...changedFields(Object.fromEntries(fields.map((field) => [field, row[field]])), after),
    });
  });
  return dataLogDetail(db, await ownedLog(db, caller, id));
}

/**
 * Removes the files of the data logs' store that nothing holds any more: no data log (its upload
 * or its columns) and no format request (a refused upload kept with consent). One check for both,
 * so deleting a log never takes a file a format request still keeps. The caller holds the hashes'
 * advisory locks.
 */
export async function removeUnheldLogFiles(tx: Db, blobs: BlobStore, hashes: string[]) {
  for (const sha256 of hashes) {
    const [{ logs }] = await tx
      .select({ logs: sql<number>`count(*)::int` })
      .from(dataLogs)
      .where(or(eq(dataLogs.fileSha256, sha256), eq(dataLogs.columnsSha256, sha256)));
    const [{ requests }] = await tx
      .select({ requests: sql<number>`count(*)::int` })
      .from(formatRequests)
      .where(eq(formatRequests.fileSha256, sha256));
    if (logs === 0 && requests === 0) await blobs.removeNow(sha256);
  }
}

/** Deletes the owner's (or an admin's) log, and its files once no log refers to them. */
export async function deleteDataLog(
  ctx: Pick<AppContext, "db" | "dataLogBlobs">,
  request: Requester,
  caller: VerifiedCaller,
  id: string,
): Promise<void> {
  const row = await ownedLog(ctx.db, caller, id);
  await ctx.db.transaction(async (tx) => {
    await lockHash(tx, row.fileSha256);
    await lockHash(tx, row.columnsSha256);
    const deleted = await tx.delete(dataLogs).where(eq(dataLogs.id, id)).returning({ id: dataLogs.id });
    if (deleted.length === 0) throw notFound(`Data log ${id}`);
    await auditChangeTo(tx, request, row.ownerUid, {
      action: "data-log.deleted",
      targetType: "data-log",
      targetId: id,
      before: { title: row.title, fileName: row.fileName, vehicleId: row.vehicleId, fileSha256: row.fileSha256 },
    });
    await removeUnheldLogFiles(tx, ctx.dataLogBlobs, [row.fileSha256, row.columnsSha256]);
  });
}
