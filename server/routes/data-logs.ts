/**
 * Data logs: upload and parse, list, read, change, delete, the original file
 * (with range requests), the columnar form the chart loads, and share links.
 *
 * Only a log's owner sees it (admins see every log); anyone else gets the same 404 as for a log
 * that does not exist, so ids reveal nothing.
 *
 * Files live in their own blob store (`<dataDir>/data-logs/blobs`): a log's blobs are removed
 * with its last referring row, and no other resource's file can share their hash. Adding and
 * removing a hash happen under a transaction-scoped advisory lock on it, so an upload of the
 * same bytes cannot interleave with a delete that is about to remove them.
 */
import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { type SQL, and, eq, getTableColumns, isNull, or, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  type CreatedDataLogShare,
  type DataLogDetail,
  type DataLogPatch,
  type DataLogShare,
  type DataLogSummary,
  type DynoProfile,
  type LogComputedDescriptor,
  type ResolvedDataLogShare,
  type VehicleSharedLog,
  dataLogPatchSchema,
  dataLogShareSchema,
} from "../../contracts/data-logs";
import type { AppContext } from "../context";
import type { Db } from "../db/connection";
import { computedDescriptors, dataLogShares, dataLogs, userVehicles } from "../db/schema";
import { deserializeColumns, serializeColumns, type LogChannel } from "../../domain/logs";
import { HttpError, RequestValidationError, badRequest, fieldIssues, notFound } from "../errors";
import { callerOf } from "../http/auth";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { requireFile, withUpload } from "../http/uploads";
import { BlobStore } from "../services/blobs";
import type { VerifiedCaller } from "../services/identity";
import { parseLogFile } from "../services/log-parse";

const idParams = z.strictObject({ id: z.uuid("id must be a UUID") });
const shareParams = z.strictObject({ id: z.uuid("id must be a UUID"), shareId: z.uuid("shareId must be a UUID") });
const tokenParams = z.strictObject({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "not a share token") });
const uploadFieldsSchema = z.strictObject({
  title: z.string().trim().min(1).max(200).optional(),
  vehicleId: z.uuid().optional(),
});

/** More than a picker can usefully list; the catalogue holds a few dozen. */
const COMPUTED_DESCRIPTORS_SHOWN = 500;

type LogRow = typeof dataLogs.$inferSelect;
type ShareRow = typeof dataLogShares.$inferSelect;

const listSpec: ListSpec = {
  table: dataLogs,
  id: dataLogs.id,
  allowed: {
    sort: ["createdAt", "title", "durationSeconds", "rowCount", "fileSize"],
    filter: ["vehicleId", "format", "createdAt", "tags"],
  },
  fields: {
    vehicleId: { column: dataLogs.vehicleId, kind: "uuid" },
    format: { column: dataLogs.format, kind: "text" },
    createdAt: { column: dataLogs.createdAt, kind: "timestamp" },
    tags: { column: dataLogs.tags, kind: "array" },
    title: { column: dataLogs.title, kind: "text" },
    durationSeconds: { column: dataLogs.durationSeconds, kind: "number" },
    rowCount: { column: dataLogs.rowCount, kind: "number" },
    fileSize: { column: dataLogs.fileSize, kind: "number" },
  },
  // The same expression as the trigram index in the schema.
  search: sql`(${dataLogs.title} || ' ' || ${dataLogs.fileName} || ' ' || ${dataLogs.notes})`,
  defaultSort: [{ field: "createdAt", order: "desc" }],
};

