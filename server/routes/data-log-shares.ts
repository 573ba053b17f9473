/**
 * Share links of data logs: the owner makes, lists and revokes them; anyone holding a live link
 * reads the log's summary and the shared channels' columns; a vehicle's owner sees the live
 * links of its logs.
 */
import { randomBytes } from "node:crypto";
import { and, eq, getTableColumns, isNull } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  type CreatedDataLogShare,
  createdDataLogShareSchema,
  dataLogSharePageSchema,
  dataLogShareSchema,
  type ResolvedDataLogShare,
  resolvedDataLogShareSchema,
  type VehicleSharedLog,
  vehicleSharedLogPageSchema,
} from "../../contracts/data-logs";
import { type LogChannel, readColumnsLayout, selectChannels } from "../../domain/logs";
import type { AppContext } from "../context";
import { dataLogShares, dataLogs, userVehicles } from "../db/schema";
import { badRequest, notFound } from "../errors";
import { callerOf } from "../http/auth";
import { sendFile } from "../http/byte-ranges";
import type { ZodTypeProvider } from "../http/zod";
import { auditChangeTo } from "../services/audit";
import { apiChannel, hashToken, liveShare, ownedLog, shareOf } from "../services/data-logs";

const idParams = z.strictObject({ id: z.uuid("id must be a UUID") });
const shareParams = z.strictObject({ id: z.uuid("id must be a UUID"), shareId: z.uuid("shareId must be a UUID") });
const tokenParams = z.strictObject({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "not a share token") });

export async function dataLogShareRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const blobs = ctx.dataLogBlobs;

  app.post(
    `/${apiRoutes.dataLogs.share(":id")}`,
    { schema: { params: idParams, body: dataLogShareSchema, response: { 201: createdDataLogShareSchema } } },
    async (request, reply) => {
      const { id } = request.params;
      const input = request.body;
      const row = await ownedLog(ctx.db, callerOf(request), id);
      const known = new Set((row.channels as LogChannel[]).map((channel) => channel.id));
      const unknown = input.channels.filter((channel) => !known.has(channel));
      if (unknown.length) {
        throw badRequest(
          "Unknown channels",
          `This log has no channel ${unknown.join(", ")}`,
          unknown.map((channel) => ({ path: "channels", message: `unknown channel "${channel}"` })),
        );
      }
      const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
      if (expiresAt && expiresAt.getTime() <= Date.now()) {
        throw badRequest("Invalid body", "expiresAt must be in the future", [
          { path: "expiresAt", message: "must be in the future" },
        ]);
      }
      // 256 random bits: the link is the only credential a viewer needs.
      const token = randomBytes(32).toString("base64url");
      const share = await ctx.db.transaction(async (tx) => {
        const [made] = await tx
          .insert(dataLogShares)
          .values({ logId: row.id, tokenHash: hashToken(token), channels: [...new Set(input.channels)], expiresAt })
          .returning();
        // An admin publishing someone's log by link: the trail keeps the share, never its token.
        await auditChangeTo(tx, request, row.ownerUid, {
          action: "data-log.shared",
          targetType: "data-log",
          targetId: row.id,
          after: { shareId: made.id, channels: made.channels, expiresAt: made.expiresAt },
        });
        return made;
      });
      const created: CreatedDataLogShare = { ...shareOf(share), token };
      return reply.status(201).send(created);
    },
  );

  app.get(
    `/${apiRoutes.dataLogs.shares(":id")}`,
    { schema: { params: idParams, response: { 200: dataLogSharePageSchema } } },
    async (request) => {
      const { id } = request.params;
      const row = await ownedLog(ctx.db, callerOf(request), id);
      const shares = await ctx.db
        .select()
        .from(dataLogShares)
        .where(eq(dataLogShares.logId, row.id))
        .orderBy(dataLogShares.createdAt);
      return { data: shares.map(shareOf), total: shares.length };
    },
  );

  app.delete(
    `/${apiRoutes.dataLogs.shares(":id")}/:shareId`,
    { schema: { params: shareParams } },
    async (request, reply) => {
      const { id, shareId } = request.params;
      const row = await ownedLog(ctx.db, callerOf(request), id);
      await ctx.db.transaction(async (tx) => {
        const revoked = await tx
          .update(dataLogShares)
          .set({ revokedAt: new Date() })
          .where(and(eq(dataLogShares.id, shareId), eq(dataLogShares.logId, row.id), isNull(dataLogShares.revokedAt)))
          .returning({ id: dataLogShares.id });
        if (revoked.length === 0) throw notFound(`Share ${shareId}`);
        await auditChangeTo(tx, request, row.ownerUid, {
          action: "data-log.share-revoked",
          targetType: "data-log",
          targetId: row.id,
          before: { shareId },
        });
      });
      return reply.status(204).send();
    },
  );

  async function resolveShare(token: string) {
    const [found] = await ctx.db
      .select({ share: dataLogShares, log: dataLogs })
      .from(dataLogShares)
      .innerJoin(dataLogs, eq(dataLogs.id, dataLogShares.logId))
      .where(and(eq(dataLogShares.tokenHash, hashToken(token)), liveShare()));
    // Revoked, expired and never-issued links look the same.
    if (!found) throw notFound("This shared log");
    const shown = new Set(found.share.channels);
    const channels = (found.log.channels as LogChannel[]).filter(
      (channel) => shown.size === 0 || shown.has(channel.id),
    );
    return { ...found, channels };
  }

  app.post(
    `/${apiRoutes.dataLogs.shared(":token")}`,
    { config: { public: true }, schema: { params: tokenParams, response: { 200: resolvedDataLogShareSchema } } },
    async (request) => {
      const { token } = request.params;
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
    },
  );

  app.get(
    `/${apiRoutes.dataLogs.sharedColumns(":token")}`,
    { config: { public: true }, schema: { params: tokenParams } },
    async (request, reply) => {
      const { token } = request.params;
      const { share, log } = await resolveShare(token);
      const file = blobs.pathOf(log.columnsSha256);
      if (share.channels.length === 0)
        return sendFile(request, reply, file, log.columnsSize, "application/octet-stream");
      // Channels the owner did not share never leave the server.
      const form = await blobs.read(log.columnsSha256);
      const layout = readColumnsLayout(form);
      if ("headerBytes" in layout) throw new Error(`The columnar form of log ${log.id} is cut short`);
      const keep = layout.header.channels.flatMap((channel, i) => (share.channels.includes(channel.id) ? [i] : []));
      const subset = selectChannels(form, keep);
      return reply
        .header("content-type", "application/octet-stream")
        .send(Buffer.from(subset.buffer, subset.byteOffset, subset.length));
    },
  );

  app.get(
    `/${apiPaths["my-devices"].record}/:id/shared`,
    { schema: { params: idParams, response: { 200: vehicleSharedLogPageSchema } } },
    async (request) => {
      const caller = callerOf(request);
      const { id } = request.params;
      const [vehicle] = await ctx.db
        .select({ id: userVehicles.id })
        .from(userVehicles)
        .where(
          and(eq(userVehicles.id, id), caller.role === "admin" ? undefined : eq(userVehicles.ownerUid, caller.uid)),
        );
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
    },
  );
}
