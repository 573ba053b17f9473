import { describe, expect, it } from "vitest";
import { derivative, samplesIn, smooth } from "../../../../domain/logs/signal";

describe("signal helpers", () => {
  it("smooths without letting gaps in", () => {
    expect([...smooth([1, 2, 3, NaN, 5], 1)]).toEqual([1.5, 2, 2.5, 4, 5]);
    expect([...smooth([1, 3], 5)]).toEqual([2, 2]);
    expect([...smooth([NaN, NaN, 4], 1)]).toEqual([NaN, 4, 4]);
  });

  it("takes central differences, one-sided at the ends", () => {
    expect([...derivative([0, 1, 2, 4], [0, 2, 4, 4])]).toEqual([2, 2, 2 / 3, 0]);
  });

  it("counts the samples in a span at the median interval", () => {
    // Steps of 0.1 s with one 5 s stop: the median is 0.1 s.
    expect(samplesIn([0, 0.1, 0.2, 5.2, 5.3, 5.4], 0.25)).toBe(3);
    expect(samplesIn([0], 0.25)).toBe(1);
  });
});
