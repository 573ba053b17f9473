import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type ParsedLog, parseLog } from "../../../../domain/logs";
import { comparedUnit, matchChannels } from "../../../../domain/logs/compare";
import { FIXTURE_DIR } from "./support/fixtures";

const load = (name: string): ParsedLog => parseLog(new Uint8Array(readFileSync(path.join(FIXTURE_DIR, name))));

/** The matches by channel name, base → other. */
function byName(base: ParsedLog, other: ParsedLog): Record<string, string> {
  const matches = matchChannels(base, other);
  const name = (log: ParsedLog, id: string) => log.channels.find((channel) => channel.id === id)!.name;
  return Object.fromEntries([...matches].map(([a, b]) => [name(base, a), name(other, b)]));
}

describe("matching the channels of two loggers' logs", () => {
  const romraider = load("romraider-semicolon-decimal-comma.csv");

  it("finds engine speed, timing and mixture in a COBB log, and no boost: RomRaider's is absolute, COBB's relative", () => {
    expect(byName(romraider, load("ecuxplot-cobb-ap.csv"))).toEqual({
      "Timing Advance": "Ignition Timing Final",
      "PLX Engine Speed": "Engine Speed",
      "PLX O2 - Wideband": "AFR",
    });
  });

  it("reads ME7Logger's own names and JB4's short ones", () => {
    expect(byName(romraider, load("ecuxplot-me7l.csv"))).toEqual({
      "Timing Advance": "IgnitionTimingAngle",
      "PLX Engine Speed": "EngineSpeed",
      "PLX Manifold Absolute Pressure": "BoostPressureActual",
    });
    expect(byName(romraider, load("ecuxplot-jb4.csv"))).toEqual({
      "Timing Advance": "avg_ign",
      "PLX Engine Speed": "rpm",
      "PLX Manifold Absolute Pressure": "map",
      "PLX O2 - Wideband": "afr",
    });
  });

  it("matches a log with itself channel for channel", () => {
    const cobb = load("ecuxplot-cobb-ap.csv");
    const matches = matchChannels(cobb, cobb);
    expect([...matches].filter(([a, b]) => a !== b)).toEqual([]);
    expect(matches.size).toBe(cobb.channels.length);
  });

  it("falls back to the same name for channels with no role, and gives each other channel to one base channel", () => {
    const channel = (id: string, name: string, unit = "") => ({ id, name, unit });
    const matches = matchChannels(
      { channels: [channel("a", "Fan Duty", "%"), channel("b", "Engine RPM", "rpm"), channel("c", "RPM", "rpm")] },
      { channels: [channel("x", "fan_duty", "%"), channel("y", "Engine Speed", "rpm")] },
    );
    expect(Object.fromEntries(matches)).toEqual({ a: "x", b: "y" });
  });

  it("keeps cylinders apart: cylinder 2's correction is never matched with cylinder 1's", () => {
    const channel = (id: string, name: string) => ({ id, name, unit: "°" });
    const matches = matchChannels(
      { channels: [channel("k1", "Knock Retard Cyl 1"), channel("k2", "Knock Retard Cyl 2")] },
      { channels: [channel("r2", "IgnitionRetardCyl2")] },
    );
    expect(Object.fromEntries(matches)).toEqual({ k2: "r2" });
  });
});

describe("the unit a compared channel is read in", () => {
  const base = { id: "rpm", name: "Engine Speed", unit: "rpm" };

  it("takes this log's unit for an engine speed logged without one, and for the same unit in other case", () => {
    expect(comparedUnit(base, undefined, { id: "e", name: "engine/rpm", unit: "" })).toBe("rpm");
    expect(comparedUnit(base, undefined, { id: "e", name: "RPM", unit: "RPM" })).toBe("rpm");
  });

  it("keeps a pressure logged without a unit unitless: kPa, bar and psi are all written", () => {
    const boost = { id: "b", name: "Boost Pressure", unit: "psi" };
    expect(comparedUnit(boost, undefined, { id: "m", name: "boost", unit: "" })).toBe("");
    expect(comparedUnit(boost, undefined, { id: "m", name: "boost", unit: "kPa" })).toBe("kPa");
  });
});
