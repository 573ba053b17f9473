import { describe, expect, it } from "vitest";
import { parseLog } from "../../../../../../domain/logs";
import { pullChannels } from "../../../../../../src/resources/data-logs/analysis/pull-channels";
import { xyDefaults } from "../../../../../../src/resources/data-logs/analysis/xy-defaults";
import { fixture } from "../../../../domain/logs/support/fixtures";

describe("pullChannels", () => {
  it("reads the RomRaider log's engine speed, MAP as boost and wideband lambda, with no pedal or correction", () => {
    const log = parseLog(fixture("romraider-semicolon-decimal-comma.csv"));
    expect(pullChannels(log.channels, log.format)).toEqual({
      rpm: "plx-engine-speed",
      boost: "plx-manifold-absolute-pressure",
      mixture: { id: "plx-o2-wideband", kind: "lambda" },
      corrections: [],
    });
  });

  it("takes the pedal, throttle, gear, AFR and every cylinder's correction from a COBB log, cylinders first", () => {
    const log = parseLog(fixture("ecuxplot-cobb-ap.csv"));
    const roles = pullChannels(log.channels, log.format)!;
    expect(roles).toMatchObject({
      rpm: "engine-speed",
      pedal: "accel-pedal-position",
      throttle: "tps",
      gear: "current-gear",
      boost: "boost-press",
      mixture: { id: "afr", kind: "afr" },
    });
    const cylinders = roles.corrections.map((c) => c.cylinder);
    const firstEngineWide = cylinders.indexOf(undefined);
    expect(cylinders.slice(firstEngineWide < 0 ? cylinders.length : firstEngineWide)).not.toContain(expect.any(Number));
  });

  it("is null for a log without engine speed", () => {
    expect(pullChannels([{ id: "speed", name: "Vehicle speed", unit: "km/h", min: 0, max: 1, mean: 0 }])).toBeNull();
  });
});

describe("xyDefaults", () => {
  it("puts engine speed on X and boost on Y when the log has them", () => {
    const log = parseLog(fixture("romraider-semicolon-decimal-comma.csv"));
    expect(xyDefaults(log.channels, log.format)).toEqual({
      xId: "plx-engine-speed",
      yId: "plx-manifold-absolute-pressure",
    });
  });

  it("falls back to the first two channels when no role is found, and to nothing under two channels", () => {
    const channel = (id: string) => ({ id, name: id, unit: "", min: 0, max: 1, mean: 0 });
    expect(xyDefaults([channel("a"), channel("b")])).toEqual({ xId: "a", yId: "b" });
    expect(xyDefaults([channel("a")])).toBeNull();
  });
});
