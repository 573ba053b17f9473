import type { FastifyInstance } from "fastify";
import type { Health } from "../../contracts/health";
import type { AppContext } from "../context";

export async function healthRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get("/health", { config: { public: true } }, async (_request, reply) => {
    const ok = await ctx.database.ping();
    const body: Health = {
      status: ok ? "ok" : "degraded",
      version: ctx.config.version,
      database: { kind: ctx.database.kind, ok },
    };
    return reply.status(ok ? 200 : 503).send(body);
  });
}
