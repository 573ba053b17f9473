import { describe, expect, it } from "vitest";
import { parseLog } from "../../../../../../domain/logs";
import { joinConditions, roleFilters } from "../../../../../../src/resources/data-logs/analysis/role-filters";
import { fixture } from "../../../../domain/logs/support/fixtures";

const filtersOf = (name: string) => {
  const log = parseLog(fixture(name));
  return Object.fromEntries(roleFilters(log.channels, log.format).map((filter) => [filter.label, filter.condition]));
};

describe("roleFilters, quick filters from the channels' roles", () => {
  it("writes a COBB log's filters in its own units: boost on a gauge in psi, coolant in °F", () => {
    expect(filtersOf("ecuxplot-cobb-ap.csv")).toEqual({
      "Wide open throttle": "accel_pedal_position >= 90",
      "In boost": "boost_press > 0",
      "Above 3,000 rpm": "engine_speed > 3000",
      "Warm engine": "coolant_temp >= 176",
    });
  });

  it("puts boost above the atmosphere for an absolute pressure, in the unit logged", () => {
    // ME7Logger logs the charge pressure absolute in mbar, RomRaider's PLX MAP sensor in bar.
    expect(filtersOf("ecuxplot-me7l.csv")["In boost"]).toBe("boostpressureactual > 1013");
    expect(filtersOf("ecuxplot-me7l.csv")["Warm engine"]).toBe("coolanttemperature >= 80");
    expect(filtersOf("romraider-semicolon-decimal-comma.csv")).toEqual({
      "In boost": "plx_manifold_absolute_pressure > 1.013",
      "Above 3,000 rpm": "plx_engine_speed > 3000",
    });
  });

  it("offers nothing for a log none of whose channels has those roles", () => {
    expect(filtersOf("bluedriver-utf16.csv")).toEqual({});
  });

  it("adds a quick filter to what the box holds, both to hold", () => {
    expect(joinConditions("", "rpm > 3000")).toBe("rpm > 3000");
    expect(joinConditions(" tps >= 90 || gear == 3 ", "rpm > 3000")).toBe("(tps >= 90 || gear == 3) && rpm > 3000");
  });
});
