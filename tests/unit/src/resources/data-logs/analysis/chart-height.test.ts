import { describe, expect, it } from "vitest";
import { chartHeight, paneHeight } from "../../../../../../src/resources/data-logs/analysis/chart-height";

describe("chartHeight", () => {
  it("on a phone leaves the chart all of the window but the header, the drawers' buttons, the range line and the overview strip", () => {
    // 390 × 844: the chart and its overview strip end at the window's foot.
    expect(chartHeight(844, true)).toBe(844 - 222);
  });

  it("on a desktop keeps the room of the toolbar's rows above the chart", () => {
    expect(chartHeight(1000, false)).toBe(1000 - 208);
  });

  it("never goes under a readable height, on a phone held sideways or a short desktop window", () => {
    expect(chartHeight(390, true)).toBe(240);
    expect(chartHeight(500, false)).toBe(360);
  });
});

describe("paneHeight", () => {
  it("shares the chart's height between its panes, in whole pixels", () => {
    expect(paneHeight(622, 4)).toBe(155);
    expect(paneHeight(622, 1)).toBe(622);
  });

  it("keeps a pane at least 110 px tall, the page growing instead", () => {
    expect(paneHeight(622, 8)).toBe(110);
  });

  it("takes no panes as one, as the chart's place is kept while the log loads", () => {
    expect(paneHeight(400, 0)).toBe(400);
  });
});
