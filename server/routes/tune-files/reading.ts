/** Reading tune files: the list each caller may see, one tune, and a version's bytes. */

import type { FastifyInstance } from "fastify";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import {
  type TuneFile,
  tuneFilePageSchema,
  tuneFileSchema,
  tuneVersionQuerySchema,
} from "../../../contracts/tune-files";
import type { AppContext } from "../../context";
import { callerOf } from "../../http/auth";
import { idParams } from "../../http/crud";
import { listQueryOf, runList } from "../../http/list";
import { bytesAnswer } from "../../http/media";
import type { ZodTypeProvider } from "../../http/zod";
import { visibleTune } from "../../services/tune-access";
import { tuneFilePageOf } from "../../services/tune-file-records";
import { downloadableVersion } from "../../services/tune-file-sales";
import { tuneToApi } from "../../services/tune-responses";
import { tuneListSpec } from "./list-spec";

const TUNE_FILES = `/${apiPaths["tune-files"].list}`;

export function registerTuneReadRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    TUNE_FILES,
    { config: { list: tuneListSpec }, schema: { response: { 200: tuneFilePageSchema } } },
    async (request) =>
      tuneFilePageOf(db, callerOf(request), (select, scope) =>
        runList(db, tuneListSpec, listQueryOf(request, tuneListSpec), select, scope),
      ),
  );

  app.get(
    `${TUNE_FILES}/:id`,
    { schema: { params: idParams, response: { 200: tuneFileSchema } } },
    async (request): Promise<TuneFile> => {
      const { row, access } = await visibleTune(db, request.params.id, callerOf(request));
      return tuneToApi(db, row, access);
    },
  );

  app.get(
    `/${apiRoutes.tuneFiles.download(":id")}`,
    { config: { media: bytesAnswer() }, schema: { params: idParams, querystring: tuneVersionQuerySchema } },
    async (request, reply) => {
      const { row, stored } = await downloadableVersion(
        db,
        callerOf(request),
        request.params.id,
        request.query.version,
      );
      const body = await ctx.blobs.stream(stored.sha256);
      return reply
        .header("content-type", "application/octet-stream")
        .header("content-disposition", `attachment; filename="${row.firmwareId}-v${stored.number}.bin"`)
        .header("x-content-sha256", stored.sha256)
        .send(body);
    },
  );
}
