/** The syntax tree the parser builds and the compiler walks. */

export type BinaryOperator = "+" | "-" | "*" | "/" | "%" | "^" | "<" | "<=" | ">" | ">=" | "==" | "!=" | "&&" | "||";

/** Every node keeps the span of the token that names it, so errors can point at it. */
export interface Span {
  position: number;
  length: number;
}

export type Expr =
  | (Span & { type: "number"; value: number })
  | (Span & { type: "variable"; name: string })
  | (Span & { type: "unary"; operator: "-" | "+" | "!"; argument: Expr })
  | (Span & { type: "binary"; operator: BinaryOperator; left: Expr; right: Expr })
  | (Span & { type: "conditional"; test: Expr; consequent: Expr; alternate: Expr })
  | (Span & { type: "call"; callee: string; args: Expr[] });
