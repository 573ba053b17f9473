/**
 * Flashing support of a firmware record: its flashing profile and blocks,
 * and the bootloader it needs.
 */
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { apiRoutes } from "../../../contracts/api-paths";
import { firmwareSupportSchema, flashingSupportInputSchema } from "../../../contracts/catalogue";
import { seedKeyAlgorithmIds } from "../../../domain/flashing/seed-key";
import type { AppContext } from "../../context";
import { firmwareSupport } from "../../db/schema";
import { badRequest, HttpError, notFound } from "../../errors";
import { idParams } from "../../http/crud";
import { requireFile, withUpload } from "../../http/uploads";
import type { ZodTypeProvider } from "../../http/zod";
import { admin } from "./common";
import { auditFirmwareChange, firmwareToApi } from "./firmware-records";

export async function flashingSupportRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.put(
    `/${apiRoutes.firmwareSupport.flashingSupport()}`,
    { config: admin, schema: { body: flashingSupportInputSchema, response: { 200: firmwareSupportSchema } } },
    async (request) => {
      const input = request.body;
      if (input.profile && !seedKeyAlgorithmIds.includes(input.profile.seedKeyAlgorithm)) {
        const message = `unknown seed/key algorithm; the server knows ${seedKeyAlgorithmIds.join(", ")}`;
        throw badRequest("Invalid body", message, [{ path: "profile.seedKeyAlgorithm", message }]);
      }
      const row = await ctx.db.transaction(async (tx) => {
        const [record] = await tx
          .select()
          .from(firmwareSupport)
          .where(eq(firmwareSupport.firmwareId, input.firmwareId))
          .for("update");
        if (!record) throw notFound(`Firmware record ${input.firmwareId}`);
        input.blocks.forEach((block, i) => {
          if (block.fileOffset + block.length > record.imageSize) {
            throw badRequest("Invalid body", `block "${block.name}" runs past the image size`, [
              {
                path: `blocks.${i}.length`,
                message: `block "${block.name}" runs past the image size ${record.imageSize}`,
              },
            ]);
          }
        });
        if (input.enabled && (!record.bootloaderSha256 || !record.stockSha256)) {
          throw new HttpError(
            422,
            "Flashing not ready",
            "Enabling flashing needs a stock file and a bootloader uploaded first",
          );
        }
        const [updated] = await tx
          .update(firmwareSupport)
          .set({ flashingEnabled: input.enabled, flashing: input.profile, blocks: input.blocks, updatedAt: new Date() })
          .where(eq(firmwareSupport.id, record.id))
          .returning();
        await auditFirmwareChange(tx, request, "firmware-support.flashing-changed", record, updated);
        return updated;
      });
      return firmwareToApi(row);
    },
  );

  app.post(
    `/${apiRoutes.firmwareSupport.bootloader(":id")}`,
    { config: admin, schema: { params: idParams, response: { 200: firmwareSupportSchema } } },
    async (request) => {
      const { id } = request.params;
      return withUpload(request, ctx, async (upload) => {
        const file = requireFile(upload);
        if (file.size === 0) throw new HttpError(422, "Empty file", "The bootloader file is empty");
        const [exists] = await ctx.db
          .select({ id: firmwareSupport.id })
          .from(firmwareSupport)
          .where(eq(firmwareSupport.id, id));
        if (!exists) throw notFound(`Firmware record ${id}`);
        await ctx.blobs.adopt(file.path, file.sha256);
        const row = await ctx.db.transaction(async (tx) => {
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
          await auditFirmwareChange(tx, request, "firmware-support.bootloader-uploaded", current, updated);
          return updated;
        });
        return firmwareToApi(row);
      });
    },
  );
}
