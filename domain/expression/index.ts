/**
 * Sandboxed arithmetic expressions, shared by the server and the browser.
 *
 * Used for map scaling (`X*0.01933677`, `(X-40)*0.75`) and for computed log
 * channels (`(map - amb_press) * 0.145`). Source text is tokenised (./tokenizer),
 * parsed into a small AST (./parser, ./syntax-tree) and compiled to closures
 * (./evaluation, per sample or per row of columns; ./validation checks without throwing): nothing is ever handed to `eval` or
 * `new Function`, so a definition or a channel written by a user can only do
 * arithmetic.
 *
 * Semantics worth knowing:
 * - `^` is power and binds tighter than unary minus (`-2^2` is -4) and is
 *   right associative (`2^3^2` is 512).
 * - Comparisons give 1 or 0; `a ? b : c` takes `b` when `a` is neither 0 nor NaN.
 * - `&&`, `||` and `!` give 1 or 0 and likewise take 0 and NaN as false; the right side of `&&`
 *   and `||` is not evaluated when the left decides. They bind looser than comparisons, `&&`
 *   tighter than `||`, so `throttle > 90 && gear >= 3 || boost > 20` reads as in C.
 * - Arithmetic is IEEE-754: `1/0` is Infinity, `0/0` is NaN, never an error.
 * - `prev(name)` is the previous sample's value of a variable, NaN when there is none.
 */

export { ExpressionError, type ExpressionErrorInfo } from "./errors";
export { type CompiledExpression, type CompileOptions, compileExpression, type Scope } from "./evaluation";
export { parseExpression } from "./parser";
export type { BinaryOperator, Expr } from "./syntax-tree";
export { type ValidationResult, validateExpression } from "./validation";
