/**
 * Firmware records as admins keep them: reading one, saving one by software id, deleting one
 * nothing refers to, and its stock file, which must pass the record's identify rules and checksum
 * schemes (checked again whenever the rules change). Each change is audited in its transaction.
 */
import { readFile } from "node:fs/promises";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type {
  FirmwareSupport,
  FirmwareSupportRow,
  FlashingProfile,
  firmwareSupportInputSchema,
} from "../../../contracts/firmware-support";
import type { ChecksumScheme, IdentifyRule } from "../../../contracts/tune-definition";
import { exportXdf, identifyMismatches } from "../../../domain/tune";
import { describeMismatches } from "../../../domain/tune/identify";
import type { AppContext } from "../../context";
import type { Db } from "../../db/connection";
import type { Tx } from "../../db/handle";
import { firmwareSupport } from "../../db/schema";
import { actorFrom, changedFields, digestOf, writeAudit } from "../audit";
import { notFound, Refusal } from "../errors";
import type { Lister } from "../list-pages";
import { stillUsed } from "../still-used";
import { verifyAll } from "../tune-engine";
import type { UploadedFile } from "../uploaded-file";
import { definitionOf, patchesForFirmware, patchOf } from "./reads";
import { firmwareReferrers } from "./references";

export type FirmwareRow = typeof firmwareSupport.$inferSelect;

/** Who asks, as the audit trail names them. */
type Asker = Parameters<typeof actorFrom>[0];

const iso = (value: Date | null) => value?.toISOString() ?? null;

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

