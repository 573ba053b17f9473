/**
 * PID descriptors: the channels a data log records, with VW_Flash and
 * Torque CSV import and export.
 */
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import {
  type PidDescriptor,
  pidDescriptorInputSchema,
  pidDescriptorList,
  pidDescriptorSchema,
  pidImportPreviewSchema,
  pidImportResultSchema,
} from "../../../contracts/catalogue";
import { validateExpression } from "../../../contracts/expression";
import { parsePidCsv, pidCsvFormats, writePidCsv } from "../../../domain/catalogue/pid-csv";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/handle";
import { computedDescriptors, pidDescriptors } from "../../db/schema";
import { badRequest } from "../../errors";
import { referencedConflict, registerCrud, uniqueConflict } from "../../http/crud";
import { type ListSpec, listOrder, listQueryOf, listWhere, MAX_OFFSET } from "../../http/list";
import type { ZodTypeProvider } from "../../http/zod";
import { actorFrom, writeAudit } from "../../services/audit";
import { channelReferrers, expressionNames, knownChannelVariables, lockFirmwareIds } from "../../services/catalogue";
import { admin, BASE, iso } from "./common";

export async function pidDescriptorRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
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

  const put = registerCrud(plugin, ctx, {
    label: "PID descriptor",
    path: `/${apiPaths["pid-descriptors"].record}`,
    table: pidDescriptors,
    idColumn: pidDescriptors.id,
    input: pidDescriptorInputSchema,
    output: pidDescriptorSchema,
    list: pidListSpec,
    async prepare(tx, input, existingId) {
      const values = await pidValues(tx, input);
      if (existingId) {
        // Renaming a variable would break the computed descriptors that read it.
        const [current] = await tx
          .select({ variable: pidDescriptors.variable })
          .from(pidDescriptors)
          .where(eq(pidDescriptors.id, existingId));
        if (current.variable !== values.variable) {
          const users = await channelReferrers(tx, { variable: current.variable });
          if (users.length) throw referencedConflict(`Variable "${current.variable}"`, users);
        }
      }
      const [computed] = await tx
        .select({ id: computedDescriptors.id })
        .from(computedDescriptors)
        .where(eq(computedDescriptors.variable, values.variable));
      if (computed)
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
      const result = await ctx.db.transaction(async (tx) => {
        const rows = parsed.rows;
        // Computed rows may read channels of this file as well as stored ones.
        const fileVariables = rows.flatMap((row) =>
          row.kind === "pid" && row.errors.length === 0 ? [row.value.variable] : [],
        );
        const computedNames = rows.flatMap((row) => (row.kind === "computed" && row.names ? row.names : []));
        const stored = await knownChannelVariables(tx, computedNames);
        const available = new Set([
          ...fileVariables,
          ...stored,
          ...rows.flatMap((row) => (row.kind === "computed" ? [row.value.variable] : [])),
        ]);
        if (body.firmwareIds.length) await lockFirmwareIds(tx, body.firmwareIds);
        for (const row of rows) {
          if (row.kind !== "computed" || row.errors.length) continue;
          const check = validateExpression(
            row.value.expression,
            [...available].filter((v) => v !== row.value.variable),
          );
          if (!check.ok)
            row.errors.push({ field: "expression", message: check.error.message, position: check.error.position });
        }
        const preview = {
          format: parsed.format,
          rows: rows.map(({ names: _names, ...row }) => row),
          valid: rows.filter((row) => row.errors.length === 0).length,
          invalid: rows.filter((row) => row.errors.length > 0).length,
        };
        if (body.dryRun) return preview;
        if (preview.invalid && !body.skipInvalid) {
          throw badRequest(
            "Rows with errors",
            `${preview.invalid} row(s) have errors; fix them or import with skipInvalid`,
            preview,
          );
        }
        let imported = 0;
        const variables: string[] = [];
        try {
          for (const row of rows) {
            if (row.errors.length) continue;
            if (row.kind === "pid") {
              const { variable, ...rest } = row.value;
              await tx
                .insert(pidDescriptors)
                .values(row.value)
                .onConflictDoUpdate({ target: pidDescriptors.variable, set: { ...rest, updatedAt: new Date() } });
            } else {
              const names = expressionNames(row.value.expression);
              const variables = "names" in names ? [...names.names] : [];
              const { variable, ...rest } = row.value;
              await tx
                .insert(computedDescriptors)
                .values({ ...row.value, variables })
                .onConflictDoUpdate({
                  target: computedDescriptors.variable,
                  set: { ...rest, variables, updatedAt: new Date() },
                });
            }
            imported++;
            variables.push(row.value.variable);
          }
        } catch (error) {
          uniqueConflict(error, pidUnique);
        }
        // One row for the import (each row is created or replaced by variable): what was written.
        await writeAudit(tx, actorFrom(request), {
          action: "pid-descriptor.imported",
          targetType: "pid-descriptor",
          targetId: `import:${parsed.format}`,
          after: { format: parsed.format, source: body.source, firmwareIds: body.firmwareIds, imported, variables },
        });
        return { ...preview, imported };
      });
      return "imported" in result ? reply.status(201).send(result) : result;
    },
  );

  app.get(`${BASE}/pid-descriptors/export`, { config: { ...admin, list: pidListSpec } }, async (request, reply) => {
    const params = new URLSearchParams(request.url.split("?")[1] ?? "");
    const format = params.get("format") ?? "vwflash";
    if (!(pidCsvFormats as readonly string[]).includes(format))
      throw badRequest("Invalid query", `format must be one of ${pidCsvFormats.join(", ")}`, [
        { path: "format", message: "unknown format" },
      ]);
    params.delete("format");
    const query = listQueryOf({ url: `?${params}` } as typeof request, pidListSpec);
    const rows = await ctx.db
      .select()
      .from(pidDescriptors)
      .where(listWhere(pidListSpec, query))
      .orderBy(...listOrder(pidListSpec, query))
      .limit(MAX_OFFSET);
    const computed =
      format === "vwflash"
        ? await ctx.db.select().from(computedDescriptors).orderBy(computedDescriptors.name).limit(MAX_OFFSET)
        : [];
    return reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="pid-descriptors-${format}.csv"`)
      .send(writePidCsv(format as (typeof pidCsvFormats)[number], rows, computed));
  });
}
