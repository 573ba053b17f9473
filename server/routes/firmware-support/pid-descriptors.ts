/**
 * PID descriptors: the channels a data log records, with VW_Flash and
 * Torque CSV import and export.
 */

import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import {
  type PidDescriptor,
  type pidDescriptorInputSchema,
  pidDescriptorList,
  pidDescriptorSchema,
  pidImportPreviewSchema,
  pidImportResultSchema,
} from "../../../contracts/firmware-support";
import { checkedPidDescriptorInputSchema } from "../../../domain/catalogue/checked-schemas";
import { parsePidCsv, pidCsvFormats, writePidCsv } from "../../../domain/catalogue/pid-csv";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/handle";
import { pidDescriptors } from "../../db/schema";
import { badRequest } from "../../errors";
import { referencedConflict, registerCrud, uniqueConflict } from "../../http/crud";
import { type ListSpec, listOrder, listQueryOf, listWhere, MAX_OFFSET } from "../../http/list";
import { bytesAnswer } from "../../http/media";
import type { ZodTypeProvider } from "../../http/zod";
import { actorFrom } from "../../services/audit";
import { channelReferrers, lockFirmwareIds } from "../../services/firmware-support/references";
import {
  importPidDescriptors,
  isComputedVariable,
  pidDescriptorsForExport,
  pidVariableOf,
} from "../../services/pid-descriptors";
import { admin, BASE, iso } from "./common";

const pidListSpec: ListSpec = {
  table: pidDescriptors,
  id: pidDescriptors.id,
  allowed: pidDescriptorList,
  fields: {
    id: { column: pidDescriptors.id, kind: "uuid" },
    name: { column: pidDescriptors.name, kind: "text" },
    variable: { column: pidDescriptors.variable, kind: "text" },
    source: { column: pidDescriptors.source, kind: "text" },
    unit: { column: pidDescriptors.unit, kind: "text" },
    firmwareIds: { column: pidDescriptors.firmwareIds, kind: "array" },
    updatedAt: { column: pidDescriptors.updatedAt, kind: "timestamp" },
  },
  search: sql`(${pidDescriptors.name} || ' ' || ${pidDescriptors.variable} || ' ' || ${pidDescriptors.unit})`,
  defaultSort: [{ field: "name", order: "asc" }],
};
const pidValues = async (tx: Tx, input: z.output<typeof pidDescriptorInputSchema>) => {
  const { id: _id, ...values } = input;
  await lockFirmwareIds(tx, values.firmwareIds);
  return values;
};
const pidUnique = {
  pid_descriptors_variable_key: { field: "variable", message: "another PID descriptor uses this variable" },
};

const importBody = z.strictObject({
  csv: z
    .string()
    .min(1, "the CSV is empty")
    .max(1024 * 1024),
  format: z.enum(["auto", ...pidCsvFormats]).default("auto"),
  source: z.enum(["obd", "uds", "ram"]).optional(),
  firmwareIds: z.array(z.string()).max(100).default([]),
  dryRun: z.boolean().default(true),
  skipInvalid: z.boolean().default(false),
});

export async function pidDescriptorRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const put = registerCrud(plugin, ctx, {
    label: "PID descriptor",
    path: `/${apiPaths["pid-descriptors"].record}`,
    table: pidDescriptors,
    idColumn: pidDescriptors.id,
    input: checkedPidDescriptorInputSchema,
    output: pidDescriptorSchema,
    list: pidListSpec,
    async prepare(tx, input, existingId) {
      const values = await pidValues(tx, input);
      if (existingId) {
        // Renaming a variable would break the computed descriptors that read it.
        const current = await pidVariableOf(tx, existingId);
        if (current !== values.variable) {
          const users = await channelReferrers(tx, { variable: current });
          if (users.length) throw referencedConflict(`Variable "${current}"`, users);
        }
      }
      if (await isComputedVariable(tx, values.variable))
        throw badRequest("Invalid body", "a computed descriptor uses this variable", [
          { path: "variable", message: "a computed descriptor uses this variable" },
        ]);
      return values;
    },
    toApi: ({ createdAt, updatedAt, ...row }): PidDescriptor => ({
      ...row,
      createdAt: iso(createdAt)!,
      updatedAt: iso(updatedAt)!,
    }),
    referrers: (tx, row) => channelReferrers(tx, { id: row.id, variable: row.variable }),
    unique: pidUnique,
  });
  // Declared here, where the body's schema is concrete, so the handler gets its parsed type (see CrudPut).
  app.put(put.path, put.options, put.handler);
  registerPidImportRoute(plugin, ctx);
  registerPidExportRoute(plugin, ctx);
}

function registerPidImportRoute(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  /**
   * Parses a VW_Flash or Torque CSV into descriptors (rows with a placeholder
   * address become computed descriptors) and checks each row as PUT would.
   * With dryRun the answer is the preview; otherwise the rows are written in
   * one transaction (upserting by variable), refused when any row has errors
   * unless skipInvalid.
   */
  app.post(
    `/${apiRoutes.firmwareSupport.importPidDescriptors()}`,
    {
      config: admin,
      schema: { body: importBody, response: { 200: pidImportPreviewSchema, 201: pidImportResultSchema } },
    },
    async (request, reply) => {
      const body = request.body;
      const parsed = parsePidCsv(body.csv, { format: body.format, source: body.source, firmwareIds: body.firmwareIds });
      if (!parsed.ok) throw badRequest("Unreadable CSV", parsed.error, [{ path: "csv", message: parsed.error }]);
      // The answer goes out after the commit, so the client's next request sees the imported rows.
      let result: Awaited<ReturnType<typeof importPidDescriptors>>;
      try {
        result = await importPidDescriptors(ctx.db, actorFrom(request), parsed, body);
      } catch (error) {
        uniqueConflict(error, pidUnique);
      }
      return "imported" in result ? reply.status(201).send(result) : result;
    },
  );
}

/** The descriptors a list query selects, as a VW_Flash or Torque CSV. */
function registerPidExportRoute(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.get(
    `${BASE}/pid-descriptors/export`,
    { config: { ...admin, list: pidListSpec, media: bytesAnswer({ types: ["text/csv"] }) } },
    async (request, reply) => {
      const params = new URLSearchParams(request.url.split("?")[1] ?? "");
      const format = params.get("format") ?? "vwflash";
      if (!(pidCsvFormats as readonly string[]).includes(format))
        throw badRequest("Invalid query", `format must be one of ${pidCsvFormats.join(", ")}`, [
          { path: "format", message: "unknown format" },
        ]);
      params.delete("format");
      const query = listQueryOf({ url: `?${params}` } as typeof request, pidListSpec);
      const { rows, computed } = await pidDescriptorsForExport(
        ctx.db,
        listWhere(pidListSpec, query),
        listOrder(pidListSpec, query),
        format === "vwflash",
        MAX_OFFSET,
      );
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="pid-descriptors-${format}.csv"`)
        .send(writePidCsv(format as (typeof pidCsvFormats)[number], rows, computed));
    },
  );
}
