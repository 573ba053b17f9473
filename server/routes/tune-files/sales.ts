/** Offering tune files: publishing on terms, withdrawing, and granting one to a vehicle without payment. */
import type { FastifyInstance } from "fastify";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import {
  type TuneFile,
  tuneFileGrantAnswerSchema,
  tuneFileGrantSchema,
  tuneFilePublishSchema,
  tuneFileSchema,
} from "../../../contracts/tune-files";
import type { AppContext } from "../../context";
import { callerOf } from "../../http/auth";
import { idParams } from "../../http/crud";
import type { ZodTypeProvider } from "../../http/zod";
import { ownedTuneToApi } from "../../services/tune-file-records";
import { grantTuneFile, publishTuneFile, unpublishTuneFile } from "../../services/tune-file-sales";

const TUNE_FILES = `/${apiPaths["tune-files"].list}`;

const dealer = { role: "dealer" as const };

export function registerTuneSaleRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.put(
    `/${apiRoutes.tuneFiles.publish(":id")}`,
    { schema: { params: idParams, body: tuneFilePublishSchema, response: { 200: tuneFileSchema } } },
    async (request): Promise<TuneFile> => {
      const caller = callerOf(request);
      await publishTuneFile(db, { caller, id: request.id }, request.params.id, request.body);
      return ownedTuneToApi(db, request.params.id, caller);
    },
  );

  app.put(
    `/${apiRoutes.tuneFiles.unpublish(":id")}`,
    { schema: { params: idParams, response: { 200: tuneFileSchema } } },
    async (request): Promise<TuneFile> => {
      const caller = callerOf(request);
      await unpublishTuneFile(db, { caller, id: request.id }, request.params.id);
      return ownedTuneToApi(db, request.params.id, caller);
    },
  );

  /** A licence without payment; which tunes and vehicles a caller may grant: services/tune-file-sales grantTuneFile. */
  app.post(
    `${TUNE_FILES}/:id/grant`,
    {
      config: dealer,
      schema: {
        params: idParams,
        body: tuneFileGrantSchema,
        response: { 200: tuneFileGrantAnswerSchema, 201: tuneFileGrantAnswerSchema },
      },
    },
    async (request, reply) => {
      const answer = await grantTuneFile(
        db,
        { caller: callerOf(request), id: request.id },
        request.params.id,
        request.body.vehicleId,
      );
      return reply.status(answer.created ? 201 : 200).send(answer);
    },
  );
}
