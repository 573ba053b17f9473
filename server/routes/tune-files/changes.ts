/** Changing tune files: creating one from an upload, editing it, adding a version, deleting it. */

import type { FastifyInstance } from "fastify";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import {
  type TuneFile,
  tuneFileCreateSchema,
  tuneFileSchema,
  tuneFileUpdateSchema,
  tuneFileVersionSchema,
} from "../../../contracts/tune-files";
import type { AppContext } from "../../context";
import { callerOf } from "../../http/auth";
import { idParams } from "../../http/crud";
import { multipartBody } from "../../http/media";
import { fieldsOf } from "../../http/multipart-fields";
import { requireFile, withUpload } from "../../http/uploads";
import type { ZodTypeProvider } from "../../http/zod";
import { ownTune } from "../../services/tune-access";
import {
  addTuneVersion,
  createTuneFile,
  deleteTuneFile,
  ownedTuneToApi,
  updateTuneFile,
} from "../../services/tune-file-records";
import { acceptImage } from "../../services/tune-uploads";

const TUNE_FILES = `/${apiPaths["tune-files"].list}`;

const dealer = { role: "dealer" as const };

export function registerTuneChangeRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  const createForm = multipartBody({ file: "The tune image" }, { fields: tuneFileCreateSchema });
  app.post(
    TUNE_FILES,
    { config: { ...dealer, media: createForm }, schema: { response: { 201: tuneFileSchema } } },
    async (request, reply) => {
      const caller = callerOf(request);
      const created = await withUpload(request, ctx, async (upload) => {
        const { input, flags } = fieldsOf(tuneFileCreateSchema, upload.fields, ["fixChecksums"]);
        const image = await acceptImage(ctx, requireFile(upload), flags.fixChecksums);
        return createTuneFile(db, { caller, id: request.id }, input, image);
      });
      return reply.status(201).send(await ownedTuneToApi(db, created, caller));
    },
  );

  app.patch(
    `${TUNE_FILES}/:id`,
    { schema: { params: idParams, body: tuneFileUpdateSchema, response: { 200: tuneFileSchema } } },
    async (request): Promise<TuneFile> => {
      const caller = callerOf(request);
      await updateTuneFile(db, { caller, id: request.id }, request.params.id, request.body);
      return ownedTuneToApi(db, request.params.id, caller);
    },
  );

  app.delete(`${TUNE_FILES}/:id`, { schema: { params: idParams } }, async (request, reply) => {
    await deleteTuneFile(db, { caller: callerOf(request), id: request.id }, request.params.id);
    return reply.status(204).send();
  });

  app.post(
    `/${apiRoutes.tuneFiles.blob(":id")}`,
    {
      config: { media: multipartBody({ file: "The new version's image" }, { fields: tuneFileVersionSchema }) },
      schema: { params: idParams, response: { 200: tuneFileSchema } },
    },
    async (request): Promise<TuneFile> => {
      const caller = callerOf(request);
      const { id } = request.params;
      const current = await ownTune(db, id, caller);
      await withUpload(request, ctx, async (upload) => {
        const { input, flags } = fieldsOf(tuneFileVersionSchema, upload.fields, ["fixChecksums"]);
        const image = await acceptImage(ctx, requireFile(upload), flags.fixChecksums, {
          firmwareId: current.firmwareId,
          of: "This tune file",
        });
        await addTuneVersion(db, { caller, id: request.id }, id, input, image);
      });
      return ownedTuneToApi(db, id, caller);
    },
  );
}