const summaryOf = (row: LogRow): DataLogSummary => ({
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

const apiChannel = ({ id, name, unit, min, max, mean }: LogChannel) => ({ id, name, unit, min, max, mean });

const shareOf = (row: ShareRow): DataLogShare => ({
  id: row.id,
  logId: row.logId,
  channels: row.channels,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Serialises writers of one blob hash until the transaction ends (see the top of this file). */
const lockHash = (tx: Db, sha256: string) => tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${sha256}, 0))`);

/** Owner's rows only, unless the caller is an admin. */
const visibleTo = (caller: VerifiedCaller): SQL | undefined => (caller.role === "admin" ? undefined : eq(dataLogs.ownerUid, caller.uid));

/** A live share: not revoked, not expired. */
const liveShare = () => and(isNull(dataLogShares.revokedAt), or(isNull(dataLogShares.expiresAt), sql`${dataLogShares.expiresAt} > now()`));

/** Parses `Range: bytes=a-b` (one range); null when absent, "unsatisfiable" for a range past the end. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | null | "unsatisfiable" {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: answer the whole file, which RFC 9110 allows.
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

export async function dataLogRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const blobs = new BlobStore(path.join(ctx.config.dataDir, "data-logs"));

  async function ownedLog(caller: VerifiedCaller, id: string): Promise<LogRow> {
    const [row] = await ctx.db
      .select()
      .from(dataLogs)
      .where(and(eq(dataLogs.id, id), visibleTo(caller)));
    if (!row) throw notFound(`Data log ${id}`);
    return row;
  }

  async function vehicleOf(ownerUid: string, id: string) {
    const [vehicle] = await ctx.db
      .select()
      .from(userVehicles)
      .where(and(eq(userVehicles.id, id), eq(userVehicles.ownerUid, ownerUid)));
    if (!vehicle) throw notFound(`Vehicle ${id}`);
    return vehicle;
  }

  async function detailOf(row: LogRow): Promise<DataLogDetail> {
    let dynoProfile = row.dynoProfile as DynoProfile | null;
    if (row.vehicleId) dynoProfile = (await vehicleOf(row.ownerUid, row.vehicleId)).dynoProfile as DynoProfile | null;
    const { channelCount: _count, ...summary } = summaryOf(row);
    return {
      ...summary,
      notes: row.notes,
      meta: row.meta,
      channels: (row.channels as LogChannel[]).map(apiChannel),
      warnings: row.warnings,
      dynoProfile,
    };
  }

  /** Removes the hashes no data log refers to any more; the caller holds their advisory locks. */
  async function removeUnreferenced(tx: Db, hashes: string[]) {
    for (const sha256 of hashes) {
      const [{ n }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(dataLogs)
        .where(or(eq(dataLogs.fileSha256, sha256), eq(dataLogs.columnsSha256, sha256)));
      if (n === 0) await rm(blobs.pathOf(sha256), { force: true });
    }
  }

  app.post("/data-logs", async (request, reply) => {
    const caller = callerOf(request);
    const created = await withUpload(
      request,
      ctx,
      async (upload) => {
        const file = requireFile(upload);
        if (file.field !== "file") throw badRequest("No file", 'Attach the log as the "file" field');
        const fields = uploadFieldsSchema.safeParse(upload.fields);
        if (!fields.success) throw new RequestValidationError("body", fieldIssues(fields.error));
        if (fields.data.vehicleId) await vehicleOf(caller.uid, fields.data.vehicleId);

        const columnsPath = `${file.path}.columns`;
        try {
          const outcome = await parseLogFile({ inputPath: file.path, columnsPath });
          if (!outcome.ok) {
            throw new HttpError(422, "The log could not be read", outcome.message, { code: outcome.code, line: outcome.line ?? null });
          }
          const { summary } = outcome;
          return await ctx.db.transaction(async (tx) => {
            await lockHash(tx, file.sha256);
            await lockHash(tx, outcome.columnsSha256);
            const [row] = await tx
              .insert(dataLogs)
              .values({
                ownerUid: caller.uid,
                vehicleId: fields.data.vehicleId ?? null,
                title: fields.data.title ?? (file.filename.replace(/\.[^.]+$/, "") || "Data log"),
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
      },
      { limitBytes: ctx.config.logUploadLimitBytes },
    );
    return reply.status(201).send(await detailOf(created));
  });

  app.get("/data-logs", { config: { list: listSpec } }, async (request) => {
    const caller = callerOf(request);
    const query = listQueryOf(request, listSpec);
    const page = await runList(
      ctx.db,
      listSpec,
      query,
      ({ where, orderBy, limit, offset }) =>
        ctx.db
          .select()
          .from(dataLogs)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset),
      visibleTo(caller),
    );
    return { ...page, data: page.data.map(summaryOf) };
  });

  // Read-only for every signed-in user (the catalogue's own endpoint is admin-only): the analysis view's computed channels.
  app.get("/data-logs/computed-descriptors", async () => {
    const rows = await ctx.db
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
    const data: LogComputedDescriptor[] = rows;
    return { data, total: data.length };
  });

  app.get("/data-logs/:id", { schema: { params: idParams } }, async (request) => {
    const { id } = request.params as { id: string };
    return detailOf(await ownedLog(callerOf(request), id));
  });

  app.patch("/data-logs/:id", { schema: { params: idParams, body: dataLogPatchSchema } }, async (request) => {
    const { id } = request.params as { id: string };
    const patch = request.body as DataLogPatch;
    const row = await ownedLog(callerOf(request), id);
    const vehicleId = patch.vehicleId === undefined ? row.vehicleId : patch.vehicleId;
    if (patch.vehicleId) await vehicleOf(row.ownerUid, patch.vehicleId);
    await ctx.db.transaction(async (tx) => {
      const profileOnVehicle = patch.dynoProfile !== undefined && vehicleId !== null;
      if (profileOnVehicle) {
        await tx.update(userVehicles).set({ dynoProfile: patch.dynoProfile, updatedAt: new Date() }).where(eq(userVehicles.id, vehicleId));
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
    });
    return detailOf(await ownedLog(callerOf(request), id));
  });

  app.delete("/data-logs/:id", { schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const row = await ownedLog(callerOf(request), id);
    await ctx.db.transaction(async (tx) => {
      await lockHash(tx, row.fileSha256);
      await lockHash(tx, row.columnsSha256);
      const deleted = await tx.delete(dataLogs).where(eq(dataLogs.id, id)).returning({ id: dataLogs.id });
      if (deleted.length === 0) throw notFound(`Data log ${id}`);
      await removeUnreferenced(tx, [row.fileSha256, row.columnsSha256]);
    });
    return reply.status(204).send();
  });

  async function sendFile(request: FastifyRequest, reply: FastifyReply, file: string, size: number, type: string) {
    reply.header("accept-ranges", "bytes");
    const range = byteRange(request.headers.range, size);
    if (range === "unsatisfiable") {
      reply.header("content-range", `bytes */${size}`);
      throw new HttpError(416, "Range not satisfiable", `The file has ${size} bytes`);
    }
    reply.header("content-type", type);
    if (!range) return reply.header("content-length", size).send(createReadStream(file));
    return reply
      .status(206)
      .header("content-range", `bytes ${range.start}-${range.end}/${size}`)
      .header("content-length", range.end - range.start + 1)
      .send(createReadStream(file, { start: range.start, end: range.end }));
  }

  app.get("/data-logs/:id/blob", { schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const row = await ownedLog(callerOf(request), id);
    reply.header("content-disposition", `attachment; filename="${row.fileName.replace(/["\\\r\n]/g, "_")}"`);
    return sendFile(request, reply, blobs.pathOf(row.fileSha256), row.fileSize, "application/octet-stream");
  });

  app.get("/data-logs/:id/columns", { schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const row = await ownedLog(callerOf(request), id);
    return sendFile(request, reply, blobs.pathOf(row.columnsSha256), row.columnsSize, "application/octet-stream");
  });

  app.post("/data-logs/:id/share", { schema: { params: idParams, body: dataLogShareSchema } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const input = request.body as z.output<typeof dataLogShareSchema>;
    const row = await ownedLog(callerOf(request), id);
    const known = new Set((row.channels as LogChannel[]).map((channel) => channel.id));
    const unknown = input.channels.filter((channel) => !known.has(channel));
    if (unknown.length) {
      throw badRequest("Unknown channels", `This log has no channel ${unknown.join(", ")}`, unknown.map((channel) => ({ path: "channels", message: `unknown channel "${channel}"` })));
    }
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      throw badRequest("Invalid body", "expiresAt must be in the future", [{ path: "expiresAt", message: "must be in the future" }]);
    }
    // 256 random bits: the link is the only credential a viewer needs.
    const token = randomBytes(32).toString("base64url");
    const [share] = await ctx.db
      .insert(dataLogShares)
      .values({ logId: row.id, tokenHash: hashToken(token), channels: [...new Set(input.channels)], expiresAt })
      .returning();
    const created: CreatedDataLogShare = { ...shareOf(share), token };
    return reply.status(201).send(created);
  });

  app.get("/data-logs/:id/shares", { schema: { params: idParams } }, async (request) => {
    const { id } = request.params as { id: string };
    const row = await ownedLog(callerOf(request), id);
    const shares = await ctx.db.select().from(dataLogShares).where(eq(dataLogShares.logId, row.id)).orderBy(dataLogShares.createdAt);
    return { data: shares.map(shareOf), total: shares.length };
  });

  app.delete("/data-logs/:id/shares/:shareId", { schema: { params: shareParams } }, async (request, reply) => {
    const { id, shareId } = request.params as { id: string; shareId: string };
    const row = await ownedLog(callerOf(request), id);
    const revoked = await ctx.db
      .update(dataLogShares)
      .set({ revokedAt: new Date() })
      .where(and(eq(dataLogShares.id, shareId), eq(dataLogShares.logId, row.id), isNull(dataLogShares.revokedAt)))
      .returning({ id: dataLogShares.id });
    if (revoked.length === 0) throw notFound(`Share ${shareId}`);
    return reply.status(204).send();
  });

  async function resolveShare(token: string) {
    const [found] = await ctx.db
      .select({ share: dataLogShares, log: dataLogs })
      .from(dataLogShares)
      .innerJoin(dataLogs, eq(dataLogs.id, dataLogShares.logId))
      .where(and(eq(dataLogShares.tokenHash, hashToken(token)), liveShare()));
    // Revoked, expired and never-issued links look the same.
    if (!found) throw notFound("This shared log");
    const shown = new Set(found.share.channels);
    const channels = (found.log.channels as LogChannel[]).filter((channel) => shown.size === 0 || shown.has(channel.id));
    return { ...found, channels };
  }

  app.post("/data-logs/shared/:token", { config: { public: true }, schema: { params: tokenParams } }, async (request) => {
    const { token } = request.params as { token: string };
    const { share, log, channels } = await resolveShare(token);
    const resolved: ResolvedDataLogShare = {
      share: { channels: share.channels, expiresAt: share.expiresAt?.toISOString() ?? null },
      log: {
        id: log.id,
        title: log.title,
        format: log.format,
        rowCount: log.rowCount,
        durationSeconds: log.durationSeconds,
        startedAt: log.startedAt,
        channels: channels.map(apiChannel),
      },
    };
    return resolved;
  });

  app.get("/data-logs/shared/:token/columns", { config: { public: true }, schema: { params: tokenParams } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const { share, log } = await resolveShare(token);
    const file = blobs.pathOf(log.columnsSha256);
    if (share.channels.length === 0) return sendFile(request, reply, file, log.columnsSize, "application/octet-stream");
    // Channels the owner did not share never leave the server.
    const parsed = deserializeColumns(await blobs.read(log.columnsSha256));
    const keep = parsed.channels.flatMap((channel, i) => (share.channels.includes(channel.id) ? [i] : []));
    const subset = serializeColumns({ ...parsed, channels: keep.map((i) => parsed.channels[i]), columns: keep.map((i) => parsed.columns[i]) });
    return reply.header("content-type", "application/octet-stream").send(Buffer.from(subset.buffer, subset.byteOffset, subset.length));
  });

  app.get("/user-vehicles/:id/shared", { schema: { params: idParams } }, async (request) => {
    const caller = callerOf(request);
    const { id } = request.params as { id: string };
    const [vehicle] = await ctx.db
      .select({ id: userVehicles.id })
      .from(userVehicles)
      .where(and(eq(userVehicles.id, id), caller.role === "admin" ? undefined : eq(userVehicles.ownerUid, caller.uid)));
    if (!vehicle) throw notFound(`Vehicle ${id}`);
    const rows = await ctx.db
      .select({ share: getTableColumns(dataLogShares), title: dataLogs.title })
      .from(dataLogShares)
      .innerJoin(dataLogs, eq(dataLogs.id, dataLogShares.logId))
      .where(and(eq(dataLogs.vehicleId, id), liveShare()))
      .orderBy(dataLogShares.createdAt);
    const data: VehicleSharedLog[] = rows.map(({ share, title }) => ({
      shareId: share.id,
      logId: share.logId,
      title,
      channels: share.channels,
      expiresAt: share.expiresAt?.toISOString() ?? null,
      createdAt: share.createdAt.toISOString(),
    }));
    return { data, total: data.length };
  });
}
