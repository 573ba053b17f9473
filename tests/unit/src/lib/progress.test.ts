import { describe, expect, it } from "vitest";

import { PROGRESS_DEFAULT_MAX, progressState } from "../../../../src/lib/progress";

describe("progress state", () => {
  it("is indeterminate without a value", () => {
    expect(progressState(null)).toEqual({ status: "indeterminate", value: null, max: 100, percent: null });
    expect(progressState(undefined).status).toBe("indeterminate");
  });

  it("is loading from 0 up to the maximum, which defaults to 100", () => {
    expect(PROGRESS_DEFAULT_MAX).toBe(100);
    expect(progressState(0)).toEqual({ status: "loading", value: 0, max: 100, percent: 0 });
    expect(progressState(99.5).status).toBe("loading");
  });

  it("is complete at the maximum", () => {
    expect(progressState(100).status).toBe("complete");
    expect(progressState(8, 8)).toEqual({ status: "complete", value: 8, max: 8, percent: 100 });
  });

  it("works out the percentage against a custom maximum", () => {
    expect(progressState(1, 4).percent).toBe(25);
  });

  it("throws for a value outside 0..max", () => {
    expect(() => progressState(-1)).toThrow(RangeError);
    expect(() => progressState(100.01)).toThrow(/between 0 and 100/);
    expect(() => progressState(5, 4)).toThrow(/between 0 and 4/);
    expect(() => progressState(Number.NaN)).toThrow(RangeError);
  });

  it("throws for a maximum that is not a positive number", () => {
    expect(() => progressState(0, 0)).toThrow(RangeError);
    expect(() => progressState(0, -5)).toThrow(RangeError);
    expect(() => progressState(0, Infinity)).toThrow(RangeError);
  });
});
