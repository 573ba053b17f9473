/**
 * Supported vehicles: which cars run which firmware.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { apiPaths } from "../../../contracts/api-paths";
import {
  type SupportedVehicle,
  supportedVehicleInputSchema,
  supportedVehicleList,
  supportedVehicleSchema,
} from "../../../contracts/firmware-support";
import type { AppContext } from "../../context";
import { supportedVehicles } from "../../db/schema";
import { registerCrud } from "../../http/crud";
import type { ZodTypeProvider } from "../../http/zod";
import { lockFirmwareIds } from "../../services/firmware-support/references";
import { iso } from "./common";

export async function supportedVehicleRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const put = registerCrud(app, ctx, {
    label: "Supported vehicle",
    path: `/${apiPaths["supported-vehicles"].record}`,
    table: supportedVehicles,
    idColumn: supportedVehicles.id,
    input: supportedVehicleInputSchema,
    output: supportedVehicleSchema,
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
      defaultSort: [
        { field: "make", order: "asc" },
        { field: "model", order: "asc" },
      ],
    },
    async prepare(tx, input) {
      const { id: _id, ...values } = input;
      await lockFirmwareIds(tx, values.firmwareIds);
      return values;
    },
    toApi: ({ createdAt, updatedAt, ...row }): SupportedVehicle => ({
      ...row,
      createdAt: iso(createdAt)!,
      updatedAt: iso(updatedAt)!,
    }),
  });

  // Declared here, where the body's schema is concrete, so the handler gets its parsed type (see CrudPut).
  app.withTypeProvider<ZodTypeProvider>().put(put.path, put.options, put.handler);
}
