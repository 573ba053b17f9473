/**
 * Tune-file patches: the catalogue of byte patches (admins write it), which
 * firmware and tunes a patch fits, applying patches to an uploaded image,
 * and importing definition files (TunerPro XDF, RomRaider, EcuFlash) with their patches.
 */

import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../contracts/api-paths";
import {
  DEFINITION_MAX_BYTES,
  definitionImportFieldsSchema,
  patchCompatibilitySchema,
  type TuneFilePatch,
  tuneFilePatchInputSchema,
  tuneFilePatchList,
  tuneFilePatchPageSchema,
  tuneFilePatchSchema,
  xdfImportSchema,
} from "../../contracts/tune-files";
import { checkedXdfImportedSchema, checkedXdfStoredSchema } from "../../domain/tune/checked-schemas";
import type { AppContext } from "../context";
import { tuneFilePatches } from "../db/schema";
import { badRequest, fieldIssues, HttpError, RequestValidationError } from "../errors";
import { callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import { reprDigestOf, wantsSha256 } from "../http/digest";
import { type ListSpec, listQueryOf, runList } from "../http/list";
import { bytesAnswer, multipartBody } from "../http/media";
import { fieldsOf, jsonFieldsOf, patchIdsField } from "../http/multipart-fields";
import { type FormFile, requireFile, withBufferedUpload, withBufferedUploads } from "../http/uploads";
import type { ZodTypeProvider } from "../http/zod";
import { actorFrom } from "../services/audit";
import { type DefinitionImportFields, type DefinitionUpload, runDefinitionImport } from "../services/definition-import";
import {
  deletePatch,
  patchCompatibility,
  patchImage,
  patchPageOf,
  patchRowOf,
  savePatch,
} from "../services/tune-file-patches";
import { sha256Of } from "../services/tune-files";
import { patchToApi } from "../services/tune-responses";

const TUNE_FILE_PATCHES = `/${apiPaths["tune-file-patches"].list}`;

const dealer = { role: "dealer" as const };
const admin = { role: "admin" as const };

const patchListSpec: ListSpec = {
  table: tuneFilePatches,
  id: tuneFilePatches.id,
  allowed: tuneFilePatchList,
  fields: {
    title: { column: tuneFilePatches.title, kind: "text" },
    firmwareIds: { column: tuneFilePatches.firmwareIds, kind: "array" },
    updatedAt: { column: tuneFilePatches.updatedAt, kind: "timestamp" },
  },
  search: sql`(${tuneFilePatches.title} || ' ' || ${tuneFilePatches.description})`,
  defaultSort: [{ field: "title", order: "asc" }],
};

export async function tuneFilePatchRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerCatalogueRoutes(app, ctx);
  registerPatchingRoutes(app, ctx);
}

/** The catalogue: list, one patch, saving, deleting, and where a patch fits. */
function registerCatalogueRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    TUNE_FILE_PATCHES,
    { config: { list: patchListSpec }, schema: { response: { 200: tuneFilePatchPageSchema } } },
    async (request) => {
      const query = listQueryOf(request, patchListSpec);
      const page = await patchPageOf(db, (select) => runList(db, patchListSpec, query, select));
      return { ...page, data: page.data.map(patchToApi) };
    },
  );

  app.get(
    `${TUNE_FILE_PATCHES}/:id`,
    { schema: { params: idParams, response: { 200: tuneFilePatchSchema } } },
    async (request): Promise<TuneFilePatch> => patchToApi(await patchRowOf(db, request.params.id)),
  );

  app.put(
    TUNE_FILE_PATCHES,
    {
      config: admin,
      schema: { body: tuneFilePatchInputSchema, response: { 200: tuneFilePatchSchema, 201: tuneFilePatchSchema } },
    },
    async (request, reply) => {
      const row = await savePatch(ctx, request, request.body);
      return reply.status(request.body.id ? 200 : 201).send(patchToApi(row));
    },
  );

  app.delete(`${TUNE_FILE_PATCHES}/:id`, { config: admin, schema: { params: idParams } }, async (request, reply) => {
    await deletePatch(db, request, request.params.id);
    return reply.status(204).send();
  });

  app.get(
    `/${apiRoutes.tuneFilePatches.compatible(":id")}`,
    { config: dealer, schema: { params: idParams, response: { 200: patchCompatibilitySchema } } },
    async (request) => patchCompatibility(ctx, callerOf(request), request.params.id),
  );
}

