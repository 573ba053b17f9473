import { describe, expect, it } from "vitest";
import { type LayoutChoice, layoutShown, panesIn } from "../../../../../../src/resources/data-logs/analysis/layouts";

const known = new Set(["rpm", "boost", "target", "timing"]);

describe("panesIn", () => {
  it("leaves out the channels the log has not, and the panes left empty", () => {
    expect(panesIn({ panes: [["rpm", "afr"], ["egt"], ["boost", "target"]] }, known)).toEqual([
      ["rpm"],
      ["boost", "target"],
    ]);
  });
});

describe("layoutShown", () => {
  const boost: LayoutChoice = { name: "Boost", panes: [["rpm"], ["boost", "target"]], source: "built-in" };
  const mine: LayoutChoice = { name: "Mine", panes: [["rpm"], ["boost", "target"]], source: "own", id: "1" };
  const timing: LayoutChoice = { name: "Timing", panes: [["rpm"], ["timing"], ["knock-1"]], source: "built-in" };

  it("names the user's own layout before a built-in one with the same panes", () => {
    expect(layoutShown([["rpm"], ["boost", "target"]], [boost, mine], known)?.name).toBe("Mine");
  });

  it("matches a layout as this log draws it: its channels the log lacks do not count", () => {
    expect(layoutShown([["rpm"], ["timing"]], [boost, timing], known)?.name).toBe("Timing");
  });

  it("names none when the order of panes or of their channels differs", () => {
    expect(layoutShown([["boost", "target"], ["rpm"]], [boost], known)).toBeUndefined();
    expect(layoutShown([["rpm"], ["target", "boost"]], [boost], known)).toBeUndefined();
  });
});
