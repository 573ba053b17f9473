/**
 * Sample filters: a condition in the computed channels' expression language over a log's channel
 * variables (`throttle > 90 && gear >= 3`), turned into a mask with 1 for each row kept. A row
 * where a channel the condition reads is a gap (NaN) is not kept: nothing is known of it.
 */
import { type CompiledExpression, compileExpression } from "../expression";

export interface SampleFilter {
  readonly condition: string;
  /** The channel variables the condition reads, in order of first use. */
  readonly variables: readonly string[];
  /** 1 for each of the `rows` rows the condition keeps, else 0. */
  mask(columns: Readonly<Record<string, ArrayLike<number>>>, rows: number): Uint8Array;
}

/**
 * Compiles a condition over the given channel variables; an unknown variable or a syntax error
 * throws the expression module's ExpressionError, which names it and its position.
 */
export function compileSampleFilter(condition: string, variables: readonly string[]): SampleFilter {
  const compiled = compileExpression(condition, { variables });
  return {
    condition,
    variables: compiled.variables,
    mask: (columns, rows) => maskOf(compiled, columns, rows),
  };
}

function maskOf(
  compiled: CompiledExpression,
  columns: Readonly<Record<string, ArrayLike<number>>>,
  rows: number,
): Uint8Array {
  const value = compiled.bindColumns(columns, rows);
  const used = compiled.variables.map((name) => columns[name]);
  const mask = new Uint8Array(rows);
  for (let i = 0; i < rows; i++) {
    // 0 and NaN are false, as the expression language's own conditions take them.
    if (!value(i)) continue;
    let known = 1;
    for (let k = 0; k < used.length; k++) if (Number.isNaN(used[k][i])) known = 0;
    mask[i] = known;
  }
  return mask;
}

/** How many rows a mask keeps. */
export function keptCount(mask: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < mask.length; i++) count += mask[i];
  return count;
}
