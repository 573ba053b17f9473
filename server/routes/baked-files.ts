/**
 * Baked tune files: a bake's report, its bytes (within the tune's
 * protection), deleting it, and redoing every kept bake from its sources.
 */

import type { FastifyInstance } from "fastify";
import { apiRoutes } from "../../contracts/api-paths";
import { startedJobSchema } from "../../contracts/server-management";
import { type BakedTuneFile, bakedTuneFileSchema } from "../../contracts/tune-files";
import type { AppContext } from "../context";
import { forbidden } from "../errors";
import { callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import { bytesAnswer } from "../http/media";
import { sendBakedFile } from "../http/vehicle-files";
import type { ZodTypeProvider } from "../http/zod";
import { actorFrom } from "../services/audit";
import { JOB_KINDS, startJob } from "../services/background-jobs";
import { deleteBake } from "../services/bakes";
import { bakeAccess, bakedRow } from "../services/tune-access";
import { bakedToApi } from "../services/tune-responses";

const admin = { role: "admin" as const };

export async function bakedFileRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    "/baked-tune-files/:id",
    { schema: { params: idParams, response: { 200: bakedTuneFileSchema } } },
    async (request): Promise<BakedTuneFile> => bakedToApi(db, await bakedRow(db, request.params.id), callerOf(request)),
  );

  app.get(
    "/baked-tune-files/:id/download",
    { config: { media: bytesAnswer() }, schema: { params: idParams } },
    async (request, reply) => {
      const caller = callerOf(request);
      const row = await bakedRow(db, request.params.id);
      const access = await bakeAccess(db, row, caller);
      if (!access.download) throw forbidden("The tune's author does not let buyers download it; flash it from the app");
      return sendBakedFile(reply, ctx, row);
    },
  );

  /** The owner's bakes are theirs: a dealer who manages the car deletes only the bakes they made. */
  app.delete("/baked-tune-files/:id", { schema: { params: idParams } }, async (request, reply) => {
    await deleteBake(db, { caller: callerOf(request), id: request.id }, request.params.id);
    return reply.status(204).send();
  });

  /** Redoes every kept bake from its sources (after a patch or definition change), as a job on the queue; one failure is recorded and the rest go on. */
  app.post(
    `/${apiRoutes.serverManagement.rebakeAll()}`,
    { config: admin, schema: { response: { 202: startedJobSchema } } },
    async (request, reply) => {
      const job = await startJob(ctx, JOB_KINDS.rebakeAll, actorFrom(request));
      return reply.status(202).send({ job });
    },
  );
}
