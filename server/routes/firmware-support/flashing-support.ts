/**
 * Flashing support of a firmware record: its flashing profile and blocks,
 * and the bootloader it needs.
 */

import type { FastifyInstance } from "fastify";
import { apiRoutes } from "../../../contracts/api-paths";
import { firmwareSupportSchema, flashingSupportInputSchema } from "../../../contracts/firmware-support";
import type { AppContext } from "../../context";
import { idParams } from "../../http/crud";
import { multipartBody } from "../../http/media";
import { requireFile, withUpload } from "../../http/uploads";
import type { ZodTypeProvider } from "../../http/zod";
import { setBootloader, setFlashingSupport } from "../../services/flashing-support";
import { admin } from "./common";
import { auditFirmwareChange, firmwareToApi } from "./firmware-support";

export async function flashingSupportRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.put(
    `/${apiRoutes.firmwareSupport.flashingSupport()}`,
    { config: admin, schema: { body: flashingSupportInputSchema, response: { 200: firmwareSupportSchema } } },
    async (request) => {
      const row = await setFlashingSupport(ctx.db, request.body, (tx, before, after) =>
        auditFirmwareChange(tx, request, "firmware-support.flashing-changed", before, after),
      );
      return firmwareToApi(row);
    },
  );

  app.post(
    `/${apiRoutes.firmwareSupport.bootloader(":id")}`,
    {
      config: { ...admin, media: multipartBody({ file: "The bootloader" }) },
      schema: { params: idParams, response: { 200: firmwareSupportSchema } },
    },
    async (request) =>
      withUpload(request, ctx, async (upload) => {
        const row = await setBootloader(ctx, request.params.id, requireFile(upload), (tx, before, after) =>
          auditFirmwareChange(tx, request, "firmware-support.bootloader-uploaded", before, after),
        );
        return firmwareToApi(row);
      }),
  );
}
