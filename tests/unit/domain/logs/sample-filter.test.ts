import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ExpressionError } from "../../../../domain/expression";
import { compileSampleFilter, keptCount } from "../../../../domain/logs/sample-filter";
import { thrownBy } from "../../support/thrown";

/** A channel's samples as a logger gives them: numbers in a small range, with gaps. */
const samples = (rows: number) =>
  fc.array(fc.oneof(fc.integer({ min: -5, max: 120 }), fc.constant(Number.NaN)), {
    minLength: rows,
    maxLength: rows,
  });

describe("sample filters", () => {
  it("keeps the rows a condition holds for, as a plain loop over the rows decides", () => {
    const throttle = new Float32Array([95, 95, 20, 100, NaN, 99]);
    const gear = new Float32Array([3, 2, 4, 5, 3, NaN]);
    const mask = compileSampleFilter("throttle > 90 && gear >= 3", ["throttle", "gear", "boost"]).mask(
      { throttle, gear },
      6,
    );
    expect([...mask]).toEqual([1, 0, 0, 1, 0, 0]);
    expect(keptCount(mask)).toBe(2);
  });

  it("does not keep a row where a channel the condition reads is a gap, even if it would pass", () => {
    // `a > 1 || b > 1` holds on row 0 through a alone; b is a gap there, so the row is unknown.
    const mask = compileSampleFilter("a > 1 || b > 1", ["a", "b"]).mask({ a: [5, 5], b: [NaN, 0] }, 2);
    expect([...mask]).toEqual([0, 1]);
  });

  it("agrees with a plain loop on any columns with gaps", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }).chain((rows) => fc.tuple(fc.constant(rows), samples(rows), samples(rows))),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 6 }),
        ([rows, a, b], limit, gear) => {
          const filter = compileSampleFilter(`a >= ${limit} && !(b < ${gear}) || a == -5`, ["a", "b"]);
          const expected = a.map((ai, i) => {
            const bi = b[i];
            if (Number.isNaN(ai) || Number.isNaN(bi)) return 0;
            return (ai >= limit && !(bi < gear)) || ai === -5 ? 1 : 0;
          });
          expect([...filter.mask({ a, b }, rows)]).toEqual(expected);
        },
      ),
    );
  });

  it("names an unknown channel variable and where it is", () => {
    const error = thrownBy(ExpressionError, () =>
      compileSampleFilter("throttle > 90 && gaer >= 3", ["throttle", "gear"]),
    );
    expect(error.message).toBe("Unknown variable 'gaer' at 17");
    expect(error.position).toBe(17);
  });

  it("names where a condition's syntax breaks", () => {
    const error = thrownBy(ExpressionError, () => compileSampleFilter("throttle > && gear", ["throttle", "gear"]));
    expect(error.message).toBe("Unexpected token '&&' at 11");
    expect(error.position).toBe(11);
  });

  it("refuses columns shorter than the rows asked for, naming the channel", () => {
    const filter = compileSampleFilter("a > 1", ["a"]);
    expect(thrownBy(ExpressionError, () => filter.mask({ a: [1, 2] }, 3)).message).toBe(
      "Column 'a' has 2 values, expected 3",
    );
  });
});
