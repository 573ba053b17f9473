import { describe, expect, it } from "vitest";
import { compileExpression, ExpressionError } from "../../../../domain/expression";
import { thrownBy } from "../../support/thrown";

const evaluate = (src: string, scope: Record<string, number> = {}, prev?: Record<string, number>) =>
  compileExpression(src).evaluate(scope, prev);

const errorOf = (run: () => unknown) => thrownBy(ExpressionError, run);

describe("expression evaluation", () => {
  it("applies map scalings of X", () => {
    expect(evaluate("X*0.01933677", { X: 1000 })).toBeCloseTo(19.33677, 10);
    expect(evaluate("X/100", { X: 250 })).toBe(2.5);
    expect(evaluate("(X-40)*0.75", { X: 100 })).toBe(45);
  });

  it("computes a derived log channel from several variables", () => {
    expect(evaluate("(map - amb_press) * 0.145", { map: 250, amb_press: 100 })).toBeCloseTo(21.75, 10);
  });

  it("reads decimal, exponent and hexadecimal numbers", () => {
    expect(evaluate("1e-3")).toBe(0.001);
    expect(evaluate("2.5E+2")).toBe(250);
    expect(evaluate(".5 + 0x1F")).toBe(31.5);
  });

  it("follows arithmetic precedence, with power right-associative and above unary minus", () => {
    expect(evaluate("1 + 2 * 3")).toBe(7);
    expect(evaluate("(1 + 2) * 3")).toBe(9);
    expect(evaluate("2 ^ 3 ^ 2")).toBe(512);
    expect(evaluate("-2 ^ 2")).toBe(-4);
    expect(evaluate("2 ^ -1")).toBe(0.5);
    expect(evaluate("10 - 4 - 3")).toBe(3);
    expect(evaluate("7 % 4")).toBe(3);
    expect(evaluate("+X", { X: 3 })).toBe(3);
  });

  it("gives 1 or 0 for comparisons and picks a ternary branch", () => {
    expect(evaluate("3 < 4")).toBe(1);
    expect(evaluate("3 >= 4")).toBe(0);
    expect(evaluate("2 == 2") + evaluate("2 != 2")).toBe(1);
    expect(evaluate("X > 100 ? 1 : X / 100", { X: 50 })).toBe(0.5);
    expect(evaluate("X > 100 ? 1 : X / 100", { X: 150 })).toBe(1);
    expect(evaluate("0 ? 1 : 0 ? 2 : 3")).toBe(3);
  });

  it("combines conditions with &&, || and !, giving 1 or 0 and taking NaN as false", () => {
    expect(evaluate("throttle > 90 && gear >= 3", { throttle: 95, gear: 3 })).toBe(1);
    expect(evaluate("throttle > 90 && gear >= 3", { throttle: 95, gear: 2 })).toBe(0);
    expect(evaluate("a || b", { a: 0, b: 7 })).toBe(1);
    expect(evaluate("a || b", { a: NaN, b: 0 })).toBe(0);
    expect(evaluate("!a", { a: 0 }) + evaluate("!a", { a: NaN }) + evaluate("!a", { a: 2 })).toBe(2);
    expect(evaluate("!(1 && 0)")).toBe(1);
  });

  it("binds && tighter than || and both looser than comparisons", () => {
    // As in C: `1 || 0 && 0` is `1 || (0 && 0)`, and `2 > 1 && 3 == 3` compares first.
    expect(evaluate("1 || 0 && 0")).toBe(1);
    expect(evaluate("(1 || 0) && 0")).toBe(0);
    expect(evaluate("2 > 1 && 3 == 3")).toBe(1);
    expect(evaluate("1 && 0 ? 5 : 6")).toBe(6);
  });

  it("does not evaluate the right side of && or || when the left decides", () => {
    // The right side names a variable the scope lacks: reading it would throw.
    expect(evaluate("0 && missing", { zero: 0 })).toBe(0);
    expect(evaluate("x && missing", { x: 0 })).toBe(0);
    expect(evaluate("x || missing", { x: 1 })).toBe(1);
  });

  it("provides the documented functions", () => {
    expect(evaluate("min(3, 1, 2)")).toBe(1);
    expect(evaluate("max(3, 1, 2, 9)")).toBe(9);
    expect(evaluate("abs(-4) + sqrt(16) + pow(2, 3)")).toBe(16);
    expect(evaluate("exp(0) + log(1) + log10(1000)")).toBe(4);
    expect(evaluate("round(2.5) + floor(2.7) + ceil(2.1)")).toBe(8);
    expect(evaluate("clamp(X, 0, 10)", { X: 42 })).toBe(10);
    expect(evaluate("clamp(X, 0, 10)", { X: -3 })).toBe(0);
  });

  it("follows IEEE-754 for division by zero instead of failing", () => {
    expect(evaluate("1 / 0")).toBe(Infinity);
    expect(evaluate("0 / 0")).toBeNaN();
  });

  it("reads the previous sample with prev(), NaN at the first sample", () => {
    const rate = compileExpression("X - prev(X)");
    expect(rate.evaluate({ X: 10 })).toBeNaN();
    expect(rate.evaluate({ X: 10 }, { X: 7 })).toBe(3);
  });

  it("evaluates columns sample by sample, feeding prev() from the row before", () => {
    const delta = compileExpression("(rpm - prev(rpm)) * k");
    const out = delta.evaluateColumns({ rpm: [1000, 1100, 1350], k: [2, 2, 2] }, 3);
    expect(Array.from(out)).toEqual([NaN, 200, 500]);
  });

  it("binds to columns as a function of the row, with prev() NaN on the first row", () => {
    const row = compileExpression("a > 1 && prev(a) < a").bindColumns({ a: new Float32Array([2, 1, 3]) }, 3);
    expect([row(0), row(1), row(2)]).toEqual([0, 0, 1]);
    expect(errorOf(() => compileExpression("a + b").bindColumns({ a: [1] }, 1)).message).toBe(
      "No column for variable 'b'",
    );
  });

  it("folds constant subexpressions and reports a constant expression", () => {
    expect(compileExpression("2 * (3 + 4)").constant).toBe(14);
    expect(compileExpression("X * (3 + 4)").constant).toBeUndefined();
  });

  it("lists the variables used, in order of first use, including those under prev()", () => {
    expect(compileExpression("a + b * a + prev(c)").variables).toEqual(["a", "b", "c"]);
  });

  it("refuses to evaluate with a variable missing from the scope, naming it", () => {
    const error = errorOf(() => evaluate("X + Y", { X: 1 }));
    expect(error.message).toContain("'Y'");
    expect(error.position).toBe(4);
  });

  it("cannot reach JavaScript: identifiers are only variables, calls only the listed functions", () => {
    expect(errorOf(() => compileExpression("constructor(1)")).message).toBe("Unknown function 'constructor' at 0");
    expect(errorOf(() => compileExpression("toString(1)")).message).toBe("Unknown function 'toString' at 0");
    expect(errorOf(() => evaluate("__proto__", {})).message).toContain("'__proto__'");
  });
});

describe("expression compile errors", () => {
  it("refuses unknown variables when the allowed ones are given", () => {
    const error = errorOf(() => compileExpression("(map - baro) * 0.145", { variables: ["map", "amb_press"] }));
    expect(error.message).toBe("Unknown variable 'baro' at 7");
    expect(error.position).toBe(7);
    expect(error.length).toBe(4);
  });

  it("refuses unknown functions and wrong argument counts", () => {
    expect(errorOf(() => compileExpression("foo(1)")).message).toBe("Unknown function 'foo' at 0");
    expect(errorOf(() => compileExpression("1 + clamp(X, 1)")).message).toBe(
      "Function 'clamp' expects 3 arguments, got 2 at 4",
    );
    expect(errorOf(() => compileExpression("min()")).message).toBe(
      "Function 'min' expects at least 1 argument, got 0 at 0",
    );
    expect(errorOf(() => compileExpression("prev(X + 1)")).message).toBe("prev() takes a variable name at 7");
  });
});
