/**
 * Firmware records: identification, checksums and definition per software
 * id, with the stock file each is checked against.
 */
import { readFile } from "node:fs/promises";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import {
  type FirmwareSupport,
  type FirmwareSupportRow,
  type FlashingProfile,
  firmwareSupportInputSchema,
  firmwareSupportList,
  firmwareSupportPageSchema,
  firmwareSupportSchema,
} from "../../../contracts/catalogue";
import type { ChecksumScheme, IdentifyRule } from "../../../contracts/tune-definition";
import { exportXdf, identifyMismatches } from "../../../domain/tune";
import { describeMismatches } from "../../../domain/tune/identify";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/handle";
import { firmwareSupport } from "../../db/schema";
import { HttpError, notFound } from "../../errors";
import { idParams, referencedConflict } from "../../http/crud";
import { type ListSpec, listQueryOf, runList } from "../../http/list";
import { requireFile, withUpload } from "../../http/uploads";
import type { ZodTypeProvider } from "../../http/zod";
import { actorFrom, changedFields, digestOf, writeAudit } from "../../services/audit";
import { firmwareReferrers } from "../../services/catalogue";
import { definitionOf, patchesForFirmware, patchOf } from "../../services/firmware-records";
import { verifyAll } from "../../services/tune-engine";
import { admin, BASE, iso } from "./common";

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

type FirmwareRow = typeof firmwareSupport.$inferSelect;

export function firmwareToApi(row: FirmwareRow): FirmwareSupport {
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
      bootloader: row.bootloaderSha256
        ? { sha256: row.bootloaderSha256, size: row.bootloaderSize!, name: row.bootloaderName ?? "" }
        : null,
    },
    stockFile: row.stockSha256
      ? { sha256: row.stockSha256, size: row.stockSize!, uploadedAt: iso(row.stockUploadedAt)! }
      : null,
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
  };
}

/** What the audit trail keeps of a record: its fields, the definition as its digest (it runs to megabytes), the files by hash. */
export function firmwareAudited(row: FirmwareRow): Record<string, unknown> {
  return {
    firmwareId: row.firmwareId,
    ecuFamily: row.ecuFamily,
    manufacturer: row.manufacturer,
    imageSize: row.imageSize,
    notes: row.notes,
    identify: row.identify,
    checksums: row.checksums,
    definition: digestOf(row.definition),
    flashingEnabled: row.flashingEnabled,
    flashing: row.flashing,
    blocks: row.blocks,
    bootloader: row.bootloaderSha256
      ? { sha256: row.bootloaderSha256, size: row.bootloaderSize, name: row.bootloaderName }
      : null,
    stockFile: row.stockSha256 ? { sha256: row.stockSha256, size: row.stockSize } : null,
  };
}

/** One audit row for a change of a firmware record: the fields that changed, before and after. */
export async function auditFirmwareChange(
  tx: Tx,
  request: Parameters<typeof actorFrom>[0],
  action: string,
  before: FirmwareRow,
  after: FirmwareRow,
): Promise<void> {
  await writeAudit(tx, actorFrom(request), {
    action,
    targetType: "firmware-support",
    targetId: after.id,
    ...changedFields(firmwareAudited(before), firmwareAudited(after)),
  });
}

function firmwareToListRow(row: FirmwareRow): FirmwareSupportRow {
  const { definition, checksums, identify, ...rest } = firmwareToApi(row);
  return {
    ...rest,
    hasDefinition: definition !== null,
    checksumCount: checksums.length,
    identifyCount: identify.length,
  };
}

/**
 * Why an image cannot be this firmware's stock file, or null when it can:
 * wrong size, an identify rule that does not match, or a checksum scheme that
 * does not verify (a scheme failing on the stock image means a wrong
 * definition, never something to "fix").
 */
function stockRefusal(
  image: Uint8Array,
  record: { imageSize: number; identify: IdentifyRule[]; checksums: ChecksumScheme[] },
): HttpError | null {
  if (image.length !== record.imageSize) {
    return new HttpError(
      422,
      "Wrong image size",
      `The file is ${image.length} bytes; this firmware's images are ${record.imageSize} bytes`,
      [{ check: "size", expected: record.imageSize, found: image.length }],
    );
  }
  const mismatches = identifyMismatches(image, record.identify);
  if (mismatches.length) {
    return new HttpError(
      422,
      "Not this firmware",
      `The identify rules do not match: ${describeMismatches(mismatches)}`,
      [{ check: "identify", mismatches }],
    );
  }
  const failing = verifyAll(image, record.checksums).filter((result) => !result.valid);
  if (failing.length) {
    const names = failing.map((result) => result.name);
    return new HttpError(
      422,
      "Checksum does not verify",
      `Checksum scheme ${names.map((n) => `"${n}"`).join(", ")} does not verify on this file`,
      [
        ...failing.map((result) => ({
          check: "checksum",
          scheme: result.name,
          type: result.type,
          stored: result.stored,
          computed: result.computed,
        })),
      ],
    );
  }
  return null;
}

async function lockedFirmware(tx: Tx, id: string): Promise<FirmwareRow> {
  const [row] = await tx.select().from(firmwareSupport).where(eq(firmwareSupport.id, id)).for("update");
  if (!row) throw notFound(`Firmware record ${id}`);
  return row;
}

