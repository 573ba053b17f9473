/** A check that answers instead of throwing, for forms and schemas. */
import { ExpressionError, type ExpressionErrorInfo } from "./errors";
import { compileExpression } from "./evaluation";

export type ValidationResult = { ok: true; variables: readonly string[] } | { ok: false; error: ExpressionErrorInfo };

/** Form-friendly check: never throws for a bad expression. */
export function validateExpression(src: string, variables: readonly string[]): ValidationResult {
  try {
    return { ok: true, variables: compileExpression(src, { variables }).variables };
  } catch (error) {
    if (error instanceof ExpressionError) return { ok: false, error: error.toJSON() };
    throw error;
  }
}
