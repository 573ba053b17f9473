/**
 * PID templates: named sets of PID descriptors to log together.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { apiPaths } from "../../../contracts/api-paths";
import {
  type PidTemplate,
  pidTemplateInputSchema,
  pidTemplateList,
  pidTemplateSchema,
} from "../../../contracts/firmware-support";
import type { AppContext } from "../../context";
import { pidTemplates } from "../../db/schema";
import { registerCrud } from "../../http/crud";
import type { ZodTypeProvider } from "../../http/zod";
import { lockDescriptorIds, lockFirmwareIds } from "../../services/firmware-support/references";
import { iso } from "./common";

export async function pidTemplateRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const put = registerCrud(app, ctx, {
    label: "PID template",
    path: `/${apiPaths["pid-templates"].record}`,
    table: pidTemplates,
    idColumn: pidTemplates.id,
    input: pidTemplateInputSchema,
    output: pidTemplateSchema,
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
      const { id: _id, ...values } = input;
      await lockFirmwareIds(tx, values.firmwareIds);
      await lockDescriptorIds(tx, values.descriptorIds);
      return values;
    },
    toApi: ({ createdAt, updatedAt, ...row }): PidTemplate => ({
      ...row,
      createdAt: iso(createdAt)!,
      updatedAt: iso(updatedAt)!,
    }),
    unique: { pid_templates_name_key: { field: "name", message: "another template has this name" } },
  });

  // Declared here, where the body's schema is concrete, so the handler gets its parsed type (see CrudPut).
  app.withTypeProvider<ZodTypeProvider>().put(put.path, put.options, put.handler);
}
