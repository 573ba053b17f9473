import { describe, expect, it } from "vitest";
import { parseLoggerDate } from "../../../../domain/logs/dates";
import { parseHeaderCell, slugify, uniqueIds, uniquifyNames } from "../../../../domain/logs/headers";

describe("header cells", () => {
  it.each([
    ["Boost (psi)", { name: "Boost", unit: "psi" }],
    ["Boost[psi]", { name: "Boost", unit: "psi" }],
    ["(RAM) Boost[psi]", { name: "Boost", unit: "psi", prefix: "RAM" }],
    ["(BM3) Map Slot[]", { name: "Map Slot", unit: "", prefix: "BM3" }],
    ["Comb Mode ()", { name: "Comb Mode", unit: "" }],
    ["Gear (-)", { name: "Gear", unit: "" }],
    ["Coolant (*C)", { name: "Coolant", unit: "°C" }],
    ["Timing Cyl. 1 (*CRK)", { name: "Timing Cyl. 1", unit: "°CRK" }],
    ["Time(s)", { name: "Time", unit: "s" }],
    ["MAF Req (wgdc) (g/s)", { name: "MAF Req (wgdc)", unit: "g/s" }],
    ["O2 voltage (Bank 1  Sensor 1) (V)", { name: "O2 voltage (Bank 1 Sensor 1)", unit: "V" }],
    ["O2 lambda (Bank 2  Sensor 1)", { name: "O2 lambda (Bank 2 Sensor 1)", unit: "" }],
    ["Driver Requested Torque  (ft-lb)", { name: "Driver Requested Torque", unit: "ft-lb" }],
    ["Ignition (deg BTDC)", { name: "Ignition", unit: "deg BTDC" }],
    ["timestamp", { name: "timestamp", unit: "" }],
  ])("%s", (cell, expected) => {
    expect(parseHeaderCell(cell)).toEqual({ prefix: undefined, ...expected });
  });
});

describe("mis-decoded units", () => {
  it.each([
    ["Ignition Timing Corr. Cyl. 1[\u00ef\u00bf\u00bd]", "°"],
    ["Coolant (\u00c2\u00b0C)", "°C"],
    ["Coolant (\u00c3\u0082\u00c2\u00b0C)", "°C"],
    ["IAT[\ufffdC]", "°C"],
    ["Flow (m\u00c2\u00b3/h)", "m³/h"],
  ])("repairs %s to its unit %s, the UTF-8 read as Latin-1 and the replacement character for °", (cell, unit) => {
    expect(parseHeaderCell(cell).unit).toBe(unit);
  });

  it("keeps units that only look like it: real Latin-1 letters and text beyond Latin-1", () => {
    expect(parseHeaderCell("Temp (°C)").unit).toBe("°C");
    expect(parseHeaderCell("Druck (Â bar)").unit).toBe("Â bar");
    expect(parseHeaderCell("Lambda (λ)").unit).toBe("λ");
  });
});

describe("channel ids and names", () => {
  it("slugs names to URL-safe ids, keeping letters of other scripts", () => {
    expect(slugify("Ambient Air Temp.")).toBe("ambient-air-temp");
    expect(slugify("drivetrain/gearbox/state")).toBe("drivetrain-gearbox-state");
    expect(slugify("Kühlmittel")).toBe("kuhlmittel");
    expect(slugify("Давление наддува")).toBe("давление-наддува");
    expect(slugify("λ")).toBe("λ");
  });

  it("keeps ids unique when names slug alike or not at all", () => {
    expect(uniqueIds(["A/F", "A-F", "a f", "°", "%"])).toEqual(["a-f", "a-f-2", "a-f-3", "channel-4", "channel-5"]);
  });

  it("numbers repeated names and reports which were renamed", () => {
    expect(uniquifyNames(["MAP", "AFR", "MAP", "MAP #2", "map"])).toEqual({
      names: ["MAP", "AFR", "MAP #3", "MAP #2", "map #4"],
      renamed: [2, 4],
    });
  });
});

describe("logger dates", () => {
  it.each([
    ["05/05/2023 04:17:36.1827 PM", "2023-05-05T16:17:36.182"],
    ["12/31/2023 12:05:00 AM", "2023-12-31T00:05:00"],
    ["22.02.2014 17:47:01.046", "2014-02-22T17:47:01.046"],
    ["20250718 02:15:46", "2025-07-18T02:15:46"],
    ["Nov 9, 2025", "2025-11-09"],
    ["Sunday,11,October,2009,18:29:08", "2009-10-11T18:29:08"],
    ["2024-03-14T10:20:30", "2024-03-14T10:20:30"],
    ["2024-03-14", "2024-03-14"],
  ])("%s → %s", (input, iso) => {
    expect(parseLoggerDate(input)).toBe(iso);
  });

  it("refuses what is not a date", () => {
    expect(parseLoggerDate("8K0 907 551 A")).toBeUndefined();
    expect(parseLoggerDate("13/45/2020")).toBeUndefined();
  });
});
