import type { FastifyInstance } from "fastify";
import { type Health, healthSchema } from "../../contracts/health";
import type { AppContext } from "../context";
import type { ZodTypeProvider } from "../http/zod";

export async function healthRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  app.get(
    "/health",
    { config: { public: true }, schema: { response: { 200: healthSchema, 503: healthSchema } } },
    async (_request, reply) => {
      const ok = await ctx.database.ping();
      const body: Health = {
        status: ok ? "ok" : "degraded",
        version: ctx.config.version,
        database: { kind: ctx.database.kind, ok },
      };
      return reply.status(ok ? 200 : 503).send(body);
    },
  );
}
