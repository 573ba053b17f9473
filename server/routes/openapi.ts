import type { FastifyInstance } from "fastify";

/** The API's OpenAPI document, made from the routes as registered (server/http/openapi.ts). */
export async function openApiRoutes(app: FastifyInstance) {
  app.get("/openapi.json", { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
