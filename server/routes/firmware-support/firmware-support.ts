/**
 * Firmware records: identification, checksums and definition per software
 * id, with the stock file each is checked against (services/firmware-support).
 */

import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import {
  firmwareFirstSetupSchema,
  firmwareSupportList,
  firmwareSupportPageSchema,
  firmwareSupportSchema,
} from "../../../contracts/firmware-support";
import { checkedFirmwareSupportInputSchema } from "../../../domain/catalogue/checked-schemas";
import type { AppContext } from "../../context";
import { firmwareSupport } from "../../db/schema";
import { idParams } from "../../http/crud";
import { type ListSpec, listQueryOf, runList } from "../../http/list";
import { bytesAnswer, multipartBody } from "../../http/media";
import { requireFile, withUpload } from "../../http/uploads";
import type { ZodTypeProvider } from "../../http/zod";
import { firstSetupOf } from "../../services/firmware-support/first-setup";
import {
  definitionXdfOf,
  deleteFirmwareRecord,
  firmwarePageOf,
  firmwareRowOf,
  firmwareToApi,
  saveFirmwareRecord,
  stockFileOf,
  storeStockFile,
} from "../../services/firmware-support/records";
import { admin, BASE } from "./common";

export { auditFirmwareChange, firmwareToApi } from "../../services/firmware-support/records";

/** One firmware record's routes; the records are listed at the catalogue's root (BASE). */
const RECORDS = `/${apiPaths["firmware-support"].record}`;

// The list (also the support matrix's) filters and sorts by these columns.
export const firmwareListSpec: ListSpec = {
  table: firmwareSupport,
  id: firmwareSupport.id,
  allowed: firmwareSupportList,
  fields: {
    firmwareId: { column: firmwareSupport.firmwareId, kind: "text" },
    manufacturer: { column: firmwareSupport.manufacturer, kind: "text" },
    ecuFamily: { column: firmwareSupport.ecuFamily, kind: "text" },
    imageSize: { column: firmwareSupport.imageSize, kind: "number" },
    updatedAt: { column: firmwareSupport.updatedAt, kind: "timestamp" },
    hasStockFile: { column: sql`(${firmwareSupport.stockSha256} IS NOT NULL)`, kind: "boolean" },
    flashingEnabled: { column: firmwareSupport.flashingEnabled, kind: "boolean" },
  },
  search: sql`(${firmwareSupport.firmwareId} || ' ' || ${firmwareSupport.ecuFamily} || ' ' || ${firmwareSupport.manufacturer})`,
  defaultSort: [{ field: "firmwareId", order: "asc" }],
};

export async function firmwareRecordRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerRecordRoutes(app, ctx);
  registerRecordFileRoutes(app, ctx);
}

/** The records: list, one, save by software id, delete. */
function registerRecordRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.get(
    `/${apiPaths["firmware-support"].list}`,
    { config: { ...admin, list: firmwareListSpec }, schema: { response: { 200: firmwareSupportPageSchema } } },
    async (request) =>
      firmwarePageOf(ctx.db, (select) =>
        runList(ctx.db, firmwareListSpec, listQueryOf(request, firmwareListSpec), select),
      ),
  );

  app.get(
    `${RECORDS}/:id`,
    { config: admin, schema: { params: idParams, response: { 200: firmwareSupportSchema } } },
    async (request) => firmwareToApi(await firmwareRowOf(ctx.db, request.params.id)),
  );

  /** Creates or updates by software id; a stored stock file must still pass the new rules. */
  app.put(
    `${RECORDS}`,
    {
      config: admin,
      schema: {
        body: checkedFirmwareSupportInputSchema,
        response: { 200: firmwareSupportSchema, 201: firmwareSupportSchema },
      },
    },
    async (request, reply) => {
      const { row, created } = await saveFirmwareRecord(ctx, request, request.body);
      return reply.status(created ? 201 : 200).send(firmwareToApi(row));
    },
  );

  app.delete(`${RECORDS}/:id`, { config: admin, schema: { params: idParams } }, async (request, reply) => {
    await deleteFirmwareRecord(ctx.db, request, request.params.id);
    return reply.status(204).send();
  });
}

/** A record's files: its stock file (upload and download) and its definition as XDF. */
function registerRecordFileRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.post(
    `/${apiRoutes.firmwareSupport.stockFile(":id")}`,
    {
      config: { ...admin, media: multipartBody({ file: "The stock file" }) },
      schema: { params: idParams, response: { 200: firmwareSupportSchema } },
    },
    async (request) =>
      withUpload(request, ctx, async (upload) =>
        firmwareToApi(await storeStockFile(ctx, request, request.params.id, requireFile(upload))),
      ),
  );

  app.get(
    `${BASE}/stock-file/:id`,
    { config: { ...admin, media: bytesAnswer() }, schema: { params: idParams } },
    async (request, reply) => {
      const { firmwareId, sha256 } = await stockFileOf(ctx.db, request.params.id);
      const body = await ctx.blobs.stream(sha256);
      return reply
        .header("content-type", "application/octet-stream")
        .header("content-disposition", `attachment; filename="${firmwareId}-stock.bin"`)
        .header("x-content-sha256", sha256)
        .send(body);
    },
  );

  /** What the stock read proposes for a new record: identify candidates and the known checksum schemes that verify. */
  app.get(
    `/${apiRoutes.firmwareSupport.firstSetup(":id")}`,
    { config: admin, schema: { params: idParams, response: { 200: firmwareFirstSetupSchema } } },
    async (request) => firstSetupOf(ctx, request.params.id),
  );

  /** The record's definition (and its firmware's patches) as a TunerPro XDF, for tuners who work in TunerPro. */
  app.get(
    `/${apiRoutes.firmwareSupport.definitionXdf(":id")}`,
    { config: { ...admin, media: bytesAnswer({ types: ["application/xml"] }) }, schema: { params: idParams } },
    async (request, reply) => {
      const { firmwareId, xdf } = await definitionXdfOf(ctx.db, request.params.id);
      return reply
        .header("content-type", "application/xml; charset=utf-8")
        .header("content-disposition", `attachment; filename="${firmwareId.replace(/[^A-Za-z0-9._-]/g, "_")}.xdf"`)
        .send(xdf);
    },
  );
}
