/**
 * Share links of data logs: the owner makes, lists and revokes them; anyone holding a live link
 * reads the log's summary and the shared channels' columns; a vehicle's owner sees the live
 * links of its logs.
 */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  createdDataLogShareSchema,
  dataLogSharePageSchema,
  dataLogShareSchema,
  type ResolvedDataLogShare,
  resolvedDataLogShareSchema,
  vehicleSharedLogPageSchema,
} from "../../contracts/data-logs";
import { readColumnsLayout, selectChannels } from "../../domain/logs";
import type { AppContext } from "../context";
import { callerOf } from "../http/auth";
import { sendBlob } from "../http/byte-ranges";
import { bytesAnswer } from "../http/media";
import type { ZodTypeProvider } from "../http/zod";
import { resolveShare, revokeShare, shareLog, sharesOf, vehicleSharedLogs } from "../services/data-log-shares";
import { apiChannel } from "../services/data-logs";

const idParams = z.strictObject({ id: z.uuid("id must be a UUID") });
const shareParams = z.strictObject({ id: z.uuid("id must be a UUID"), shareId: z.uuid("shareId must be a UUID") });
/** A share link's token: 256 random bits in base64url. */
export const tokenParams = z.strictObject({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "not a share token") });

export async function dataLogShareRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerOwnerShareRoutes(plugin, ctx);
  registerSharedLogRoutes(plugin, ctx);
  registerVehicleShareRoutes(plugin, ctx);
}

/** The owner's making, listing and revoking of a log's share links. */
function registerOwnerShareRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.post(
    `/${apiRoutes.dataLogs.share(":id")}`,
    { schema: { params: idParams, body: dataLogShareSchema, response: { 201: createdDataLogShareSchema } } },
    async (request, reply) => {
      const created = await shareLog(
        ctx.db,
        { caller: callerOf(request), id: request.id },
        request.params.id,
        request.body,
      );
      return reply.status(201).send(created);
    },
  );

  app.get(
    `/${apiRoutes.dataLogs.shares(":id")}`,
    { schema: { params: idParams, response: { 200: dataLogSharePageSchema } } },
    async (request) => {
      const shares = await sharesOf(ctx.db, callerOf(request), request.params.id);
      return { data: shares, total: shares.length };
    },
  );

  app.delete(
    `/${apiRoutes.dataLogs.shares(":id")}/:shareId`,
    { schema: { params: shareParams } },
    async (request, reply) => {
      const { id, shareId } = request.params;
      await revokeShare(ctx.db, { caller: callerOf(request), id: request.id }, id, shareId);
      return reply.status(204).send();
    },
  );
}

/** What a live link shows to whoever holds it: the log's summary and the shared channels' columns. */
function registerSharedLogRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const blobs = ctx.dataLogBlobs;

  app.post(
    `/${apiRoutes.dataLogs.shared(":token")}`,
    { config: { public: true }, schema: { params: tokenParams, response: { 200: resolvedDataLogShareSchema } } },
    async (request) => {
      const { token } = request.params;
      const { share, log, channels } = await resolveShare(ctx.db, token);
      const resolved: ResolvedDataLogShare = {
        share: { channels: share.channels, layout: share.layout, expiresAt: share.expiresAt?.toISOString() ?? null },
        log: {
          id: log.id,
          title: log.title,
          format: log.format,
          rowCount: log.rowCount,
          durationSeconds: log.durationSeconds,
          startedAt: log.startedAt,
          channels: channels.map(apiChannel(log.format)),
        },
      };
      return resolved;
    },
  );

  app.get(
    `/${apiRoutes.dataLogs.sharedColumns(":token")}`,
    {
      config: { public: true, media: bytesAnswer({ ranges: true, attachment: false }) },
      schema: { params: tokenParams },
    },
    async (request, reply) => {
      const { token } = request.params;
      const { share, log } = await resolveShare(ctx.db, token);
      if (share.channels.length === 0) {
        const { columnsSha256: sha256, columnsSize: size } = log;
        return sendBlob(request, reply, blobs, { sha256, size });
      }
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
}

/** The live links of a vehicle's logs, for its owner. */
function registerVehicleShareRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.get(
    `/${apiPaths["user-vehicles"].record}/:id/shared`,
    { schema: { params: idParams, response: { 200: vehicleSharedLogPageSchema } } },
    async (request) => {
      const data = await vehicleSharedLogs(ctx.db, callerOf(request), request.params.id);
      return { data, total: data.length };
    },
  );
}
