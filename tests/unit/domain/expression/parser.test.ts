import { describe, expect, it } from "vitest";
import { ExpressionError, parseExpression } from "../../../../domain/expression";
import { thrownBy } from "../../support/thrown";

const errorOf = (run: () => unknown) => thrownBy(ExpressionError, run);

describe("expression syntax errors", () => {
  it("names an unexpected token with its position and length", () => {
    const error = errorOf(() => parseExpression("(X + 1))"));
    expect(error.message).toBe("Unexpected token ')' at 7");
    expect(error.position).toBe(7);
    expect(error.length).toBe(1);
  });

  it("reports an expression that ends too early", () => {
    expect(errorOf(() => parseExpression("X *")).message).toBe("Unexpected end of expression at 3");
    expect(errorOf(() => parseExpression("(X + 1")).message).toBe("Expected ')' but the expression ended at 6");
    expect(errorOf(() => parseExpression("")).message).toBe("Empty expression");
  });

  it("refuses characters and malformed numbers", () => {
    expect(errorOf(() => parseExpression("X $ 2")).message).toBe("Unexpected character '$' at 2");
    const number = errorOf(() => parseExpression("2x + 1"));
    expect(number.message).toBe("Invalid number '2x' at 0");
    expect(number.length).toBe(2);
    expect(errorOf(() => parseExpression("0x")).message).toBe("Invalid number '0x' at 0");
  });
});
