import { describe, expect, it } from "vitest";
import { conversionFor } from "../../../../../../src/lib/log-units";
import {
  formatPanes,
  groupByUnit,
  openingPanes,
  parsePanes,
  variableOf,
} from "../../../../../../src/resources/data-logs/analysis/channels";

const channel = (id: string, name: string, unit: string) => ({ id, name, unit, min: 0, max: 1, mean: 0.5 });

describe("analysis view channels", () => {
  it("groups the picker by unit and searches names, units and ids", () => {
    const channels = [
      channel("rpm", "Engine speed", "rpm"),
      channel("boost", "Boost", "psi"),
      channel("map", "MAP", "psi"),
      channel("gear", "Gear", ""),
    ];
    expect(groupByUnit(channels, "").map((g) => [g.unit, g.channels.map((c) => c.id)])).toEqual([
      ["psi", ["boost", "map"]],
      ["rpm", ["rpm"]],
      ["", ["gear"]],
    ]);
    expect(groupByUnit(channels, "PSI").flatMap((g) => g.channels.map((c) => c.id))).toEqual(["boost", "map"]);
    expect(groupByUnit(channels, "speed").flatMap((g) => g.channels.map((c) => c.id))).toEqual(["rpm"]);
  });

  it("heads groups with the unit the channels are shown in, not the file's, and still finds them by the file's", () => {
    const channels = [
      channel("boost", "Boost", "BAR"),
      channel("map", "MAP", "psi"),
      channel("lambda", "Lambda", "LAMBDA"),
      channel("iat", "IAT", "F"),
    ];
    const display = (unit: string) => conversionFor(unit, { pressure: "psi", temperature: "°C", mixture: "AFR" }).unit;
    expect(groupByUnit(channels, "", display).map((g) => [g.unit, g.channels.map((c) => c.id)])).toEqual([
      ["°C", ["iat"]],
      ["AFR", ["lambda"]],
      ["psi", ["boost", "map"]],
    ]);
    expect(groupByUnit(channels, "bar", display).flatMap((g) => g.channels.map((c) => c.id))).toEqual(["boost"]);
  });

  it("reads and writes panes in the URL, dropping what the log does not have", () => {
    const known = new Set(["rpm", "boost", "afr-1"]);
    expect(parsePanes("rpm,boost;afr-1;nothing", known)).toEqual([["rpm", "boost"], ["afr-1"]]);
    expect(parsePanes(formatPanes([["rpm"], ["boost", "afr-1"]]), known)).toEqual([["rpm"], ["boost", "afr-1"]]);
    expect(parsePanes(Array(10).fill("rpm").join(";"), known)).toHaveLength(8);
    expect(parsePanes(null, known)).toEqual([]);
  });

  it("turns channel ids into expression variables", () => {
    expect(variableOf("boost-press")).toBe("boost_press");
    expect(variableOf("2step")).toBe("_2step");
  });
});

describe("openingPanes", () => {
  it("opens with the tuner's panes from the channels' roles, whatever their order in the file", () => {
    const channels = [
      channel("iat", "IAT", "°C"),
      channel("lambda", "Lambda", "λ"),
      channel("timing", "Ignition Timing", "deg"),
      channel("map", "MAP", "kPa"),
      channel("rpm", "Engine Speed", "rpm"),
    ];
    expect(openingPanes(channels)).toEqual([["rpm", "map"], ["timing"], ["lambda"]]);
  });

  it("lets the logger's own words count when the log says which logger wrote it", () => {
    // JB4 names its boost target "Target": a word only that logger gives the role.
    const channels = [
      channel("rpm", "RPM", "rpm"),
      channel("boost", "Boost", "psi"),
      channel("target", "Target", "psi"),
    ];
    expect(openingPanes(channels)).toEqual([["rpm", "boost"]]);
    expect(openingPanes(channels, "jb4")).toEqual([["rpm", "boost", "target"]]);
  });

  it("opens with the file's first four channels, one pane each, when no channel has a role", () => {
    const channels = ["a", "b", "c", "d", "e"].map((id) => channel(id, `Sensor ${id}`, "V"));
    expect(openingPanes(channels)).toEqual([["a"], ["b"], ["c"], ["d"]]);
  });
});
