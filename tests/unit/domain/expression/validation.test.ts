import { describe, expect, it } from "vitest";
import { validateExpression } from "../../../../domain/expression";

describe("expression validation", () => {
  it("validates for forms without throwing", () => {
    expect(validateExpression("(map - amb_press) * 0.145", ["map", "amb_press"])).toEqual({
      ok: true,
      variables: ["map", "amb_press"],
    });
    expect(validateExpression("map * ", ["map"])).toEqual({
      ok: false,
      error: { message: "Unexpected end of expression at 6", position: 6, length: 1 },
    });
  });
});
