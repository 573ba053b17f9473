/**
 * The support matrix: one row per firmware, with what it has.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { apiPaths } from "../../../contracts/api-paths";
import { type FirmwareMatrixRow, firmwareMatrixPageSchema } from "../../../contracts/catalogue";
import type { AppContext } from "../../context";
import { firmwareSupport, obdFunctions, pidTemplates, supportedVehicles } from "../../db/schema";
import { listQueryOf, runList } from "../../http/list";
import type { ZodTypeProvider } from "../../http/zod";
import { admin } from "./common";
import { firmwareListSpec } from "./firmware-records";

export async function firmwareMatrixRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.get(
    `/${apiPaths["firmware-matrix"].list}`,
    { config: { ...admin, list: firmwareListSpec }, schema: { response: { 200: firmwareMatrixPageSchema } } },
    async (request) => {
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
    },
  );
}
