/**
 * The support matrix: one row per firmware, with what it has.
 */
import type { FastifyInstance } from "fastify";
import { apiPaths } from "../../../contracts/api-paths";
import { firmwareMatrixPageSchema } from "../../../contracts/firmware-support";
import type { AppContext } from "../../context";
import { listQueryOf, runList } from "../../http/list";
import type { ZodTypeProvider } from "../../http/zod";
import { firmwareMatrixPage } from "../../services/firmware-support/matrix";
import { admin } from "./common";
import { firmwareListSpec } from "./firmware-support";

export async function firmwareMatrixRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.get(
    `/${apiPaths["firmware-matrix"].list}`,
    { config: { ...admin, list: firmwareListSpec }, schema: { response: { 200: firmwareMatrixPageSchema } } },
    async (request) =>
      runList(ctx.db, firmwareListSpec, listQueryOf(request, firmwareListSpec), (parts) =>
        firmwareMatrixPage(ctx.db, parts),
      ),
  );
}