/** A record as the list shows it: its definition, checksums and identify rules counted, not sent. */
function firmwareToListRow(row: FirmwareRow): FirmwareSupportRow {
  const { definition, checksums, identify, ...rest } = firmwareToApi(row);
  return {
    ...rest,
    hasDefinition: definition !== null,
    checksumCount: checksums.length,
    identifyCount: identify.length,
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
  request: Asker,
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

type StockRules = { imageSize: number; identify: IdentifyRule[]; checksums: ChecksumScheme[] };

/**
 * Why an image cannot be this firmware's stock file, or null when it can:
 * wrong size, an identify rule that does not match, or a checksum scheme that
 * does not verify (a scheme failing on the stock image means a wrong
 * definition, never something to "fix").
 */
function stockRefusal(image: Uint8Array, record: StockRules): Refusal | null {
  if (image.length !== record.imageSize) {
    return new Refusal(
      "unprocessable",
      "Wrong image size",
      `The file is ${image.length} bytes; this firmware's images are ${record.imageSize} bytes`,
      [{ check: "size", expected: record.imageSize, found: image.length }],
    );
  }
  const mismatches = identifyMismatches(image, record.identify);
  if (mismatches.length) {
    return new Refusal(
      "unprocessable",
      "Not this firmware",
      `The identify rules do not match: ${describeMismatches(mismatches)}`,
      [{ check: "identify", mismatches }],
    );
  }
  const failing = verifyAll(image, record.checksums).filter((result) => !result.valid);
  if (failing.length) {
    const names = failing.map((result) => result.name);
    return new Refusal(
      "unprocessable",
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

/** A page of records, as the list shows them. */
export async function firmwarePageOf<Page extends { data: FirmwareRow[] }>(db: Db, list: Lister<FirmwareRow, Page>) {
  const page = await list(({ where, orderBy, limit, offset }) =>
    db
      .select()
      .from(firmwareSupport)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset),
  );
  return { ...page, data: page.data.map(firmwareToListRow) };
}

/** One record by its row id. */
export async function firmwareRowOf(db: Db, id: string): Promise<FirmwareRow> {
  const [row] = await db.select().from(firmwareSupport).where(eq(firmwareSupport.id, id));
  if (!row) throw notFound(`Firmware record ${id}`);
  return row;
}

/** Creates or updates by software id; a stored stock file must still pass the new rules. */
export async function saveFirmwareRecord(
  ctx: AppContext,
  by: Asker,
  input: z.output<typeof firmwareSupportInputSchema>,
): Promise<{ row: FirmwareRow; created: boolean }> {
  return ctx.db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(firmwareSupport)
      .where(eq(firmwareSupport.firmwareId, input.firmwareId))
      .for("update");
    if (existing?.stockSha256) {
      const refusal = stockRefusal(await ctx.blobs.read(existing.stockSha256), input);
      if (refusal) {
        const message = `The stored stock file would no longer pass: ${refusal.message}`;
        throw new Refusal("unprocessable", refusal.title, message, refusal.data);
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
      await auditFirmwareChange(tx, by, "firmware-support.updated", existing, updated);
      return { row: updated, created: false };
    }
    const [inserted] = await tx.insert(firmwareSupport).values(values).onConflictDoNothing().returning();
    // A concurrent PUT created it first: answer as the update the caller would have raced with.
    if (!inserted)
      throw new Refusal(
        "conflict",
        "Conflict",
        `Firmware ${input.firmwareId} was created meanwhile; send the PUT again`,
      );
    await writeAudit(tx, actorFrom(by), {
      action: "firmware-support.created",
      targetType: "firmware-support",
      targetId: inserted.id,
      after: firmwareAudited(inserted),
    });
    return { row: inserted, created: true };
  });
}

/** Deletes a record nothing refers to any more. */
export async function deleteFirmwareRecord(db: Db, by: Asker, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockedFirmware(tx, id);
    const referrers = await firmwareReferrers(tx, row.firmwareId);
    if (referrers.length) throw stillUsed(`Firmware ${row.firmwareId}`, referrers);
    await tx.delete(firmwareSupport).where(eq(firmwareSupport.id, id));
    await writeAudit(tx, actorFrom(by), {
      action: "firmware-support.deleted",
      targetType: "firmware-support",
      targetId: id,
      before: firmwareAudited(row),
    });
  });
}

/** The uploaded file as the record's stock file, once it passes the record's rules (then adopted into the blob store). */
export async function storeStockFile(ctx: AppContext, by: Asker, id: string, file: UploadedFile) {
  const record = await firmwareRowOf(ctx.db, id);
  const refusal = stockRefusal(await readFile(file.path), {
    imageSize: record.imageSize,
    identify: record.identify as IdentifyRule[],
    checksums: record.checksums as ChecksumScheme[],
  });
  if (refusal) throw refusal;
  await ctx.blobs.adopt(file.path, file.sha256);
  return ctx.db.transaction(async (tx) => {
    const current = await lockedFirmware(tx, id);
    const [updated] = await tx
      .update(firmwareSupport)
      .set({ stockSha256: file.sha256, stockSize: file.size, stockUploadedAt: new Date(), updatedAt: new Date() })
      .where(eq(firmwareSupport.id, id))
      .returning();
    await auditFirmwareChange(tx, by, "firmware-support.stock-file-uploaded", current, updated);
    return updated;
  });
}

/** The record's stock file: its software id and blob. */
export async function stockFileOf(db: Db, id: string): Promise<{ firmwareId: string; sha256: string }> {
  const row = await firmwareRowOf(db, id);
  if (!row.stockSha256) throw notFound(`A stock file for ${row.firmwareId}`);
  return { firmwareId: row.firmwareId, sha256: row.stockSha256 };
}

/** The record's definition (and its firmware's patches) as a TunerPro XDF. */
export async function definitionXdfOf(db: Db, id: string): Promise<{ firmwareId: string; xdf: string }> {
  const row = await firmwareRowOf(db, id);
  const definition = await definitionOf(db, row.firmwareId);
  if (!definition) throw notFound(`A definition for ${row.firmwareId}`);
  const patches = (await patchesForFirmware(db, row.firmwareId)).map(patchOf);
  return { firmwareId: row.firmwareId, xdf: exportXdf(definition, { title: row.firmwareId, patches }) };
}
