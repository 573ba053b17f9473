/** A car's tuning requests and the files exchanged on them, for whoever may see the car: its owner all, a dealer theirs. */
import type { FastifyInstance } from "fastify";
import { apiRoutes } from "../../../contracts/api-paths";
import { tuningRequestFilesSchema, tuningRequestPageSchema } from "../../../contracts/tuning-requests";
import type { AppContext } from "../../context";
import { callerOf } from "../../http/auth";
import { idParams } from "../../http/crud";
import { listQueryOf, runList } from "../../http/list";
import type { ZodTypeProvider } from "../../http/zod";
import { vehicleRequestFiles } from "../../services/tuning-requests/files";
import { vehicleRequestPageOf } from "../../services/tuning-requests/lists";
import { listSpec } from "./common";

export function registerVehicleRequestRoutes(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  /** A car's requests, for whoever may see the car: its owner all of them, a dealer theirs. */
  app.get(
    `/${apiRoutes.vehicles.tuningRequests(":id")}`,
    { config: { list: listSpec }, schema: { params: idParams, response: { 200: tuningRequestPageSchema } } },
    async (request) =>
      vehicleRequestPageOf(ctx, callerOf(request), request.params.id, (select, scope) =>
        runList(ctx.db, listSpec, listQueryOf(request, listSpec), select, scope),
      ),
  );

  /** Every file exchanged on the car's requests, with who sent it and when, newest first. */
  app.get(
    `/${apiRoutes.vehicles.tuningRequestFiles(":id")}`,
    { schema: { params: idParams, response: { 200: tuningRequestFilesSchema } } },
    async (request) => vehicleRequestFiles(ctx, callerOf(request), request.params.id),
  );
}
