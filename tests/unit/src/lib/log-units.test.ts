import { describe, expect, it } from "vitest";
import { conversionFor, convert, DEFAULT_DISPLAY_UNITS, STOICH_AFR, unitFamily } from "../../../../src/lib/log-units";

describe("log display units", () => {
  it("recognises the spellings loggers use", () => {
    expect(["psi", "bar", "kPa", "kpa", "mbar"].map(unitFamily)).toEqual(Array(5).fill("pressure"));
    expect(["°C", "*C", "degF", "F"].map(unitFamily)).toEqual(Array(4).fill("temperature"));
    expect(["AFR", "λ", "lambda"].map(unitFamily)).toEqual(Array(3).fill("mixture"));
    expect(unitFamily("rpm")).toBeNull();
  });

  it("converts pressure, temperature and mixture to the chosen units", () => {
    const display = { pressure: "bar", temperature: "°F", mixture: "λ" } as const;
    expect(convert(14.5038, conversionFor("psi", display))).toBeCloseTo(1, 4);
    expect(convert(250, conversionFor("kPa", display))).toBeCloseTo(2.5, 9);
    expect(convert(100, conversionFor("°C", display))).toBeCloseTo(212, 9);
    expect(convert(-40, conversionFor("*C", display))).toBeCloseTo(-40, 9);
    expect(convert(STOICH_AFR, conversionFor("AFR", display))).toBeCloseTo(1, 9);
    expect(conversionFor("°F", display).unit).toBe("°F");
    expect(convert(32, conversionFor("°F", DEFAULT_DISPLAY_UNITS))).toBeCloseTo(0, 9);
    expect(convert(0.8, conversionFor("lambda", DEFAULT_DISPLAY_UNITS))).toBeCloseTo(11.76, 9);
  });

  it("leaves other units alone", () => {
    expect(conversionFor("rpm", DEFAULT_DISPLAY_UNITS)).toEqual({ unit: "rpm", scale: 1, offset: 0 });
  });
});