export async function firmwareRecordRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.get(
    `/${apiPaths["firmware-support"].list}`,
    { config: { ...admin, list: firmwareListSpec }, schema: { response: { 200: firmwareSupportPageSchema } } },
    async (request) => {
      const query = listQueryOf(request, firmwareListSpec);
      const page = await runList(ctx.db, firmwareListSpec, query, ({ where, orderBy, limit, offset }) =>
        ctx.db
          .select()
          .from(firmwareSupport)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset),
      );
      return { ...page, data: page.data.map(firmwareToListRow) };
    },
  );

  app.get(
    `${RECORDS}/:id`,
    { config: admin, schema: { params: idParams, response: { 200: firmwareSupportSchema } } },
    async (request) => {
      const { id } = request.params;
      const [row] = await ctx.db.select().from(firmwareSupport).where(eq(firmwareSupport.id, id));
      if (!row) throw notFound(`Firmware record ${id}`);
      return firmwareToApi(row);
    },
  );

  /** Creates or updates by software id; a stored stock file must still pass the new rules. */
  app.put(
    `${RECORDS}`,
    {
      config: admin,
      schema: {
        body: firmwareSupportInputSchema,
        response: { 200: firmwareSupportSchema, 201: firmwareSupportSchema },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const { row, created } = await ctx.db.transaction(async (tx) => {
        const [existing] = await tx
          .select()
          .from(firmwareSupport)
          .where(eq(firmwareSupport.firmwareId, input.firmwareId))
          .for("update");
        if (existing?.stockSha256) {
          const refusal = stockRefusal(await ctx.blobs.read(existing.stockSha256), input);
          if (refusal) {
            throw new HttpError(
              422,
              refusal.message,
              `The stored stock file would no longer pass: ${refusal.description}`,
              refusal.data,
            );
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
          const [updated] = await tx
            .update(firmwareSupport)
            .set({ ...values, updatedAt: new Date() })
            .where(eq(firmwareSupport.id, existing.id))
            .returning();
          await auditFirmwareChange(tx, request, "firmware-support.updated", existing, updated);
          return { row: updated, created: false };
        }
        const [inserted] = await tx.insert(firmwareSupport).values(values).onConflictDoNothing().returning();
        // A concurrent PUT created it first: answer as the update the caller would have raced with.
        if (!inserted)
          throw new HttpError(
            409,
            "Conflict",
            `Firmware ${input.firmwareId} was created meanwhile; send the PUT again`,
          );
        await writeAudit(tx, actorFrom(request), {
          action: "firmware-support.created",
          targetType: "firmware-support",
          targetId: inserted.id,
          after: firmwareAudited(inserted),
        });
        return { row: inserted, created: true };
      });
      return reply.status(created ? 201 : 200).send(firmwareToApi(row));
    },
  );

  app.delete(`${RECORDS}/:id`, { config: admin, schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params;
    await ctx.db.transaction(async (tx) => {
      const row = await lockedFirmware(tx, id);
      const referrers = await firmwareReferrers(tx, row.firmwareId);
      if (referrers.length) throw referencedConflict(`Firmware ${row.firmwareId}`, referrers);
      await tx.delete(firmwareSupport).where(eq(firmwareSupport.id, id));
      await writeAudit(tx, actorFrom(request), {
        action: "firmware-support.deleted",
        targetType: "firmware-support",
        targetId: id,
        before: firmwareAudited(row),
      });
    });
    return reply.status(204).send();
  });

  app.post(
    `/${apiRoutes.firmwareSupport.stockFile(":id")}`,
    { config: admin, schema: { params: idParams, response: { 200: firmwareSupportSchema } } },
    async (request) => {
      const { id } = request.params;
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
        const row = await ctx.db.transaction(async (tx) => {
          const current = await lockedFirmware(tx, id);
          const [updated] = await tx
            .update(firmwareSupport)
            .set({ stockSha256: file.sha256, stockSize: file.size, stockUploadedAt: new Date(), updatedAt: new Date() })
            .where(eq(firmwareSupport.id, id))
            .returning();
          await auditFirmwareChange(tx, request, "firmware-support.stock-file-uploaded", current, updated);
          return updated;
        });
        return firmwareToApi(row);
      });
    },
  );

  app.get(`${BASE}/stock-file/:id`, { config: admin, schema: { params: idParams } }, async (request, reply) => {
    const { id } = request.params;
    const [row] = await ctx.db.select().from(firmwareSupport).where(eq(firmwareSupport.id, id));
    if (!row) throw notFound(`Firmware record ${id}`);
    if (!row.stockSha256) throw notFound(`A stock file for ${row.firmwareId}`);
    return reply
      .header("content-type", "application/octet-stream")
      .header("content-disposition", `attachment; filename="${row.firmwareId}-stock.bin"`)
      .header("x-content-sha256", row.stockSha256)
      .send(ctx.blobs.stream(row.stockSha256));
  });

  /** The record's definition (and its firmware's patches) as a TunerPro XDF, for tuners who work in TunerPro. */
  app.get(
    `/${apiRoutes.firmwareSupport.definitionXdf(":id")}`,
    { config: admin, schema: { params: idParams } },
    async (request, reply) => {
      const { id } = request.params;
      const [row] = await ctx.db.select().from(firmwareSupport).where(eq(firmwareSupport.id, id));
      if (!row) throw notFound(`Firmware record ${id}`);
      const definition = await definitionOf(ctx.db, row.firmwareId);
      if (!definition) throw notFound(`A definition for ${row.firmwareId}`);
      const patches = (await patchesForFirmware(ctx.db, row.firmwareId)).map(patchOf);
      return reply
        .header("content-type", "application/xml; charset=utf-8")
        .header("content-disposition", `attachment; filename="${row.firmwareId.replace(/[^A-Za-z0-9._-]/g, "_")}.xdf"`)
        .send(exportXdf(definition, { title: row.firmwareId, patches }));
    },
  );
}
