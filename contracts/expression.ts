/**
 * Sandboxed arithmetic expressions, shared by the server and the browser.
 *
 * Used for map scaling (`X*0.01933677`, `(X-40)*0.75`) and for computed log
 * channels (`(map - amb_press) * 0.145`). Source text is tokenised, parsed into
 * a small AST and compiled to closures: nothing is ever handed to `eval` or
 * `new Function`, so a definition or a channel written by a user can only do
 * arithmetic.
 *
 * Semantics worth knowing:
 * - `^` is power and binds tighter than unary minus (`-2^2` is -4) and is
 *   right associative (`2^3^2` is 512).
 * - Comparisons give 1 or 0; `a ? b : c` takes `b` when `a` is neither 0 nor NaN.
 * - Arithmetic is IEEE-754: `1/0` is Infinity, `0/0` is NaN, never an error.
 * - `prev(name)` is the previous sample's value of a variable, NaN when there is none.
 */

export class ExpressionError extends Error {
  readonly position: number;
  readonly length: number;

  constructor(message: string, position: number, length: number) {
    super(message);
    this.name = "ExpressionError";
    this.position = position;
    this.length = Math.max(length, 1);
  }

  toJSON(): ExpressionErrorInfo {
    return { message: this.message, position: this.position, length: this.length };
  }
}

export interface ExpressionErrorInfo {
  message: string;
  /** 0-based character index of the offending text. */
  position: number;
  length: number;
}

export type BinaryOperator = "+" | "-" | "*" | "/" | "%" | "^" | "<" | "<=" | ">" | ">=" | "==" | "!=";

/** Every node keeps the span of the token that names it, so errors can point at it. */
interface Span {
  position: number;
  length: number;
}

export type Expr =
  | (Span & { type: "number"; value: number })
  | (Span & { type: "variable"; name: string })
  | (Span & { type: "unary"; operator: "-" | "+"; argument: Expr })
  | (Span & { type: "binary"; operator: BinaryOperator; left: Expr; right: Expr })
  | (Span & { type: "conditional"; test: Expr; consequent: Expr; alternate: Expr })
  | (Span & { type: "call"; callee: string; args: Expr[] });

export type Scope = Readonly<Record<string, number>>;

// ---------------------------------------------------------------------------
// Tokeniser

type Token =
  | { kind: "number"; text: string; value: number; position: number }
  | { kind: "identifier"; text: string; position: number }
  | { kind: "operator"; text: string; position: number }
  | { kind: "end"; text: ""; position: number };

const OPERATORS = ["<=", ">=", "==", "!=", "+", "-", "*", "/", "%", "^", "(", ")", ",", "?", ":", "<", ">"];
const NUMBER = /(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/y;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;
// A number glued to letters (`2x`, `0x`, `1e`) is a typo, not a product.
const NUMBER_TAIL = /[A-Za-z0-9_.]+/y;

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") {
      i++;
      continue;
    }
    if ((ch >= "0" && ch <= "9") || (ch === "." && /\d/.test(src[i + 1] ?? ""))) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(src);
      let text = match ? match[0] : ch;
      NUMBER_TAIL.lastIndex = i + text.length;
      const tail = NUMBER_TAIL.exec(src);
      if (tail) {
        text += tail[0];
        throw new ExpressionError(`Invalid number '${text}' at ${i}`, i, text.length);
      }
      const value = text.startsWith("0x") || text.startsWith("0X") ? parseInt(text.slice(2), 16) : Number(text);
      tokens.push({ kind: "number", text, value, position: i });
      i += text.length;
      continue;
    }
    IDENTIFIER.lastIndex = i;
    const identifier = IDENTIFIER.exec(src);
    if (identifier) {
      tokens.push({ kind: "identifier", text: identifier[0], position: i });
      i += identifier[0].length;
      continue;
    }
    const operator = OPERATORS.find((op) => src.startsWith(op, i));
    if (operator) {
      tokens.push({ kind: "operator", text: operator, position: i });
      i += operator.length;
      continue;
    }
    throw new ExpressionError(`Unexpected character '${ch}' at ${i}`, i, 1);
  }
  tokens.push({ kind: "end", text: "", position: src.length });
  return tokens;
}

