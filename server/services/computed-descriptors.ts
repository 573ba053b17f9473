/**
 * Computed descriptors' own checks and reads beyond the catalogue's CRUD: a descriptor's
 * expression must read only known channels and its variable must not be a PID descriptor's;
 * the expression editor completes channel variables by prefix.
 */
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ChannelVariable, computedDescriptorInputSchema } from "../../contracts/firmware-support";
import { validateExpression } from "../../domain/expression";
import type { Db, Tx } from "../db/handle";
import { computedDescriptors, pidDescriptors } from "../db/schema";
import { invalid } from "./errors";
import { expressionNames, knownChannelVariables } from "./firmware-support/references";

/** The row a PUT writes: the input without its id, with the variables its expression reads. */
export async function computedDescriptorValues(
  tx: Tx,
  input: z.output<typeof computedDescriptorInputSchema>,
  existingId: string | undefined,
) {
  const { id: _id, ...values } = input;
  const names = expressionNames(values.expression);
  if ("issue" in names) throw invalid("Invalid expression", names.issue.message, [names.issue]);
  const known = await knownChannelVariables(
    tx,
    names.names.filter((n) => n !== values.variable),
    existingId,
  );
  // The evaluator names the first unknown channel and where it is.
  const check = validateExpression(values.expression, known);
  if (!check.ok) throw invalid("Invalid expression", check.error.message, [{ path: "expression", ...check.error }]);
  const [pid] = await tx
    .select({ id: pidDescriptors.id })
    .from(pidDescriptors)
    .where(eq(pidDescriptors.variable, values.variable));
  if (pid)
    throw invalid("Invalid body", "a PID descriptor uses this variable", [
      { path: "variable", message: "a PID descriptor uses this variable" },
    ]);
  return { ...values, variables: [...check.variables] };
}

/** Channel variables (PID and computed) starting with `prefix`, at most 200 of each. */
export async function channelVariablesStartingWith(db: Db, prefix: string): Promise<ChannelVariable[]> {
  const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db.execute(sql`
      (SELECT variable, name, unit, min, max, 'pid' AS kind FROM ${pidDescriptors} WHERE variable LIKE ${like} ORDER BY variable LIMIT 200)
      UNION ALL
      (SELECT variable, name, unit, min, max, 'computed' AS kind FROM ${computedDescriptors} WHERE variable LIKE ${like} ORDER BY variable LIMIT 200)`);
  return (rows as unknown as { rows: ChannelVariable[] }).rows;
}
