/** Inspecting an uploaded image, and previewing patches on a tune the caller owns or bought. */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiRoutes } from "../../../contracts/api-paths";
import { inspectPatchSchema, patchPreviewSchema } from "../../../contracts/tune-files";
import { checkedLocalInspectionSchema } from "../../../domain/tune/checked-schemas";
import type { AppContext } from "../../context";
import { callerOf } from "../../http/auth";
import { multipartBody } from "../../http/media";
import { requireFile, withBufferedUpload } from "../../http/uploads";
import type { ZodTypeProvider } from "../../http/zod";
import { inspectUpload, previewPatches } from "../../services/tune-files";

export function registerInspectionRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  /** With `definition=true`, the identified firmware's definition too: whoever holds an image may see its maps. */
  app.post(
    `/${apiRoutes.tuneFiles.inspect()}`,
    {
      config: { media: multipartBody({ file: "The tune image to inspect" }) },
      schema: {
        querystring: z.strictObject({ definition: z.stringbool().default(false) }),
        response: { 200: checkedLocalInspectionSchema },
      },
    },
    async (request) =>
      withBufferedUpload(request, ctx, async (upload) =>
        inspectUpload(ctx, requireFile(upload).bytes, request.query.definition),
      ),
  );

  app.post(
    `/${apiRoutes.tuneFiles.inspect()}/patch`,
    { schema: { body: inspectPatchSchema, response: { 200: patchPreviewSchema } } },
    async (request) => previewPatches(ctx, callerOf(request), request.body),
  );
}
