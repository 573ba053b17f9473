/** Tokens to a syntax tree: recursive descent, one function per precedence level. */
import { ExpressionError } from "./errors";
import type { BinaryOperator, Expr } from "./syntax-tree";
import { type Token, tokenize } from "./tokenizer";

class Parser {
  private index = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): Expr {
    if (this.peek().kind === "end") throw new ExpressionError("Empty expression", 0, 1);
    const expr = this.conditional();
    const next = this.peek();
    if (next.kind !== "end") throw unexpected(next);
    return expr;
  }

  private peek(): Token {
    return this.tokens[this.index];
  }

  private take(): Token {
    return this.tokens[this.index++];
  }

  private isOperator(...ops: string[]): boolean {
    const token = this.peek();
    return token.kind === "operator" && ops.includes(token.text);
  }

  private expect(op: string): Token {
    const token = this.peek();
    if (token.kind === "operator" && token.text === op) return this.take();
    if (token.kind === "end") {
      throw new ExpressionError(`Expected '${op}' but the expression ended at ${token.position}`, token.position, 1);
    }
    throw new ExpressionError(
      `Expected '${op}' but found '${token.text}' at ${token.position}`,
      token.position,
      token.text.length,
    );
  }

  private conditional(): Expr {
    const test = this.logicalOr();
    if (!this.isOperator("?")) return test;
    const question = this.take();
    const consequent = this.conditional();
    this.expect(":");
    const alternate = this.conditional();
    return { type: "conditional", test, consequent, alternate, position: question.position, length: 1 };
  }

  private binaryLevel(ops: BinaryOperator[], next: () => Expr): Expr {
    let left = next();
    while (this.isOperator(...ops)) {
      const token = this.take();
      const right = next();
      left = {
        type: "binary",
        operator: token.text as BinaryOperator,
        left,
        right,
        position: token.position,
        length: token.text.length,
      };
    }
    return left;
  }

  private logicalOr(): Expr {
    return this.binaryLevel(["||"], () => this.logicalAnd());
  }

  private logicalAnd(): Expr {
    return this.binaryLevel(["&&"], () => this.equality());
  }

  private equality(): Expr {
    return this.binaryLevel(["==", "!="], () => this.comparison());
  }

  private comparison(): Expr {
    return this.binaryLevel(["<", "<=", ">", ">="], () => this.additive());
  }

  private additive(): Expr {
    return this.binaryLevel(["+", "-"], () => this.multiplicative());
  }

  private multiplicative(): Expr {
    return this.binaryLevel(["*", "/", "%"], () => this.unary());
  }

  private unary(): Expr {
    if (this.isOperator("-", "+", "!")) {
      const token = this.take();
      const argument = this.unary();
      return { type: "unary", operator: token.text as "-" | "+" | "!", argument, position: token.position, length: 1 };
    }
    return this.power();
  }

  private power(): Expr {
    const base = this.primary();
    if (!this.isOperator("^")) return base;
    const token = this.take();
    // The exponent is parsed at unary level so that `2^-1` works and `2^3^2` nests to the right.
    const exponent = this.unary();
    return { type: "binary", operator: "^", left: base, right: exponent, position: token.position, length: 1 };
  }

  private primary(): Expr {
    const token = this.take();
    if (token.kind === "number") {
      return { type: "number", value: token.value, position: token.position, length: token.text.length };
    }
    if (token.kind === "identifier") {
      if (!this.isOperator("(")) {
        return { type: "variable", name: token.text, position: token.position, length: token.text.length };
      }
      this.take();
      const args: Expr[] = [];
      if (!this.isOperator(")")) {
        args.push(this.conditional());
        while (this.isOperator(",")) {
          this.take();
          args.push(this.conditional());
        }
      }
      this.expect(")");
      return { type: "call", callee: token.text, args, position: token.position, length: token.text.length };
    }
    if (token.kind === "operator" && token.text === "(") {
      const inner = this.conditional();
      this.expect(")");
      return inner;
    }
    throw unexpected(token);
  }
}

function unexpected(token: Token): ExpressionError {
  if (token.kind === "end") {
    return new ExpressionError(`Unexpected end of expression at ${token.position}`, token.position, 1);
  }
  return new ExpressionError(
    `Unexpected token '${token.text}' at ${token.position}`,
    token.position,
    token.text.length,
  );
}

/** Parses `src` into an AST; throws ExpressionError on a syntax error. */
export function parseExpression(src: string): Expr {
  return new Parser(tokenize(src)).parse();
}
