/** Layouts of the log chart: the caller's own, per logger. */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths } from "../../contracts/api-paths";
import {
  dataLogLayoutInputSchema,
  dataLogLayoutPageSchema,
  dataLogLayoutPatchSchema,
  dataLogLayoutQuerySchema,
  dataLogLayoutSchema,
} from "../../contracts/data-log-layouts";
import type { AppContext } from "../context";
import { callerOf } from "../http/auth";
import type { ZodTypeProvider } from "../http/zod";
import { addLayout, deleteLayout, layoutsOf, updateLayout } from "../services/data-log-layouts";

const idParams = z.strictObject({ id: z.uuid("id must be a UUID") });

const LIST = `/${apiPaths["data-log-layouts"].list}`;
const RECORD = `/${apiPaths["data-log-layouts"].record}/:id`;

export async function dataLogLayoutRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.get(
    LIST,
    { schema: { querystring: dataLogLayoutQuerySchema, response: { 200: dataLogLayoutPageSchema } } },
    async (request) => {
      const data = await layoutsOf(ctx.db, callerOf(request), request.query.format);
      return { data, total: data.length };
    },
  );

  app.post(
    LIST,
    { schema: { body: dataLogLayoutInputSchema, response: { 201: dataLogLayoutSchema } } },
    async (request, reply) => reply.status(201).send(await addLayout(ctx.db, callerOf(request), request.body)),
  );

  app.patch(
    RECORD,
    { schema: { params: idParams, body: dataLogLayoutPatchSchema, response: { 200: dataLogLayoutSchema } } },
    async (request) => updateLayout(ctx.db, callerOf(request), request.params.id, request.body),
  );

  app.delete(RECORD, { schema: { params: idParams } }, async (request, reply) => {
    await deleteLayout(ctx.db, callerOf(request), request.params.id);
    return reply.status(204).send();
  });
}
