/**
 * Importing a definition file (TunerPro XDF, RomRaider, EcuFlash, A2L) for a
 * firmware record: the preview (what was read and skipped, and a few maps
 * read from the stock file), then storing the patches the admin chose and,
 * when asked, the definition and the chosen checksum schemes that verify on
 * the stock file.
 */

import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { ChecksumScheme } from "../../contracts/tune-definition";
import type { definitionImportFieldsSchema, TuneFilePatch, XdfImported } from "../../contracts/tune-files";
import { decodeDefinitionFile, definitionOfFiles, importDefinition, sampleMaps } from "../../domain/tune";
import type { AppContext } from "../context";
import { firmwareSupport, tuneFilePatches } from "../db/schema";
import { type AuditActor, digestOf, writeAudit } from "./audit";
import { invalidFields } from "./errors";
import { firmwareRecord } from "./firmware-support/reads";
import { lockFirmwareIds } from "./firmware-support/references";
import { checkPatchAgainstFirmware } from "./patch-fit";
import { verifyAll } from "./tune-engine";
import { readImage } from "./tune-files";
import { patchToApi } from "./tune-responses";

/** Every field of the import but the files. */
export type DefinitionImportFields = z.output<typeof definitionImportFieldsSchema>;

/** A definition file as uploaded (its bytes, decoded here by its own encoding) or as text already. */
export type DefinitionUpload = { name: string; bytes: Uint8Array } | { name: string; text: string };

export interface ImportSaved {
  definition: boolean;
  checksums: string[];
  refusedChecksums: Array<{ name: string; reason: string }>;
}

/** The chosen elements of `list` by index or name, refusing one the file does not have with a field error. */
function chosen<T>(
  list: T[],
  wanted: Array<number | string> | undefined,
  field: string,
  key: (item: T, index: number) => number | string,
  what: string,
): T[] {
  if (wanted === undefined) return list;
  const issues = wanted.flatMap((w, i) =>
    list.some((item, index) => key(item, index) === w)
      ? []
      : [{ path: `${field}.${i}`, message: `the file has no ${what} ${JSON.stringify(w)}` }],
  );
  if (issues.length) throw invalidFields("body", issues);
  return list.filter((item, index) => wanted.includes(key(item, index)));
}

/**
 * The import of `files`: one definition file, a RomRaider/EcuFlash rom with the files of the roms it
 * inherits from (combined into one document), or an A2L with the files its `/include`s name.
 */
export async function runDefinitionImport(
  ctx: AppContext,
  body: DefinitionImportFields,
  files: readonly DefinitionUpload[],
  actor: AuditActor,
): Promise<XdfImported | (Omit<XdfImported, "patches"> & { patches: TuneFilePatch[]; saved: ImportSaved })> {
  const { db } = ctx;
  const record = await firmwareRecord(db, body.firmwareId);
  const stockImage = record.stockSha256 ? await readImage(ctx, record.stockSha256) : undefined;
  const { text, includes } = definitionOfFiles(
    files.map((file) => ({
      name: file.name,
      text: "text" in file ? file.text : decodeDefinitionFile(file.bytes).text,
    })),
  );
  const imported = importDefinition(text, {
    firmwareId: record.firmwareId,
    imageSize: record.imageSize,
    stockImage,
    ...(body.romId !== undefined && { romId: body.romId }),
    ...(body.addressOffset !== undefined && { addressOffset: body.addressOffset }),
    ...(includes && { includes }),
  });
  if (body.dryRun) return { ...imported, ...(stockImage && { samples: sampleMaps(imported.definition, stockImage) }) };

  const patches = chosen(imported.patches, body.patchIndexes, "patchIndexes", (_, i) => i, "patch");
  const schemes = body.saveDefinition
    ? chosen(imported.checksums, body.checksumNames, "checksumNames", (c) => c.name, "checksum scheme")
    : [];
  const saved: ImportSaved = { definition: false, checksums: [], refusedChecksums: [] };
  const rows = await db.transaction(async (tx) => {
    const stored = [];
    let replaced: { definition: string | null; checksums: string[] } | null = null;
    for (const patch of patches) {
      await checkPatchAgainstFirmware(ctx, tx, patch, `patches.${imported.patches.indexOf(patch)}`);
      const [row] = await tx
        .insert(tuneFilePatches)
        .values({
          title: patch.title,
          description: patch.description,
          firmwareIds: patch.firmwareIds,
          entries: patch.entries,
        })
        .returning();
      stored.push(patchToApi(row));
    }
    if (body.saveDefinition) {
      await lockFirmwareIds(tx, [record.firmwareId]);
      const [current] = await tx
        .select({ checksums: firmwareSupport.checksums, definition: firmwareSupport.definition })
        .from(firmwareSupport)
        .where(eq(firmwareSupport.firmwareId, record.firmwareId))
        .for("update");
      const checksums = [...((current?.checksums as ChecksumScheme[] | undefined) ?? [])];
      replaced = { definition: digestOf(current?.definition), checksums: checksums.map((scheme) => scheme.name) };
      for (const scheme of schemes) {
        if (checksums.some((c) => c.name === scheme.name)) {
          saved.refusedChecksums.push({
            name: scheme.name,
            reason: "the record already has a checksum scheme of that name",
          });
          continue;
        }
        const result = stockImage ? verifyAll(stockImage, [scheme])[0] : null;
        if (result && !result.valid) {
          saved.refusedChecksums.push({
            name: scheme.name,
            reason: `does not verify on the stock file (stored ${result.stored}, computed ${result.computed})`,
          });
          continue;
        }
        checksums.push(scheme);
        saved.checksums.push(scheme.name);
      }
      await tx
        .update(firmwareSupport)
        .set({ definition: imported.definition, checksums, updatedAt: new Date() })
        .where(eq(firmwareSupport.firmwareId, record.firmwareId));
      saved.definition = true;
    }
    // One row for the import: the patches it stored and, when saved, the definition and schemes it replaced.
    const [target] = await tx
      .select({ id: firmwareSupport.id })
      .from(firmwareSupport)
      .where(eq(firmwareSupport.firmwareId, record.firmwareId));
    await writeAudit(tx, actor, {
      action: "firmware-support.definition-imported",
      targetType: "firmware-support",
      targetId: target?.id ?? record.firmwareId,
      before: replaced,
      after: {
        patchIds: stored.map((patch) => patch.id),
        ...(replaced && { definition: digestOf(imported.definition), checksumsAdded: saved.checksums }),
      },
    });
    return stored;
  });
  return { ...imported, patches: rows, saved };
}
