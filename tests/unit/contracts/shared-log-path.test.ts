import { describe, expect, it } from "vitest";
import { parseSharedCompared, sharedLogPath } from "../../../contracts/data-logs";

describe("a share link's path", () => {
  it("carries the channels, and the compared logs with their offsets", () => {
    expect(sharedLogPath("tok")).toBe("/shared/logs/tok");
    expect(sharedLogPath("tok", ["engine-speed", "boost"])).toBe("/shared/logs/tok?channels=engine-speed,boost");
    expect(
      sharedLogPath(
        "tok",
        ["engine-speed"],
        [
          { token: "a_b-c", offset: 460.031 },
          { token: "d", offset: -2.5 },
        ],
      ),
    ).toBe("/shared/logs/tok?channels=engine-speed&compare=a_b-c:460.031,d:-2.5");
  });

  it("reads the compared logs back, leaving out entries without a token or a number", () => {
    const path = sharedLogPath("tok", [], [{ token: "a_b-c", offset: 460.031 }]);
    const param = new URL(path, "http://portal.test").searchParams.get("compare");
    expect(parseSharedCompared(param)).toEqual([{ token: "a_b-c", offset: 460.031 }]);
    expect(parseSharedCompared("x:1,:2,y:not-a-number,z,w:0")).toEqual([
      { token: "x", offset: 1 },
      { token: "w", offset: 0 },
    ]);
    expect(parseSharedCompared(null)).toEqual([]);
  });
});
