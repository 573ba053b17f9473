import { describe, expect, it } from "vitest";
import type { PaneSeries } from "../../../../../../src/resources/data-logs/analysis/pane-series";
import {
  axisTitle,
  idsOf,
  paneTitle,
  samePaneSeries,
} from "../../../../../../src/resources/data-logs/analysis/pane-series";

const points = { time: new Float64Array([0, 1]), values: new Float32Array([2, 3]) };
const series = (over: Partial<PaneSeries> = {}): PaneSeries => ({
  id: "rpm",
  label: "Engine speed",
  colour: "#123",
  conversion: { unit: "rpm", scale: 1, offset: 0 },
  points,
  ...over,
});

describe("samePaneSeries", () => {
  it("holds for new objects carrying the same points, colour and units", () => {
    expect(samePaneSeries([series()], [series({ conversion: { unit: "rpm", scale: 1, offset: 0 } })])).toBe(true);
  });

  it("fails for a pane never drawn", () => {
    expect(samePaneSeries(undefined, [series()])).toBe(false);
  });

  it("fails for other points, even equal ones, or none", () => {
    expect(samePaneSeries([series()], [series({ points: { time: points.time, values: points.values.slice() } })])).toBe(
      false,
    );
    expect(samePaneSeries([series({ points: undefined })], [series()])).toBe(false);
  });

  it("fails for another unit, scale, colour, channel or count", () => {
    expect(samePaneSeries([series()], [series({ conversion: { unit: "rpm", scale: 2, offset: 0 } })])).toBe(false);
    expect(samePaneSeries([series()], [series({ colour: "#456" })])).toBe(false);
    expect(samePaneSeries([series()], [series({ id: "speed" })])).toBe(false);
    expect(samePaneSeries([series()], [series(), series({ id: "speed" })])).toBe(false);
  });
});

describe("idsOf", () => {
  it("keys a pane by its channels in order", () => {
    expect(idsOf([series(), series({ id: "speed" })])).toBe("rpm,speed");
    expect(idsOf([series({ id: "speed" }), series()])).not.toBe(idsOf([series(), series({ id: "speed" })]));
  });
});

describe("paneTitle", () => {
  const boost = series({ id: "boost", label: "Boost", conversion: { unit: "psi", scale: 1, offset: 0 } });
  const target = series({ id: "target", label: "Boost target", conversion: { unit: "psi", scale: 1, offset: 0 } });
  const gear = series({ id: "gear", label: "Gear", conversion: { unit: "", scale: 1, offset: 0 } });

  it("names every channel of the pane, grouped by the unit each is shown in", () => {
    expect(paneTitle([series(), boost, target])).toBe("Engine speed (rpm) · Boost, Boost target (psi)");
  });

  it("leaves out the brackets of a channel with no unit", () => {
    expect(paneTitle([gear])).toBe("Gear");
  });

  it("titles one unit's axis by that unit's channels only", () => {
    expect(axisTitle([series(), boost, target], "psi")).toBe("Boost, Boost target (psi)");
  });
});
