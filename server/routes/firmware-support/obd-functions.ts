/**
 * OBD functions: the diagnostic routines offered per firmware.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { apiPaths } from "../../../contracts/api-paths";
import {
  type ObdFunction,
  obdFunctionInputSchema,
  obdFunctionList,
  obdFunctionSchema,
} from "../../../contracts/firmware-support";
import type { AppContext } from "../../context";
import { obdFunctions } from "../../db/schema";
import { registerCrud } from "../../http/crud";
import type { ZodTypeProvider } from "../../http/zod";
import { lockFirmwareIds } from "../../services/firmware-support/references";
import { iso } from "./common";

export async function obdFunctionRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const put = registerCrud(app, ctx, {
    label: "OBD function",
    path: `/${apiPaths["obd-functions"].record}`,
    table: obdFunctions,
    idColumn: obdFunctions.id,
    input: obdFunctionInputSchema,
    output: obdFunctionSchema,
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
      const { id: _id, ...values } = input;
      await lockFirmwareIds(tx, values.firmwareIds);
      return values;
    },
    toApi: ({ createdAt, updatedAt, ...row }): ObdFunction => ({
      ...row,
      createdAt: iso(createdAt)!,
      updatedAt: iso(updatedAt)!,
    }),
    unique: { obd_functions_name_key: { field: "name", message: "another OBD function has this name" } },
  });

  // Declared here, where the body's schema is concrete, so the handler gets its parsed type (see CrudPut).
  app.withTypeProvider<ZodTypeProvider>().put(put.path, put.options, put.handler);
}
