/**
 * Flashing support of a firmware record: its flashing profile and blocks (checked against the
 * record's image) and the bootloader it needs, each written in one transaction with the audit
 * row the caller writes from the record before and after.
 */
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { flashingSupportInputSchema } from "../../contracts/firmware-support";
import { seedKeyAlgorithmIds } from "../../domain/flashing/seed-key";
import type { AppContext } from "../context";
import type { Db, Tx } from "../db/handle";
import { firmwareSupport } from "../db/schema";
import { invalid, notFound, Refusal } from "./errors";
import type { UploadedFile } from "./uploaded-file";

type FirmwareRow = typeof firmwareSupport.$inferSelect;

/** Writes the audit row of a change to a firmware record, in the change's transaction. */
export type FirmwareAudit = (tx: Tx, before: FirmwareRow, after: FirmwareRow) => Promise<void>;

/** Enables or disables flashing with its profile and blocks; enabling needs the stock file and a bootloader. */
export async function setFlashingSupport(
  db: Db,
  input: z.output<typeof flashingSupportInputSchema>,
  audit: FirmwareAudit,
): Promise<FirmwareRow> {
  if (input.profile && !seedKeyAlgorithmIds.includes(input.profile.seedKeyAlgorithm)) {
    const message = `unknown seed/key algorithm; the server knows ${seedKeyAlgorithmIds.join(", ")}`;
    throw invalid("Invalid body", message, [{ path: "profile.seedKeyAlgorithm", message }]);
  }
  return db.transaction(async (tx) => {
    const [record] = await tx
      .select()
      .from(firmwareSupport)
      .where(eq(firmwareSupport.firmwareId, input.firmwareId))
      .for("update");
    if (!record) throw notFound(`Firmware record ${input.firmwareId}`);
    input.blocks.forEach((block, i) => {
      if (block.fileOffset + block.length > record.imageSize) {
        throw invalid("Invalid body", `block "${block.name}" runs past the image size`, [
          {
            path: `blocks.${i}.length`,
            message: `block "${block.name}" runs past the image size ${record.imageSize}`,
          },
        ]);
      }
    });
    if (input.enabled && (!record.bootloaderSha256 || !record.stockSha256)) {
      throw new Refusal(
        "unprocessable",
        "Flashing not ready",
        "Enabling flashing needs a stock file and a bootloader uploaded first",
      );
    }
    const [updated] = await tx
      .update(firmwareSupport)
      .set({ flashingEnabled: input.enabled, flashing: input.profile, blocks: input.blocks, updatedAt: new Date() })
      .where(eq(firmwareSupport.id, record.id))
      .returning();
    await audit(tx, record, updated);
    return updated;
  });
}

/** Keeps the uploaded bootloader (its bytes adopted into the blob store) as the record's. */
export async function setBootloader(
  ctx: Pick<AppContext, "db" | "blobs">,
  id: string,
  file: UploadedFile,
  audit: FirmwareAudit,
): Promise<FirmwareRow> {
  if (file.size === 0) throw new Refusal("unprocessable", "Empty file", "The bootloader file is empty");
  const [exists] = await ctx.db
    .select({ id: firmwareSupport.id })
    .from(firmwareSupport)
    .where(eq(firmwareSupport.id, id));
  if (!exists) throw notFound(`Firmware record ${id}`);
  await ctx.blobs.adopt(file.path, file.sha256);
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(firmwareSupport).where(eq(firmwareSupport.id, id)).for("update");
    if (!current) throw notFound(`Firmware record ${id}`);
    const [updated] = await tx
      .update(firmwareSupport)
      .set({
        bootloaderSha256: file.sha256,
        bootloaderSize: file.size,
        bootloaderName: file.filename.slice(0, 200),
        updatedAt: new Date(),
      })
      .where(eq(firmwareSupport.id, id))
      .returning();
    await audit(tx, current, updated);
    return updated;
  });
}