/** Applying patches to an uploaded image, and importing definition files. */
function registerPatchingRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  /**
   * Applies patches to an uploaded image and answers the result with its
   * checksum report. Tools that send `Accept: application/octet-stream` get
   * the bytes, with the report in `x-tune-report` (URI-encoded JSON); the
   * image's SHA-256 comes only when asked for (RFC 9530: `Want-Repr-Digest:
   * sha-256=1` answered by the trailer `Repr-Digest`), because hashing 8 MiB
   * takes a fifth of the request and the caller holds the bytes it was sent.
   * The browser gets one JSON answer with the image as base64 and its
   * `sha256`, written by hand because JSON.stringify would scan the 11 MB
   * string for characters to escape that base64 never has. An image whose
   * checksums already fail is refused unless fixChecksums=true: patching must
   * not hide a bad read.
   */
  const applyMedia = {
    ...multipartBody(
      { file: "The tune image to patch" },
      { fields: z.strictObject({ patchIds: z.string().optional() }) },
    ),
    ...bytesAnswer({ orJson: true }),
  };
  app.post(
    `/${apiRoutes.tuneFilePatches.apply()}`,
    { config: { ...dealer, media: applyMedia } },
    async (request, reply) =>
      withBufferedUpload(request, ctx, async (upload) => {
        const { flags } = fieldsOf(z.strictObject({ patchIds: z.string().optional() }), upload.fields, [
          "fixChecksums",
        ]);
        const patchIds = patchIdsField(upload.fields.patchIds);
        if (patchIds.length === 0)
          throw new RequestValidationError("body", [{ path: "patchIds", message: "choose at least one patch" }]);
        const { image, report } = await patchImage(ctx, requireFile(upload).bytes, patchIds, flags.fixChecksums);
        const bytes = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
        if (request.headers.accept?.includes("application/octet-stream")) {
          reply
            .header("content-type", "application/octet-stream")
            .header("content-disposition", `attachment; filename="${report.firmwareId}-patched.bin"`)
            .header("x-tune-report", encodeURIComponent(JSON.stringify(report)));
          if (wantsSha256(request.headers))
            reply.trailer("repr-digest", (_reply, _payload, done) => done(null, reprDigestOf(image)));
          return reply.send(bytes);
        }
        const json = JSON.stringify({ ...report, sha256: sha256Of(image) });
        return reply.type("application/json").send(`${json.slice(0, -1)},"image":"${bytes.toString("base64")}"}`);
      }),
  );

  /**
   * A definition file (TunerPro XDF in XML or 1.x text, RomRaider or EcuFlash
   * XML: told apart by content) → the definition, its checksum schemes and
   * its patches, with what was skipped and why, and on a dry run a few maps
   * read from the stock file; stored only without dryRun: the patches chosen
   * by `patchIndexes` (all by default) and, with saveDefinition, the
   * definition (replacing the record's) and the checksum schemes chosen by
   * `checksumNames` that verify on the stock file (one whose name the record
   * already has is kept as it is). The path keeps its first name.
   *
   * The files come as multipart `file` parts (a rom and the files of the roms
   * it inherits from, or an A2L and the files it includes), each up to
   * DEFINITION_MAX_BYTES, with the other fields of the JSON body as form
   * fields; a JSON body with the text as `xml` is read too, within the JSON
   * body limit.
   */
  app.post(
    `/${apiRoutes.tuneFilePatches.importDefinition()}`,
    {
      config: {
        ...admin,
        media: multipartBody(
          { file: "The definition file, then the files it inherits or includes (same field, several parts)" },
          { fields: definitionImportFieldsSchema, orJson: true },
        ),
      },
      schema: { response: { 200: checkedXdfImportedSchema, 201: checkedXdfStoredSchema } },
    },
    async (request, reply) => {
      const run = (fields: DefinitionImportFields, files: DefinitionUpload[]) =>
        runDefinitionImport(ctx, fields, files, actorFrom(request));
      const answer = await (request.isMultipart()
        ? withBufferedUploads(request, (upload) => run(...definitionForm(upload)), DEFINITION_UPLOAD)
        : run(...definitionJson(request.body)));
      return "saved" in answer ? reply.status(201).send(answer) : answer;
    },
  );
}

const DEFINITION_UPLOAD = {
  limitBytes: DEFINITION_MAX_BYTES,
  maxFiles: 8,
  tooLarge: (limit: number, part: { field: string; filename: string }) =>
    new HttpError(
      413,
      "Payload too large",
      `The definition file "${part.filename}" is larger than ${limit / (1024 * 1024)} MiB (${limit} bytes), the most a definition file may have`,
      { limitBytes: limit, field: part.field, filename: part.filename },
    ),
};

/** The fields of the form, read with the JSON body's contract, and its files. */
function definitionForm(upload: {
  files: FormFile[];
  fields: Record<string, string>;
}): [DefinitionImportFields, DefinitionUpload[]] {
  const fields = jsonFieldsOf(definitionImportFieldsSchema, upload.fields, [
    "dryRun",
    "saveDefinition",
    "patchIndexes",
    "checksumNames",
    "addressOffset",
  ]);
  if (upload.files.length === 0) throw badRequest("No file", 'Attach the definition file as a "file" part');
  const empty = upload.files.findIndex((file) => file.bytes.length === 0);
  if (empty >= 0)
    throw new RequestValidationError("body", [
      { path: `file.${empty}`, message: `the definition file "${upload.files[empty].filename}" is empty` },
    ]);
  return [fields, upload.files.map((file) => ({ name: file.filename, bytes: file.bytes }))];
}

function definitionJson(body: unknown): [DefinitionImportFields, DefinitionUpload[]] {
  const result = xdfImportSchema.safeParse(body);
  if (!result.success) throw new RequestValidationError("body", fieldIssues(result.error));
  const { xml, ...fields } = result.data;
  return [fields, [{ name: "definition", text: xml }]];
}
