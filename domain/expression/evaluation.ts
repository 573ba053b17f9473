/**
 * A syntax tree compiled to closures, and the compiled expression that evaluates them per sample or
 * per column. The closures take a row number and read their variables through a binding: one
 * reads a scope object (a single sample), the other reads the columns' typed arrays at that row,
 * so a million-row column costs no object writes or keyed lookups per sample.
 */
import { ExpressionError } from "./errors";
import { parseExpression } from "./parser";
import type { BinaryOperator, Expr, Span } from "./syntax-tree";

export type Scope = Readonly<Record<string, number>>;

type Evaluator = (row: number) => number;

/** Where variables are read from: the current and the previous sample of `name`. */
interface Binding {
  current(name: string, node: Span): Evaluator;
  previous(name: string): Evaluator;
}

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
  "&&": (a, b) => (a && b ? 1 : 0),
  "||": (a, b) => (a || b ? 1 : 0),
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

  constructor(
    private readonly allowed: ReadonlySet<string> | undefined,
    private readonly binding: Binding,
  ) {}

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
        return { run: this.binding.current(node.name, node) };
      }
      case "unary": {
        const argument = this.compile(node.argument);
        if (node.operator === "+") return argument;
        const run = argument.run;
        if (node.operator === "!") {
          if (argument.constant !== undefined) return constant(argument.constant ? 0 : 1);
          return { run: (i) => (run(i) ? 0 : 1) };
        }
        if (argument.constant !== undefined) return constant(-argument.constant);
        return { run: (i) => -run(i) };
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
        return { run: (i) => (t(i) ? c(i) : a(i)) };
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
    // Comparisons and the logical operators get theirs too, as filters over a log are made of them;
    // `&&` and `||` do not evaluate their right side when the left decides.
    switch (operator) {
      case "+":
        return { run: (i) => l(i) + r(i) };
      case "-":
        return { run: (i) => l(i) - r(i) };
      case "*":
        return { run: (i) => l(i) * r(i) };
      case "/":
        return { run: (i) => l(i) / r(i) };
      case "<":
        return { run: (i) => (l(i) < r(i) ? 1 : 0) };
      case "<=":
        return { run: (i) => (l(i) <= r(i) ? 1 : 0) };
      case ">":
        return { run: (i) => (l(i) > r(i) ? 1 : 0) };
      case ">=":
        return { run: (i) => (l(i) >= r(i) ? 1 : 0) };
      case "&&":
        return { run: (i) => (l(i) && r(i) ? 1 : 0) };
      case "||":
        return { run: (i) => (l(i) || r(i) ? 1 : 0) };
      default:
        return { run: (i) => op(l(i), r(i)) };
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
      run = (i) => f(a(i));
    } else if (node.callee === "pow") {
      const [a, b] = runs;
      run = (i) => a(i) ** b(i);
    } else if (node.callee === "clamp") {
      const [x, lo, hi] = runs;
      run = (i) => Math.min(Math.max(x(i), lo(i)), hi(i));
    } else {
      const pick = node.callee === "min" ? Math.min : Math.max;
      if (runs.length === 1) run = runs[0];
      else if (runs.length === 2) {
        const [a, b] = runs;
        run = (i) => pick(a(i), b(i));
      } else {
        run = (row) => {
          let result = runs[0](row);
          for (let k = 1; k < runs.length; k++) result = pick(result, runs[k](row));
          return result;
        };
      }
    }
    return allConstant ? constant(run(0)) : { run };
  }

  private prev(arg: Expr): Compiled {
    if (arg.type !== "variable") {
      throw new ExpressionError(`prev() takes a variable name at ${arg.position}`, arg.position, arg.length);
    }
    this.noteVariable(arg.name, arg);
    return { run: this.binding.previous(arg.name) };
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
  /**
   * The expression as a function of a row of equally long columns, for loops that want each row's
   * value without a column of results (a filter's mask). The columns are checked as evaluateColumns does.
   */
  bindColumns(columns: Readonly<Record<string, ArrayLike<number>>>, length: number): (row: number) => number;
}

/** Variables read from one sample's scope (and the previous sample's, for prev()). */
function scopeBinding(): { binding: Binding; set(scope: Scope, prev: Scope | undefined): void } {
  let current: Scope = {};
  let previous: Scope | undefined;
  return {
    set(scope, prev) {
      current = scope;
      previous = prev;
    },
    binding: {
      current:
        (name, { position, length }) =>
        () => {
          const value = current[name];
          // A typeof test rather than `=== undefined`: names like `constructor` would otherwise reach Object.prototype.
          if (typeof value !== "number") throw new ExpressionError(`Variable '${name}' has no value`, position, length);
          return value;
        },
      previous: (name) => () => {
        const value = previous?.[name];
        return typeof value === "number" ? value : NaN;
      },
    },
  };
}

/** Variables read from equally long columns at the row evaluated; prev() is NaN on the first row. */
function columnBinding(columns: ReadonlyMap<string, ArrayLike<number>>): Binding {
  const columnOf = (name: string) => columns.get(name) as ArrayLike<number>;
  return {
    current: (name) => {
      const column = columnOf(name);
      return (i) => column[i];
    },
    previous: (name) => {
      const column = columnOf(name);
      return (i) => (i > 0 ? column[i - 1] : NaN);
    },
  };
}

/** Parses and compiles `src`; throws ExpressionError for syntax, unknown names and argument counts. */
export function compileExpression(src: string, options: CompileOptions = {}): CompiledExpression {
  const ast = parseExpression(src);
  const allowed = options.variables ? new Set(options.variables) : undefined;
  const scope = scopeBinding();
  const compiler = new Compiler(allowed, scope.binding);
  const compiled = compiler.compile(ast);
  const variables = compiler.variables;
  const run = compiled.run;
  const bindColumns = (columns: Readonly<Record<string, ArrayLike<number>>>, length: number): Evaluator => {
    const sources = new Map<string, ArrayLike<number>>();
    for (const name of variables) {
      const column = Object.hasOwn(columns, name) ? columns[name] : undefined;
      if (!column) throw new ExpressionError(`No column for variable '${name}'`, 0, src.length);
      if (column.length < length) {
        throw new ExpressionError(`Column '${name}' has ${column.length} values, expected ${length}`, 0, src.length);
      }
      sources.set(name, column);
    }
    return new Compiler(allowed, columnBinding(sources)).compile(ast).run;
  };
  return {
    source: src,
    variables,
    constant: compiled.constant,
    evaluate: (values, prev) => {
      scope.set(values, prev);
      return run(0);
    },
    bindColumns,
    evaluateColumns(columns, length) {
      const row = bindColumns(columns, length);
      const out = new Float64Array(length);
      for (let i = 0; i < length; i++) out[i] = row(i);
      return out;
    },
  };
}
