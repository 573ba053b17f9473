/**
 * The "Firmware support" endpoints (admin only): firmware
 * records with their stock file and flashing support, supported vehicles, OBD
 * functions, PID descriptors (with CSV import and export), PID templates,
 * computed descriptors, password storage and the support matrix.
 */
import { readFile } from "node:fs/promises";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  type ComputedDescriptorInput,
  type FirmwareMatrixRow,
  type FirmwareSupport,
  type FirmwareSupportRow,
  type FirmwareSupportValues,
  type FlashingProfile,
  type ObdFunctionInput,
  type PidDescriptorInput,
  type PidTemplateInput,
  type FirmwareSecretInput,
  type SupportedVehicleInput,
  computedDescriptorInputSchema,
  computedDescriptorList,
  firmwareSecretInputSchema,
  firmwareSecretList,
  firmwareSupportInputSchema,
  firmwareSupportList,
  flashingSupportInputSchema,
  obdFunctionInputSchema,
  obdFunctionList,
  pidDescriptorInputSchema,
  pidDescriptorList,
  pidTemplateInputSchema,
  pidTemplateList,
  supportedVehicleInputSchema,
  supportedVehicleList,
} from "../../contracts/catalogue";
import { validateExpression } from "../../contracts/expression";
import type { ChecksumScheme, IdentifyRule } from "../../contracts/tune-definition";
import type { AppContext } from "../context";
import {
  computedDescriptors,
  firmwareSecrets,
  firmwareSupport,
  obdFunctions,
  pidDescriptors,
  pidTemplates,
  secretReveals,
  supportedVehicles,
} from "../db/schema";
import { parsePidCsv, pidCsvFormats, writePidCsv } from "../../domain/catalogue/pid-csv";
import { describeMismatches } from "../../domain/tune/identify";
import { identifyMismatches } from "../../domain/tune";
import { verifyAll } from "../services/tune-engine";
import { HttpError, badRequest, notFound } from "../errors";
import { callerOf } from "../http/auth";
import type { Tx } from "../db/handle";
import { idParams, referencedConflict, registerCrud, uniqueConflict } from "../http/crud";
import { type ListSpec, listQueryOf, listWhere, listOrder, runList, MAX_OFFSET } from "../http/list";
import { requireFile, withUpload } from "../http/uploads";
import {
  channelReferrers,
  expressionNames,
  firmwareReferrers,
  knownChannelVariables,
  lockDescriptorIds,
  lockFirmwareIds,
} from "../services/catalogue";

const BASE = "/firmware-support";
const admin = { role: "admin" as const };

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : (value as string | null));

// ---------------------------------------------------------------------------
// List specs: which columns each list filters and sorts by, and its search expression

