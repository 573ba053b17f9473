/**
 * `GET /dashboard`: the live figures of the caller's dashboard, for the role their claims give
 * (computed in services/dashboard.ts; shapes in contracts/dashboard.ts).
 */
import type { FastifyInstance } from "fastify";
import { apiRoutes } from "../../contracts/api-paths";
import { type Dashboard, dashboardSchema } from "../../contracts/dashboard";
import type { AppContext } from "../context";
import { callerOf } from "../http/auth";
import type { ZodTypeProvider } from "../http/zod";
import { dashboardFor } from "../services/dashboard";

export async function dashboardRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.get(
    `/${apiRoutes.dashboard.mine()}`,
    { schema: { response: { 200: dashboardSchema } } },
    async (request): Promise<Dashboard> => dashboardFor(ctx, callerOf(request)),
  );
}
