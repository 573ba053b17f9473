import { describe, expect, it } from "vitest";
import { axisTicks, tickLabel } from "../../../../src/lib/axis-ticks";

describe("axisTicks", () => {
  it("steps by 1, 2 or 5 times a power of ten, inside the range", () => {
    expect(axisTicks(841, 6686, 6)).toEqual([1000, 2000, 3000, 4000, 5000, 6000]);
    expect(axisTicks(0.33, 2.01, 4)).toEqual([0.5, 1, 1.5, 2]);
    expect(axisTicks(0.1, 0.35, 5)).toEqual([0.1, 0.15, 0.2, 0.25, 0.3, 0.35]);
  });

  it("gives the one value of a flat range, and nothing for a range that is not a number", () => {
    expect(axisTicks(3, 3, 5)).toEqual([3]);
    expect(axisTicks(Number.NaN, 3, 5)).toEqual([]);
  });
});

describe("tickLabel", () => {
  it("prints as many decimals as the step needs", () => {
    expect(tickLabel(1000, [1000, 2000])).toBe("1000");
    expect(tickLabel(1.5, [0.5, 1, 1.5])).toBe("1.5");
    expect(tickLabel(0.15, [0.1, 0.15])).toBe("0.15");
  });
});
