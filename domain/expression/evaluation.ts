/** A syntax tree compiled to closures, and the compiled expression that evaluates them per sample or per column. */
import { ExpressionError } from "./errors";
import { parseExpression } from "./parser";
import type { BinaryOperator, Expr, Span } from "./syntax-tree";

export type Scope = Readonly<Record<string, number>>;

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
