/**
 * The files of a ticket and its event stream: the dealer checks (`dryRun=true`) and delivers a
 * revision (the car's firmware with valid checksums, or fixed with `fixChecksums=true`), either side attaches a file with its
 * message, one file is downloaded, and the whole ticket is sent on connecting and after every
 * change (Server-Sent Events).
 */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiRoutes } from "../../../contracts/api-paths";
import {
  attachmentFieldsSchema,
  revisionCheckSchema,
  revisionFieldsSchema,
  TUNING_REQUEST_EVENT,
  tuningRequestSchema,
} from "../../../contracts/tuning-requests";
import type { AppContext } from "../../context";
import { callerOf } from "../../http/auth";
import { idParams } from "../../http/crud";
import type { EventStreams } from "../../http/event-stream";
import { bytesAnswer, EVENT_STREAM, multipartBody } from "../../http/media";
import { fieldsOf } from "../../http/multipart-fields";
import { requireFile, withUpload } from "../../http/uploads";
import type { ZodTypeProvider } from "../../http/zod";
import { currentTicket } from "../../services/tuning-requests/answers";
import { attachFile, requestFileFor } from "../../services/tuning-requests/files";
import { checkRevision, deliverableRequest, deliverRevision } from "../../services/tuning-requests/revisions";
import { requestFor } from "../../services/tuning-requests/sides";

export function registerTicketFileRoutes(plugin: FastifyInstance, ctx: AppContext, streams: EventStreams) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  /**
   * The dealer delivers a revision: it becomes the next version of the request's tune file,
   * licensed to the car at once, with its map-level changes against the stock read and the
   * previous revision. With `dryRun=true` the file is checked the same way and the check is the
   * answer (200), nothing stored.
   */
  app.post(
    `/${apiRoutes.tuningRequests.revisions(":id")}`,
    {
      config: { media: multipartBody({ file: "The tune file delivered" }, { fields: revisionFieldsSchema }) },
      schema: { params: idParams, response: { 200: revisionCheckSchema, 201: tuningRequestSchema } },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const target = await deliverableRequest(ctx, caller, request.params.id);
      const answer = await withUpload(request, ctx, async (upload) => {
        const { input, flags } = fieldsOf(revisionFieldsSchema, upload.fields, ["fixChecksums", "dryRun"]);
        const delivery = { file: requireFile(upload), note: input.note, fixChecksums: flags.fixChecksums };
        if (flags.dryRun) return { status: 200 as const, body: await checkRevision(ctx, target, delivery) };
        return { status: 201 as const, body: await deliverRevision(ctx, caller, target, delivery, request) };
      });
      return reply.status(answer.status).send(answer.body);
    },
  );

  /** A file attached to the thread by either side, with its message. */
  app.post(
    `/${apiRoutes.tuningRequests.files(":id")}`,
    {
      config: { media: multipartBody({ file: "The file attached" }, { fields: attachmentFieldsSchema }) },
      schema: { params: idParams, response: { 201: tuningRequestSchema } },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const target = await requestFor(db, caller, request.params.id);
      const ticket = await withUpload(request, ctx, async (upload) => {
        const { input } = fieldsOf(attachmentFieldsSchema, upload.fields);
        return attachFile(ctx, caller, target, requireFile(upload), input.text, request);
      });
      return reply.status(201).send(ticket);
    },
  );

  /**
   * A file of the ticket: the stock read and attachments for both sides; a revision's bytes for
   * the dealer, and for the customer only when the dealer's protection lets buyers download.
   */
  app.get(
    `/${apiRoutes.tuningRequests.file(":id", ":fileId")}`,
    {
      config: { media: bytesAnswer() },
      schema: { params: idParams.extend({ fileId: z.uuid("fileId must be a UUID") }) },
    },
    async (request, reply) => {
      const file = await requestFileFor(ctx, callerOf(request), request.params.id, request.params.fileId);
      const body = await ctx.blobs.stream(file.sha256);
      return reply
        .header("content-type", "application/octet-stream")
        .header("content-disposition", `attachment; filename="${file.name.replace(/["\\\r\n]/g, "_")}"`)
        .header("x-content-sha256", file.sha256)
        .send(body);
    },
  );

  /** The ticket as it changes (Server-Sent Events): the whole ticket on connecting and after every change. */
  app.get(
    `/${apiRoutes.tuningRequests.listen(":id")}`,
    { config: { media: EVENT_STREAM }, handlerTimeout: streams.handlerTimeoutMs, schema: { params: idParams } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { row } = await requestFor(db, caller, request.params.id);
      const stream = streams.start(reply);
      const send = async () => {
        const ticket = await currentTicket(db, row.id, caller);
        if (ticket) stream.send(TUNING_REQUEST_EVENT, ticket);
      };
      const unsubscribe = ctx.tuningRequestEvents.subscribe(
        row.id,
        () => void send().catch((error: unknown) => request.log.warn({ err: error }, "ticket not sent")),
      );
      stream.onClose(unsubscribe);
      await send();
      return reply;
    },
  );
}
