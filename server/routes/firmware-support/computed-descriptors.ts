/**
 * Computed descriptors: channels computed from others by an expression, and
 * the channel variables the expression editor completes.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import {
  type ComputedDescriptor,
  channelVariablesSchema,
  computedDescriptorInputSchema,
  computedDescriptorList,
  computedDescriptorSchema,
} from "../../../contracts/firmware-support";
import type { AppContext } from "../../context";
import { computedDescriptors } from "../../db/schema";
import { registerCrud } from "../../http/crud";
import type { ZodTypeProvider } from "../../http/zod";
import { channelVariablesStartingWith, computedDescriptorValues } from "../../services/computed-descriptors";
import { channelReferrers } from "../../services/firmware-support/references";
import { admin, iso } from "./common";

export async function computedDescriptorRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const put = registerCrud(plugin, ctx, {
    label: "Computed descriptor",
    path: `/${apiPaths["computed-descriptors"].record}`,
    listPath: `/${apiPaths["computed-descriptors"].list}`,
    table: computedDescriptors,
    idColumn: computedDescriptors.id,
    input: computedDescriptorInputSchema,
    output: computedDescriptorSchema,
    list: {
      table: computedDescriptors,
      id: computedDescriptors.id,
      allowed: computedDescriptorList,
      fields: {
        name: { column: computedDescriptors.name, kind: "text" },
        variable: { column: computedDescriptors.variable, kind: "text" },
        unit: { column: computedDescriptors.unit, kind: "text" },
        variables: { column: computedDescriptors.variables, kind: "array" },
        updatedAt: { column: computedDescriptors.updatedAt, kind: "timestamp" },
      },
      search: sql`(${computedDescriptors.name} || ' ' || ${computedDescriptors.variable} || ' ' || ${computedDescriptors.expression})`,
      defaultSort: [{ field: "name", order: "asc" }],
    },
    prepare: computedDescriptorValues,
    toApi: ({ createdAt, updatedAt, ...row }): ComputedDescriptor => ({
      ...row,
      createdAt: iso(createdAt)!,
      updatedAt: iso(updatedAt)!,
    }),
    referrers: (tx, row) => channelReferrers(tx, { variable: row.variable }),
    unique: {
      computed_descriptors_variable_key: {
        field: "variable",
        message: "another computed descriptor uses this variable",
      },
    },
  });
  // Declared here, where the body's schema is concrete, so the handler gets its parsed type (see CrudPut).
  app.put(put.path, put.options, put.handler);

  /** Channel variables for the expression editor's completion: PID and computed, by prefix. */
  app.get(
    `/${apiRoutes.firmwareSupport.channelVariables()}`,
    {
      config: admin,
      schema: {
        querystring: z.strictObject({ q: z.string().max(64).default("") }),
        response: { 200: channelVariablesSchema },
      },
    },
    async (request) => ({ data: await channelVariablesStartingWith(ctx.db, request.query.q) }),
  );
}
