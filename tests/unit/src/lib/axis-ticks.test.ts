import { describe, expect, it } from "vitest";
import { axisTicks, TIME_TICK_STEPS, tickLabel, timeTickLabels } from "../../../../src/lib/axis-ticks";

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

describe("timeTickLabels, a log's time axis", () => {
  it("labels every tick in seconds, whatever the zoom, never in minutes", () => {
    expect(timeTickLabels([0, 50, 100, 150, 200])).toEqual(["0 s", "50 s", "100 s", "150 s", "200 s"]);
    expect(timeTickLabels([0, 100, 200, 300, 400, 500, 600, 700, 800])).not.toContain("3:20.0");
    expect(timeTickLabels([0, 100, 200])).toEqual(["0 s", "100 s", "200 s"]);
  });

  it("gives as many decimals as the step between ticks needs, with no drift", () => {
    expect(timeTickLabels([199.8, 199.9, 200, 200.1])).toEqual(["199.8 s", "199.9 s", "200.0 s", "200.1 s"]);
    expect(timeTickLabels([0, 0.02, 0.04, 0.06])).toEqual(["0.00 s", "0.02 s", "0.04 s", "0.06 s"]);
    expect(timeTickLabels([0.30000000000000004, 0.4])).toEqual(["0.3 s", "0.4 s"]);
  });

  it("steps by 1, 2 or 5 times a power of ten, from milliseconds to days of logging", () => {
    expect(TIME_TICK_STEPS).toContain(0.001);
    expect(
      TIME_TICK_STEPS.every((step) =>
        [1, 2, 5].includes(Number((step / 10 ** Math.floor(Math.log10(step) + 1e-9)).toPrecision(3))),
      ),
    ).toBe(true);
    expect(Math.max(...TIME_TICK_STEPS)).toBeGreaterThanOrEqual(100_000);
  });
});
