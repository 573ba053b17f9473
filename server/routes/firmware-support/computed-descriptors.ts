/**
 * Computed descriptors: channels computed from others by an expression, and
 * the channel variables the expression editor completes.
 */
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import {
  type ChannelVariable,
  type ComputedDescriptor,
  channelVariablesSchema,
  computedDescriptorInputSchema,
  computedDescriptorList,
  computedDescriptorSchema,
} from "../../../contracts/catalogue";
import { validateExpression } from "../../../contracts/expression";
import type { AppContext } from "../../context";
import { computedDescriptors, pidDescriptors } from "../../db/schema";
import { badRequest } from "../../errors";
import { registerCrud } from "../../http/crud";
import type { ZodTypeProvider } from "../../http/zod";
import { channelReferrers, expressionNames, knownChannelVariables } from "../../services/catalogue";
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
    async prepare(tx, input, existingId) {
      const { id: _id, ...values } = input;
      const names = expressionNames(values.expression);
      if ("issue" in names) throw badRequest("Invalid expression", names.issue.message, [names.issue]);
      const known = await knownChannelVariables(
        tx,
        names.names.filter((n) => n !== values.variable),
        existingId,
      );
      // The evaluator names the first unknown channel and where it is.
      const check = validateExpression(values.expression, known);
      if (!check.ok)
        throw badRequest("Invalid expression", check.error.message, [{ path: "expression", ...check.error }]);
      const [pid] = await tx
        .select({ id: pidDescriptors.id })
        .from(pidDescriptors)
        .where(eq(pidDescriptors.variable, values.variable));
      if (pid)
        throw badRequest("Invalid body", "a PID descriptor uses this variable", [
          { path: "variable", message: "a PID descriptor uses this variable" },
        ]);
      return { ...values, variables: [...check.variables] };
    },
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
    async (request) => {
      const { q } = request.query;
      const prefix = `${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await ctx.db.execute(sql`
      (SELECT variable, name, unit, min, max, 'pid' AS kind FROM ${pidDescriptors} WHERE variable LIKE ${prefix} ORDER BY variable LIMIT 200)
      UNION ALL
      (SELECT variable, name, unit, min, max, 'computed' AS kind FROM ${computedDescriptors} WHERE variable LIKE ${prefix} ORDER BY variable LIMIT 200)`);
      return { data: (rows as unknown as { rows: ChannelVariable[] }).rows };
    },
  );
}