// ---------------------------------------------------------------------------
// Parser (recursive descent, one function per precedence level)

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
    const test = this.equality();
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
    if (this.isOperator("-", "+")) {
      const token = this.take();
      const argument = this.unary();
      return { type: "unary", operator: token.text as "-" | "+", argument, position: token.position, length: 1 };
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

// ---------------------------------------------------------------------------
// Compiler: AST to closures

type Evaluator = (scope: Scope, prev: Scope | undefined) => number;

interface FunctionSpec {
  minArgs: number;
  maxArgs: number;
  unary?: (x: number) => number;
}

const FUNCTIONS: Record<string, FunctionSpec> = {
  min: { minArgs: 1, maxArgs: Infinity },
  max: { minArgs: 1, maxArgs: Infinity },
  abs: { minArgs: 1, maxArgs: 1, unary: Math.abs },
  sqrt: { minArgs: 1, maxArgs: 1, unary: Math.sqrt },
  exp: { minArgs: 1, maxArgs: 1, unary: Math.exp },
  log: { minArgs: 1, maxArgs: 1, unary: Math.log },
  log10: { minArgs: 1, maxArgs: 1, unary: Math.log10 },
  round: { minArgs: 1, maxArgs: 1, unary: Math.round },
  floor: { minArgs: 1, maxArgs: 1, unary: Math.floor },
  ceil: { minArgs: 1, maxArgs: 1, unary: Math.ceil },
  pow: { minArgs: 2, maxArgs: 2 },
  clamp: { minArgs: 3, maxArgs: 3 },
  prev: { minArgs: 1, maxArgs: 1 },
};

const BINARY: Record<BinaryOperator, (a: number, b: number) => number> = {
  "+": (a, b) => a + b,
  "-": (a, b) => a - b,
  "*": (a, b) => a * b,
  "/": (a, b) => a / b,
  "%": (a, b) => a % b,
  "^": (a, b) => a ** b,
  "<": (a, b) => (a < b ? 1 : 0),
  "<=": (a, b) => (a <= b ? 1 : 0),
  ">": (a, b) => (a > b ? 1 : 0),
  ">=": (a, b) => (a >= b ? 1 : 0),
  "==": (a, b) => (a === b ? 1 : 0),
  "!=": (a, b) => (a !== b ? 1 : 0),
};

/** A compiled node: `constant` is set when the subtree does not depend on any variable. */
interface Compiled {
  run: Evaluator;
  constant?: number;
}

function constant(value: number): Compiled {
  return { run: () => value, constant: value };
}

class Compiler {
  readonly variables: string[] = [];

  constructor(private readonly allowed: ReadonlySet<string> | undefined) {}

  private noteVariable(name: string, node: Span): void {
    if (this.allowed && !this.allowed.has(name)) {
      throw new ExpressionError(`Unknown variable '${name}' at ${node.position}`, node.position, node.length);
    }
    if (!this.variables.includes(name)) this.variables.push(name);
  }

  compile(node: Expr): Compiled {
    switch (node.type) {
      case "number":
        return constant(node.value);
      case "variable": {
        this.noteVariable(node.name, node);
        const { name, position, length } = node;
        return {
          run: (scope) => {
            const value = scope[name];
            // A typeof test rather than `=== undefined`: names like `constructor` would otherwise reach Object.prototype.
            if (typeof value !== "number")
              throw new ExpressionError(`Variable '${name}' has no value`, position, length);
            return value;
          },
        };
      }
      case "unary": {
        const argument = this.compile(node.argument);
        if (node.operator === "+") return argument;
        if (argument.constant !== undefined) return constant(-argument.constant);
        const run = argument.run;
        return { run: (s, p) => -run(s, p) };
      }
      case "binary":
        return this.binary(node.operator, this.compile(node.left), this.compile(node.right));
      case "conditional": {
        const test = this.compile(node.test);
        const consequent = this.compile(node.consequent);
        const alternate = this.compile(node.alternate);
        if (test.constant !== undefined) return test.constant ? consequent : alternate;
        const t = test.run;
        const c = consequent.run;
        const a = alternate.run;
        return { run: (s, p) => (t(s, p) ? c(s, p) : a(s, p)) };
      }
      case "call":
        return this.call(node);
    }
  }

  private binary(operator: BinaryOperator, left: Compiled, right: Compiled): Compiled {
    const op = BINARY[operator];
    if (left.constant !== undefined && right.constant !== undefined) return constant(op(left.constant, right.constant));
    const l = left.run;
    const r = right.run;
    // The four common scaling operators get their own closures: calling through `op`
    // costs a second indirect call per node, which shows on a million log samples.
    switch (operator) {
      case "+":
        return { run: (s, p) => l(s, p) + r(s, p) };
      case "-":
        return { run: (s, p) => l(s, p) - r(s, p) };
      case "*":
        return { run: (s, p) => l(s, p) * r(s, p) };
      case "/":
        return { run: (s, p) => l(s, p) / r(s, p) };
      default:
        return { run: (s, p) => op(l(s, p), r(s, p)) };
    }
  }

  private call(node: Extract<Expr, { type: "call" }>): Compiled {
    const spec = Object.hasOwn(FUNCTIONS, node.callee) ? FUNCTIONS[node.callee] : undefined;
    if (!spec) {
      throw new ExpressionError(`Unknown function '${node.callee}' at ${node.position}`, node.position, node.length);
    }
    const count = node.args.length;
    if (count < spec.minArgs || count > spec.maxArgs) {
      const expected =
        spec.maxArgs === Infinity
          ? `at least ${spec.minArgs} argument${spec.minArgs === 1 ? "" : "s"}`
          : `${spec.minArgs} argument${spec.minArgs === 1 ? "" : "s"}`;
      throw new ExpressionError(
        `Function '${node.callee}' expects ${expected}, got ${count} at ${node.position}`,
        node.position,
        node.length,
      );
    }
    if (node.callee === "prev") return this.prev(node.args[0]);

    const args = node.args.map((arg) => this.compile(arg));
    const runs = args.map((arg) => arg.run);
    const allConstant = args.every((arg) => arg.constant !== undefined);
    let run: Evaluator;
    if (spec.unary) {
      const f = spec.unary;
      const a = runs[0];
      run = (s, p) => f(a(s, p));
    } else if (node.callee === "pow") {
      const [a, b] = runs;
      run = (s, p) => a(s, p) ** b(s, p);
    } else if (node.callee === "clamp") {
      const [x, lo, hi] = runs;
      run = (s, p) => Math.min(Math.max(x(s, p), lo(s, p)), hi(s, p));
    } else {
      const pick = node.callee === "min" ? Math.min : Math.max;
      if (runs.length === 1) run = runs[0];
      else if (runs.length === 2) {
        const [a, b] = runs;
        run = (s, p) => pick(a(s, p), b(s, p));
      } else {
        run = (s, p) => {
          let result = runs[0](s, p);
          for (let i = 1; i < runs.length; i++) result = pick(result, runs[i](s, p));
          return result;
        };
      }
    }
    return allConstant ? constant(run({}, undefined)) : { run };
  }

  private prev(arg: Expr): Compiled {
    if (arg.type !== "variable") {
      throw new ExpressionError(`prev() takes a variable name at ${arg.position}`, arg.position, arg.length);
    }
    this.noteVariable(arg.name, arg);
    const name = arg.name;
    return {
      run: (_scope, prev) => {
        const value = prev?.[name];
        return typeof value === "number" ? value : NaN;
      },
    };
  }
}

export interface CompileOptions {
  /** When given, any other identifier is an error at compile time. */
  variables?: readonly string[];
}

export interface CompiledExpression {
  readonly source: string;
  /** Identifiers the expression reads (including those under prev()), in order of first use. */
  readonly variables: readonly string[];
  /** The value when the expression uses no variables, else undefined. */
  readonly constant: number | undefined;
  /** `prev` holds the previous sample's values for prev(); absent means "first sample". */
  evaluate(scope: Scope, prev?: Scope): number;
  /**
   * Evaluates one value per sample over equally long columns (a log's channels),
   * feeding prev() from the previous row. Every variable must have a column.
   */
  evaluateColumns(columns: Readonly<Record<string, ArrayLike<number>>>, length: number): Float64Array;
}

/** Parses and compiles `src`; throws ExpressionError for syntax, unknown names and argument counts. */
export function compileExpression(src: string, options: CompileOptions = {}): CompiledExpression {
  const ast = parseExpression(src);
  const compiler = new Compiler(options.variables ? new Set(options.variables) : undefined);
  const compiled = compiler.compile(ast);
  const variables = compiler.variables;
  const run = compiled.run;
  return {
    source: src,
    variables,
    constant: compiled.constant,
    evaluate: (scope, prev) => run(scope, prev),
    evaluateColumns(columns, length) {
      const sources = variables.map((name) => {
        const column = Object.hasOwn(columns, name) ? columns[name] : undefined;
        if (!column) throw new ExpressionError(`No column for variable '${name}'`, 0, src.length);
        if (column.length < length) {
          throw new ExpressionError(`Column '${name}' has ${column.length} values, expected ${length}`, 0, src.length);
        }
        return column;
      });
      const out = new Float64Array(length);
      // Two rows swap roles each sample so that no object is allocated per sample.
      let current: Record<string, number> = {};
      let previous: Record<string, number> = {};
      for (let i = 0; i < length; i++) {
        for (let v = 0; v < variables.length; v++) current[variables[v]] = sources[v][i];
        out[i] = run(current, i === 0 ? undefined : previous);
        const swap = previous;
        previous = current;
        current = swap;
      }
      return out;
    },
  };
}

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