const firmwareListSpec: ListSpec = {
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

type FirmwareRow = typeof firmwareSupport.$inferSelect;

function firmwareToApi(row: FirmwareRow): FirmwareSupport {
  return {
    id: row.id,
    firmwareId: row.firmwareId,
    ecuFamily: row.ecuFamily,
    manufacturer: row.manufacturer,
    imageSize: row.imageSize,
    identify: row.identify as FirmwareSupport["identify"],
    checksums: row.checksums as FirmwareSupport["checksums"],
    definition: row.definition as FirmwareSupport["definition"],
    notes: row.notes,
    flashing: {
      enabled: row.flashingEnabled,
      profile: row.flashing as FlashingProfile | null,
      blocks: row.blocks as FirmwareSupport["flashing"]["blocks"],
      bootloader: row.bootloaderSha256 ? { sha256: row.bootloaderSha256, size: row.bootloaderSize!, name: row.bootloaderName ?? "" } : null,
    },
    stockFile: row.stockSha256 ? { sha256: row.stockSha256, size: row.stockSize!, uploadedAt: iso(row.stockUploadedAt)! } : null,
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
  };
}

function firmwareToListRow(row: FirmwareRow): FirmwareSupportRow {
  const { definition, checksums, identify, ...rest } = firmwareToApi(row);
  return { ...rest, hasDefinition: definition !== null, checksumCount: checksums.length, identifyCount: identify.length };
}

/**
 * Why an image cannot be this firmware's stock file, or null when it can:
 * wrong size, an identify rule that does not match, or a checksum scheme that
 * does not verify (a scheme failing on the stock image means a wrong
 * definition, never something to "fix").
 */
function stockRefusal(image: Uint8Array, record: { imageSize: number; identify: IdentifyRule[]; checksums: ChecksumScheme[] }): HttpError | null {
  if (image.length !== record.imageSize) {
    return new HttpError(422, "Wrong image size", `The file is ${image.length} bytes; this firmware's images are ${record.imageSize} bytes`, [
      { check: "size", expected: record.imageSize, found: image.length },
    ]);
  }
  const mismatches = identifyMismatches(image, record.identify);
  if (mismatches.length) {
    return new HttpError(422, "Not this firmware", `The identify rules do not match: ${describeMismatches(mismatches)}`, [
      { check: "identify", mismatches },
    ]);
  }
  const failing = verifyAll(image, record.checksums).filter((result) => !result.valid);
  if (failing.length) {
    const names = failing.map((result) => result.name);
    return new HttpError(422, "Checksum does not verify", `Checksum scheme ${names.map((n) => `"${n}"`).join(", ")} does not verify on this file`, [
      ...failing.map((result) => ({ check: "checksum", scheme: result.name, type: result.type, stored: result.stored, computed: result.computed })),
    ]);
  }
  return null;
}

async function lockedFirmware(tx: Tx, id: string): Promise<FirmwareRow> {
  const [row] = await tx.select().from(firmwareSupport).where(eq(firmwareSupport.id, id)).for("update");
  if (!row) throw notFound(`Firmware record ${id}`);
  return row;
}

export async function firmwareSupportRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // -------------------------------------------------------------------------
  // Firmware records

  app.get(BASE, { config: { ...admin, list: firmwareListSpec } }, async (request) => {
    const query = listQueryOf(request, firmwareListSpec);
    const page = await runList(ctx.db, firmwareListSpec, query, ({ where, orderBy, limit, offset }) =>
      ctx.db.select().from(firmwareSupport).where(where).orderBy(...orderBy).limit(limit).offset(offset),
    );
    return { ...page, data: page.data.map(firmwareToListRow) };
  });

  app.get(`${BASE}/firmware-support/:id`, { config: admin, schema: { params: idParams } }, async (request) => {
    const { id } = request.params as { id: string };
    const [row] = await ctx.db.select().from(firmwareSupport).where(eq(firmwareSupport.id, id));
    if (!row) throw notFound(`Firmware record ${id}`);
    return firmwareToApi(row);
  });

  /** Creates or updates by software id; a stored stock file must still pass the new rules. */
  app.put(`${BASE}/firmware-support`, { config: admin, schema: { body: firmwareSupportInputSchema } }, async (request, reply) => {
    const input = request.body as FirmwareSupportValues;
    const { row, created } = await ctx.db.transaction(async (tx) => {
      const [existing] = await tx.select().from(firmwareSupport).where(eq(firmwareSupport.firmwareId, input.firmwareId)).for("update");
      if (existing?.stockSha256) {
        const refusal = stockRefusal(await ctx.blobs.read(existing.stockSha256), input);
        if (refusal) {
          throw new HttpError(422, refusal.message, `The stored stock file would no longer pass: ${refusal.description}`, refusal.data);
        }
      }
      const values = {
        firmwareId: input.firmwareId,
        ecuFamily: input.ecuFamily,
        manufacturer: input.manufacturer,
        imageSize: input.imageSize,
        identify: input.identify,
        checksums: input.checksums,
        definition: input.definition,
        notes: input.notes,
      };
      if (existing) {
        const [updated] = await tx.update(firmwareSupport).set({ ...values, updatedAt: new Date() }).where(eq(firmwareSupport.id, existing.id)).returning();
        return { row: updated, created: false };
      }
      const [inserted] = await tx.insert(firmwareSupport).values(values).onConflictDoNothing().returning();
      // A concurrent PUT created it first: answer as the update the caller would have raced with.
      if (!inserted) throw new HttpError(409, "Conflict", `Firmware ${input.firmwareId} was created meanwhile; send the PUT again`);
      return { row: inserted, created: true };
    });
    return reply.status(created ? 201 : 200).send(firmwareToApi(row));
  });

  app.delete(`${BASE}/firmware-support/:id`, { config: admin, schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    await ctx.db.transaction(async (tx) => {
      const row = await lockedFirmware(tx, id);
      const referrers = await firmwareReferrers(tx, row.firmwareId);
      if (referrers.length) throw referencedConflict(`Firmware ${row.firmwareId}`, referrers);
      await tx.delete(firmwareSupport).where(eq(firmwareSupport.id, id));
    });
    return reply.status(204).send();
  });

  app.post(`${BASE}/firmware-support/:id/stock-file`, { config: admin, schema: { params: idParams } }, async (request) => {
    const { id } = request.params as { id: string };
    return withUpload(request, ctx, async (upload) => {
      const file = requireFile(upload);
      const [record] = await ctx.db.select().from(firmwareSupport).where(eq(firmwareSupport.id, id));
      if (!record) throw notFound(`Firmware record ${id}`);
      const refusal = stockRefusal(await readFile(file.path), {
        imageSize: record.imageSize,
        identify: record.identify as IdentifyRule[],
        checksums: record.checksums as ChecksumScheme[],
      });
      if (refusal) throw refusal;
      await ctx.blobs.adopt(file.path, file.sha256);
      const [row] = await ctx.db
        .update(firmwareSupport)
        .set({ stockSha256: file.sha256, stockSize: file.size, stockUploadedAt: new Date(), updatedAt: new Date() })
        .where(eq(firmwareSupport.id, id))
        .returning();
      if (!row) throw notFound(`Firmware record ${id}`);
      return firmwareToApi(row);
    });
  });

  app.get(`${BASE}/stock-file/:id`, { config: admin, schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const [row] = await ctx.db.select().from(firmwareSupport).where(eq(firmwareSupport.id, id));
    if (!row) throw notFound(`Firmware record ${id}`);
    if (!row.stockSha256) throw notFound(`A stock file for ${row.firmwareId}`);
    return reply
      .header("content-type", "application/octet-stream")
      .header("content-disposition", `attachment; filename="${row.firmwareId}-stock.bin"`)
      .header("x-content-sha256", row.stockSha256)
      .send(ctx.blobs.stream(row.stockSha256));
  });

  // -------------------------------------------------------------------------
  // Flashing support

  app.put(`${BASE}/flashing-support`, { config: admin, schema: { body: flashingSupportInputSchema } }, async (request) => {
    const input = request.body as z.output<typeof flashingSupportInputSchema>;
    const row = await ctx.db.transaction(async (tx) => {
      const [record] = await tx.select().from(firmwareSupport).where(eq(firmwareSupport.firmwareId, input.firmwareId)).for("update");
      if (!record) throw notFound(`Firmware record ${input.firmwareId}`);
      input.blocks.forEach((block, i) => {
        if (block.fileOffset + block.length > record.imageSize) {
          throw badRequest("Invalid body", `block "${block.name}" runs past the image size`, [
            { path: `blocks.${i}.length`, message: `block "${block.name}" runs past the image size ${record.imageSize}` },
          ]);
        }
      });
      if (input.enabled && (!record.bootloaderSha256 || !record.stockSha256)) {
        throw new HttpError(422, "Flashing not ready", "Enabling flashing needs a stock file and a bootloader uploaded first");
      }
      const [updated] = await tx
        .update(firmwareSupport)
        .set({ flashingEnabled: input.enabled, flashing: input.profile, blocks: input.blocks, updatedAt: new Date() })
        .where(eq(firmwareSupport.id, record.id))
        .returning();
      return updated;
    });
    return firmwareToApi(row);
  });

  app.post(`${BASE}/flashing-support/:id/bootloader`, { config: admin, schema: { params: idParams } }, async (request) => {
    const { id } = request.params as { id: string };
    return withUpload(request, ctx, async (upload) => {
      const file = requireFile(upload);
      if (file.size === 0) throw new HttpError(422, "Empty file", "The bootloader file is empty");
      const [exists] = await ctx.db.select({ id: firmwareSupport.id }).from(firmwareSupport).where(eq(firmwareSupport.id, id));
      if (!exists) throw notFound(`Firmware record ${id}`);
      await ctx.blobs.adopt(file.path, file.sha256);
      const [row] = await ctx.db
        .update(firmwareSupport)
        .set({ bootloaderSha256: file.sha256, bootloaderSize: file.size, bootloaderName: file.filename.slice(0, 200), updatedAt: new Date() })
        .where(eq(firmwareSupport.id, id))
        .returning();
      if (!row) throw notFound(`Firmware record ${id}`);
      return firmwareToApi(row);
    });
  });

  // -------------------------------------------------------------------------
  // Support matrix: one row per firmware, with what it has

  app.get(`${BASE}/matrix`, { config: { ...admin, list: firmwareListSpec } }, async (request) => {
    const query = listQueryOf(request, firmwareListSpec);
    const count = (table: typeof supportedVehicles | typeof pidTemplates | typeof obdFunctions) =>
      sql<number>`(SELECT count(*)::int FROM ${table} WHERE ${table.firmwareIds} @> ARRAY[${firmwareSupport.firmwareId}])`;
    return runList(ctx.db, firmwareListSpec, query, async ({ where, orderBy, limit, offset }) => {
      const rows = await ctx.db
        .select({
          firmwareId: firmwareSupport.firmwareId,
          manufacturer: firmwareSupport.manufacturer,
          ecuFamily: firmwareSupport.ecuFamily,
          definition: sql<boolean>`${firmwareSupport.definition} IS NOT NULL AND ${firmwareSupport.definition} <> 'null'::jsonb`,
          stockFile: sql<boolean>`${firmwareSupport.stockSha256} IS NOT NULL`,
          bootloader: sql<boolean>`${firmwareSupport.bootloaderSha256} IS NOT NULL`,
          flashing: firmwareSupport.flashingEnabled,
          vehicles: count(supportedVehicles),
          pidTemplates: count(pidTemplates),
          obdFunctions: count(obdFunctions),
        })
        .from(firmwareSupport)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset);
      return rows as FirmwareMatrixRow[];
    });
  });

  // -------------------------------------------------------------------------
  // Supported vehicles

  registerCrud(app, ctx, {
    label: "Supported vehicle",
    path: `${BASE}/supported-vehicle`,
    table: supportedVehicles,
    idColumn: supportedVehicles.id,
    input: supportedVehicleInputSchema as z.ZodType<SupportedVehicleInput & { id?: string }>,
    list: {
      table: supportedVehicles,
      id: supportedVehicles.id,
      allowed: supportedVehicleList,
      fields: {
        make: { column: supportedVehicles.make, kind: "text" },
        model: { column: supportedVehicles.model, kind: "text" },
        engine: { column: supportedVehicles.engine, kind: "text" },
        ecu: { column: supportedVehicles.ecu, kind: "text" },
        yearFrom: { column: supportedVehicles.yearFrom, kind: "number" },
        yearTo: { column: supportedVehicles.yearTo, kind: "number" },
        firmwareIds: { column: supportedVehicles.firmwareIds, kind: "array" },
        updatedAt: { column: supportedVehicles.updatedAt, kind: "timestamp" },
      },
      search: sql`(${supportedVehicles.make} || ' ' || ${supportedVehicles.model} || ' ' || ${supportedVehicles.generation} || ' ' || ${supportedVehicles.engine} || ' ' || ${supportedVehicles.ecu})`,
      defaultSort: [{ field: "make", order: "asc" }, { field: "model", order: "asc" }],
    },
    async prepare(tx, input) {
      const { id: _id, ...values } = supportedVehicleInputSchema.parse(input);
      await lockFirmwareIds(tx, values.firmwareIds);
      return values;
    },
    toApi: ({ createdAt, updatedAt, ...row }) => ({ ...row, createdAt: iso(createdAt), updatedAt: iso(updatedAt) }),
  });

  // -------------------------------------------------------------------------
  // OBD functions

  registerCrud(app, ctx, {
    label: "OBD function",
    path: `${BASE}/obd-function`,
    table: obdFunctions,
    idColumn: obdFunctions.id,
    input: obdFunctionInputSchema as z.ZodType<ObdFunctionInput & { id?: string }>,
    list: {
      table: obdFunctions,
      id: obdFunctions.id,
      allowed: obdFunctionList,
      fields: {
        name: { column: obdFunctions.name, kind: "text" },
        category: { column: obdFunctions.category, kind: "text" },
        safetyLevel: { column: obdFunctions.safetyLevel, kind: "text" },
        firmwareIds: { column: obdFunctions.firmwareIds, kind: "array" },
        updatedAt: { column: obdFunctions.updatedAt, kind: "timestamp" },
      },
      search: sql`(${obdFunctions.name} || ' ' || ${obdFunctions.description})`,
      defaultSort: [{ field: "name", order: "asc" }],
    },
    async prepare(tx, input) {
      const { id: _id, ...values } = obdFunctionInputSchema.parse(input);
      await lockFirmwareIds(tx, values.firmwareIds);
      return values;
    },
    toApi: ({ createdAt, updatedAt, ...row }) => ({ ...row, createdAt: iso(createdAt), updatedAt: iso(updatedAt) }),
    unique: { obd_functions_name_key: { field: "name", message: "another OBD function has this name" } },
  });

  // -------------------------------------------------------------------------
  // PID descriptors

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
  const pidValues = async (tx: Tx, input: PidDescriptorInput) => {
    const { id: _id, ...values } = pidDescriptorInputSchema.parse(input);
    await lockFirmwareIds(tx, values.firmwareIds);
    return values;
  };
  const pidUnique = { pid_descriptors_variable_key: { field: "variable", message: "another PID descriptor uses this variable" } };

  registerCrud(app, ctx, {
    label: "PID descriptor",
    path: `${BASE}/pid-descriptors`,
    table: pidDescriptors,
    idColumn: pidDescriptors.id,
    input: pidDescriptorInputSchema as z.ZodType<PidDescriptorInput & { id?: string }>,
    list: pidListSpec,
    async prepare(tx, input, existingId) {
      const values = await pidValues(tx, input);
      if (existingId) {
        // Renaming a variable would break the computed descriptors that read it.
        const [current] = await tx.select({ variable: pidDescriptors.variable }).from(pidDescriptors).where(eq(pidDescriptors.id, existingId));
        if (current.variable !== values.variable) {
          const users = await channelReferrers(tx, { variable: current.variable });
          if (users.length) throw referencedConflict(`Variable "${current.variable}"`, users);
        }
      }
      const [computed] = await tx.select({ id: computedDescriptors.id }).from(computedDescriptors).where(eq(computedDescriptors.variable, values.variable));
      if (computed) throw badRequest("Invalid body", "a computed descriptor uses this variable", [{ path: "variable", message: "a computed descriptor uses this variable" }]);
      return values;
    },
    toApi: ({ createdAt, updatedAt, ...row }) => ({ ...row, createdAt: iso(createdAt), updatedAt: iso(updatedAt) }),
    referrers: (tx, row) => channelReferrers(tx, { id: row.id as string, variable: row.variable as string }),
    unique: pidUnique,
  });

  const importBody = z.strictObject({
    csv: z.string().min(1, "the CSV is empty").max(1024 * 1024),
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
  app.post(`${BASE}/pid-descriptors/import`, { config: admin, schema: { body: importBody } }, async (request, reply) => {
    const body = request.body as z.output<typeof importBody>;
    const parsed = parsePidCsv(body.csv, { format: body.format, source: body.source, firmwareIds: body.firmwareIds });
    if (!parsed.ok) throw badRequest("Unreadable CSV", parsed.error, [{ path: "csv", message: parsed.error }]);
    return ctx.db.transaction(async (tx) => {
      const rows = parsed.rows;
      // Computed rows may read channels of this file as well as stored ones.
      const fileVariables = rows.flatMap((row) => (row.kind === "pid" && row.errors.length === 0 ? [row.value.variable] : []));
      const computedNames = rows.flatMap((row) => (row.kind === "computed" && row.names ? row.names : []));
      const stored = await knownChannelVariables(tx, computedNames);
      const available = new Set([...fileVariables, ...stored, ...rows.flatMap((row) => (row.kind === "computed" ? [row.value.variable] : []))]);
      if (body.firmwareIds.length) await lockFirmwareIds(tx, body.firmwareIds);
      for (const row of rows) {
        if (row.kind !== "computed" || row.errors.length) continue;
        const check = validateExpression(row.value.expression, [...available].filter((v) => v !== row.value.variable));
        if (!check.ok) row.errors.push({ field: "expression", message: check.error.message, position: check.error.position });
      }
      const preview = {
        format: parsed.format,
        rows: rows.map(({ names: _names, ...row }) => row),
        valid: rows.filter((row) => row.errors.length === 0).length,
        invalid: rows.filter((row) => row.errors.length > 0).length,
      };
      if (body.dryRun) return preview;
      if (preview.invalid && !body.skipInvalid) {
        throw badRequest("Rows with errors", `${preview.invalid} row(s) have errors; fix them or import with skipInvalid`, preview);
      }
      let imported = 0;
      try {
        for (const row of rows) {
          if (row.errors.length) continue;
          if (row.kind === "pid") {
            const { variable, ...rest } = row.value;
            await tx.insert(pidDescriptors).values(row.value).onConflictDoUpdate({ target: pidDescriptors.variable, set: { ...rest, updatedAt: new Date() } });
          } else {
            const names = expressionNames(row.value.expression);
            const variables = "names" in names ? [...names.names] : [];
            const { variable, ...rest } = row.value;
            await tx
              .insert(computedDescriptors)
              .values({ ...row.value, variables })
              .onConflictDoUpdate({ target: computedDescriptors.variable, set: { ...rest, variables, updatedAt: new Date() } });
          }
          imported++;
        }
      } catch (error) {
        uniqueConflict(error, pidUnique);
      }
      return reply.status(201).send({ ...preview, imported });
    });
  });

  app.get(`${BASE}/pid-descriptors/export`, { config: { ...admin, list: pidListSpec } }, async (request, reply) => {
    const params = new URLSearchParams(request.url.split("?")[1] ?? "");
    const format = params.get("format") ?? "vwflash";
    if (!(pidCsvFormats as readonly string[]).includes(format)) throw badRequest("Invalid query", `format must be one of ${pidCsvFormats.join(", ")}`, [{ path: "format", message: "unknown format" }]);
    params.delete("format");
    const query = listQueryOf({ url: `?${params}` } as typeof request, pidListSpec);
    const rows = await ctx.db.select().from(pidDescriptors).where(listWhere(pidListSpec, query)).orderBy(...listOrder(pidListSpec, query)).limit(MAX_OFFSET);
    const computed = format === "vwflash" ? await ctx.db.select().from(computedDescriptors).orderBy(computedDescriptors.name).limit(MAX_OFFSET) : [];
    return reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="pid-descriptors-${format}.csv"`)
      .send(writePidCsv(format as (typeof pidCsvFormats)[number], rows, computed));
  });

  // -------------------------------------------------------------------------
  // PID templates

  registerCrud(app, ctx, {
    label: "PID template",
    path: `${BASE}/pid-templates`,
    table: pidTemplates,
    idColumn: pidTemplates.id,
    input: pidTemplateInputSchema as z.ZodType<PidTemplateInput & { id?: string }>,
    list: {
      table: pidTemplates,
      id: pidTemplates.id,
      allowed: pidTemplateList,
      fields: {
        name: { column: pidTemplates.name, kind: "text" },
        vehicleFamily: { column: pidTemplates.vehicleFamily, kind: "text" },
        sampleRateHz: { column: pidTemplates.sampleRateHz, kind: "number" },
        firmwareIds: { column: pidTemplates.firmwareIds, kind: "array" },
        descriptorIds: { column: pidTemplates.descriptorIds, kind: "array", arrayType: "uuid" },
        updatedAt: { column: pidTemplates.updatedAt, kind: "timestamp" },
      },
      search: sql`(${pidTemplates.name} || ' ' || ${pidTemplates.vehicleFamily})`,
      defaultSort: [{ field: "name", order: "asc" }],
    },
    async prepare(tx, input) {
      const { id: _id, ...values } = pidTemplateInputSchema.parse(input);
      await lockFirmwareIds(tx, values.firmwareIds);
      await lockDescriptorIds(tx, values.descriptorIds);
      return values;
    },
    toApi: ({ createdAt, updatedAt, ...row }) => ({ ...row, createdAt: iso(createdAt), updatedAt: iso(updatedAt) }),
    unique: { pid_templates_name_key: { field: "name", message: "another template has this name" } },
  });

  // -------------------------------------------------------------------------
  // Computed descriptors

  registerCrud(app, ctx, {
    label: "Computed descriptor",
    path: `${BASE}/computed-descriptor`,
    listPath: `${BASE}/computed-descriptors`,
    table: computedDescriptors,
    idColumn: computedDescriptors.id,
    input: computedDescriptorInputSchema as z.ZodType<ComputedDescriptorInput & { id?: string }>,
    list: {
      table: computedDescriptors,
      id: computedDescriptors.id,
      allowed: computedDescriptorList,
      fields: {
        name: { column: computedDescriptors.name, kind: "text" },
        variable: { column: computedDescriptors.variable, kind: "text" },
        unit: { column: computedDescriptors.unit, kind: "text" },
        variables: { column: computedDescriptors.variables, kind: "array" },
        updatedAt: { column: computedDescriptors.updatedAt, kind: "timestamp" },
      },
      search: sql`(${computedDescriptors.name} || ' ' || ${computedDescriptors.variable} || ' ' || ${computedDescriptors.expression})`,
      defaultSort: [{ field: "name", order: "asc" }],
    },
    async prepare(tx, input, existingId) {
      const { id: _id, ...values } = computedDescriptorInputSchema.parse(input);
      const names = expressionNames(values.expression);
      if ("issue" in names) throw badRequest("Invalid expression", names.issue.message, [names.issue]);
      const known = await knownChannelVariables(tx, names.names.filter((n) => n !== values.variable), existingId);
      // The evaluator names the first unknown channel and where it is.
      const check = validateExpression(values.expression, known);
      if (!check.ok) throw badRequest("Invalid expression", check.error.message, [{ path: "expression", ...check.error }]);
      const [pid] = await tx.select({ id: pidDescriptors.id }).from(pidDescriptors).where(eq(pidDescriptors.variable, values.variable));
      if (pid) throw badRequest("Invalid body", "a PID descriptor uses this variable", [{ path: "variable", message: "a PID descriptor uses this variable" }]);
      return { ...values, variables: [...check.variables] };
    },
    toApi: ({ createdAt, updatedAt, ...row }) => ({ ...row, createdAt: iso(createdAt), updatedAt: iso(updatedAt) }),
    referrers: (tx, row) => channelReferrers(tx, { variable: row.variable as string }),
    unique: { computed_descriptors_variable_key: { field: "variable", message: "another computed descriptor uses this variable" } },
  });

  /** Channel variables for the expression editor's completion: PID and computed, by prefix. */
  app.get(`${BASE}/channel-variables`, { config: admin, schema: { querystring: z.strictObject({ q: z.string().max(64).default("") }) } }, async (request) => {
    const { q } = request.query as { q: string };
    const prefix = `${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await ctx.db.execute(sql`
      (SELECT variable, name, unit, min, max, 'pid' AS kind FROM ${pidDescriptors} WHERE variable LIKE ${prefix} ORDER BY variable LIMIT 200)
      UNION ALL
      (SELECT variable, name, unit, min, max, 'computed' AS kind FROM ${computedDescriptors} WHERE variable LIKE ${prefix} ORDER BY variable LIMIT 200)`);
    return { data: (rows as unknown as { rows: unknown[] }).rows };
  });

  // -------------------------------------------------------------------------
  // Password storage: masked in lists, revealed one at a time and logged

  const mask = (row: typeof firmwareSecrets.$inferSelect) => ({
    id: row.id,
    firmwareId: row.firmwareId,
    label: row.label,
    securityLevel: row.securityLevel,
    secret: "••••••••",
    updatedAt: iso(row.updatedAt),
  });
  const secretListSpec: ListSpec = {
    table: firmwareSecrets,
    id: firmwareSecrets.id,
    allowed: firmwareSecretList,
    fields: {
      firmwareId: { column: firmwareSecrets.firmwareId, kind: "text" },
      label: { column: firmwareSecrets.label, kind: "text" },
      updatedAt: { column: firmwareSecrets.updatedAt, kind: "timestamp" },
    },
    search: sql`(${firmwareSecrets.firmwareId} || ' ' || ${firmwareSecrets.label})`,
    defaultSort: [{ field: "firmwareId", order: "asc" }],
  };

  app.get(`${BASE}/password-storage`, { config: { ...admin, list: secretListSpec } }, async (request) => {
    const query = listQueryOf(request, secretListSpec);
    const page = await runList(ctx.db, secretListSpec, query, ({ where, orderBy, limit, offset }) =>
      ctx.db.select().from(firmwareSecrets).where(where).orderBy(...orderBy).limit(limit).offset(offset),
    );
    return { ...page, data: page.data.map(mask) };
  });

  app.put(`${BASE}/password-storage`, { config: admin, schema: { body: firmwareSecretInputSchema } }, async (request, reply) => {
    const input = request.body as FirmwareSecretInput;
    try {
      const row = await ctx.db.transaction(async (tx) => {
        await lockFirmwareIds(tx, [input.firmwareId], "firmwareId");
        const { id, ...plain } = input;
        const values = { ...plain, secret: ctx.secrets.seal(plain.secret) };
        if (id) {
          const [updated] = await tx.update(firmwareSecrets).set({ ...values, updatedAt: new Date() }).where(eq(firmwareSecrets.id, id)).returning();
          if (!updated) throw notFound(`Stored password ${id}`);
          return updated;
        }
        const [created] = await tx.insert(firmwareSecrets).values(values).returning();
        return created;
      });
      return reply.status(input.id ? 200 : 201).send(mask(row));
    } catch (error) {
      uniqueConflict(error, { firmware_secrets_firmware_label_key: { field: "label", message: "this firmware already has a password with this label" } });
    }
  });

  app.post(`${BASE}/password-storage/:id/reveal`, { config: admin, schema: { params: idParams } }, async (request) => {
    const { id } = request.params as { id: string };
    const caller = callerOf(request);
    const row = await ctx.db.transaction(async (tx) => {
      const [secret] = await tx.select().from(firmwareSecrets).where(eq(firmwareSecrets.id, id));
      if (!secret) throw notFound(`Stored password ${id}`);
      await tx.insert(secretReveals).values({ secretId: id, revealedBy: caller.uid });
      return secret;
    });
    request.log.info({ secretId: id, firmwareId: row.firmwareId, by: caller.uid }, "stored password revealed");
    return { ...mask(row), secret: ctx.secrets.open(row.secret) };
  });

  app.delete(`${BASE}/password-storage/:id`, { config: admin, schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const [deleted] = await ctx.db.delete(firmwareSecrets).where(eq(firmwareSecrets.id, id)).returning({ id: firmwareSecrets.id });
    if (!deleted) throw notFound(`Stored password ${id}`);
    return reply.status(204).send();
  });
}
