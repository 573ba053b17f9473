/**
 * Flashing analytics for admins, read from the rollup `flash_stats_daily` (kept by a trigger on
 * flash_logs), so an answer over a year of a million sessions reads a few hundred thousand rows
 * at most rather than every session. The reads are services/analytics.ts; definitions
 * contracts/analytics.ts.
 */
import type { FastifyInstance } from "fastify";
import {
  analyticsFilterSchema,
  flashingOccurrencesSchema,
  flashingOvertimeSchema,
  flashingOverviewSchema,
  occurrencesQuerySchema,
  overtimeQuerySchema,
} from "../../contracts/analytics";
import { apiRoutes } from "../../contracts/api-paths";
import type { AppContext } from "../context";
import type { ZodTypeProvider } from "../http/zod";
import { flashingOccurrences, flashingOvertime, flashingOverview } from "../services/analytics";

const admin = { role: "admin" as const };

export async function analyticsRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.get(
    `/${apiRoutes.analytics.overview()}`,
    { config: admin, schema: { querystring: analyticsFilterSchema, response: { 200: flashingOverviewSchema } } },
    async (request) => flashingOverview(ctx.db, request.query),
  );

  app.get(
    "/analytics/flashing-occurences",
    { config: admin, schema: { querystring: occurrencesQuerySchema, response: { 200: flashingOccurrencesSchema } } },
    async (request) => flashingOccurrences(ctx.db, request.query),
  );

  app.get(
    `/${apiRoutes.analytics.overtime()}`,
    { config: admin, schema: { querystring: overtimeQuerySchema, response: { 200: flashingOvertimeSchema } } },
    async (request) => flashingOvertime(ctx.db, request.query),
  );
}
