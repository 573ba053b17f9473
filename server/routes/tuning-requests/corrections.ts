/**
 * Corrections from logs: the dealer reads the maps of the tune the next revision starts from, and
 * delivers changed cells of one map as that revision (`dryRun` checks it, storing nothing), through
 * the same checks as an uploaded revision (services/tuning-requests/corrections.ts).
 */
import type { FastifyInstance } from "fastify";
import { apiRoutes } from "../../../contracts/api-paths";
import { correctionBodySchema, requestMapsSchema } from "../../../contracts/tuning-request-corrections";
import { revisionCheckSchema, tuningRequestSchema } from "../../../contracts/tuning-requests";
import type { AppContext } from "../../context";
import { callerOf } from "../../http/auth";
import { idParams } from "../../http/crud";
import type { ZodTypeProvider } from "../../http/zod";
import { deliverCorrection, requestMaps } from "../../services/tuning-requests/corrections";

export function registerCorrectionRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.get(
    `/${apiRoutes.tuningRequests.maps(":id")}`,
    { schema: { params: idParams, response: { 200: requestMapsSchema } } },
    async (request) => requestMaps(ctx, callerOf(request), request.params.id),
  );

  app.post(
    `/${apiRoutes.tuningRequests.corrections(":id")}`,
    {
      schema: {
        params: idParams,
        body: correctionBodySchema,
        response: { 200: revisionCheckSchema, 201: tuningRequestSchema },
      },
    },
    async (request, reply) => {
      const answer = await deliverCorrection(ctx, callerOf(request), request.params.id, request.body, request);
      return answer.dryRun ? reply.status(200).send(answer.check) : reply.status(201).send(answer.ticket);
    },
  );
}
