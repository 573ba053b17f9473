import { describe, expect, it } from "vitest";
import { matchingPull } from "../../../../../../src/resources/data-logs/analysis/dyno-pull-match";

describe("matchingPull", () => {
  const dyno = [
    { startTime: 10, endTime: 15 },
    { startTime: 30, endTime: 36 },
    { startTime: 36.5, endTime: 40 },
  ];

  it("picks the dyno pull sharing the most time with the chosen one", () => {
    expect(matchingPull(dyno, { startTime: 29.5, endTime: 37 })).toBe(1);
    expect(matchingPull(dyno, { startTime: 35, endTime: 41 })).toBe(2);
  });

  it("answers -1 when no dyno pull overlaps the chosen one", () => {
    expect(matchingPull(dyno, { startTime: 16, endTime: 29 })).toBe(-1);
  });
});
