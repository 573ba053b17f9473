import { expect } from "vitest";
import type { ParsedLog } from "../../../../domain/logs";
import { byName, checkRealFiles, type Expectation } from "./support/expectations";
import { fixture, fixtureNames } from "./support/fixtures";

/**
 * Every real logger file in ../shared/fixtures/logs. Row counts, names and values were read off
 * the files by hand (or with a separate script), not from the parser.
 */
const EXPECTED: Record<string, Expectation> = {
  "bluedriver-utf16.csv": {
    format: "bluedriver",
    rows: 145,
    channels: 4,
    named: [
      [0, "O2 Bank 1 - Sensor 2 - Oxygen Sensor Voltage", "V"],
      [1, "Long Term Secondary Oxygen Sensor Trim Bank 1", "%"],
      [3, "O2 Bank 2 - Sensor 2 Oxygen Sensor Voltage", "V"],
    ],
    values: [["O2 Bank 2 - Sensor 2 Oxygen Sensor Voltage", 0.534, 0.46]],
    duration: 57.6,
    check(log) {
      // The last row leaves three cells blank: gaps, not zeros.
      const { channel, column } = byName(log, "O2 Bank 1 - Sensor 2 - Oxygen Sensor Voltage");
      expect(channel.gaps).toBe(1);
      expect(column[144]).toBeNaN();
      expect(column[0]).toBeCloseTo(0.17, 6);
      expect(log.meta.startedAt).toBe("2025-11-09");
    },
  },
  "ecumaster.csv": {
    format: "ecumaster",
    rows: 20160,
    channels: 19,
    named: [
      [0, "drivetrain/gearbox/rpmMatchingRpmTarget", ""],
      [1, "engine/rpm", ""],
      [18, "dbw/target", ""],
    ],
    // Empty cells hold the last sample: tps1's last written value is 4.9.
    values: [
      ["engine/rpm", 1113, 0],
      ["sensors/tps1", 4.5, 4.9],
      ["ignition/angle", 10.9, 2],
    ],
    duration: 403.18,
    check(log) {
      const gear = byName(log, "sensors/gear");
      expect(gear.channel.gaps).toBe(2);
      expect(gear.column[2]).toBe(-3);
      expect(byName(log, "engine/rpm").channel.max).toBe(2581);
      expect(byName(log, "sensors/tps1").channel.min).toBeCloseTo(0.4, 6);
    },
  },
  "ecuxplot-cobb-ap.csv": {
    format: "cobb-accessport",
    rows: 3,
    channels: 48,
    named: [
      [0, "AFR", "AFR"],
      [13, "Driver Requested Torque", "ft-lb"],
      [47, "Vehicle Speed", "mph"],
    ],
    values: [
      ["AFR", 14.85, 15.14],
      ["Engine Speed", 672, 672],
    ],
    duration: 0.042,
    check(log) {
      expect(log.channels.some((c) => c.name.startsWith("AP Info"))).toBe(false);
      expect(log.meta).toMatchObject({
        device: "AP3-VLK-002",
        appVersion: "1.7.3.1-16762",
        tune: "EQT - IS38 93 1.06.ptm - TCM: STRATIFIED DSG TUNE V4.00 - Jeff Jones- ORDER 21113.ptm",
        extra: { vehicle: "USDM Volkswagen CCF Mk7 GTI (CXCA 5G09C0BB01)" },
      });
      expect(byName(log, "Brake Switch").channel.unit).toBe("");
    },
  },
  "ecuxplot-evoscan.csv": {
    format: "evoscan",
    rows: 6,
    channels: 4,
    named: [
      [0, "RPM", ""],
      [3, "IAT", ""],
    ],
    values: [
      ["RPM", 800, 1050],
      ["APP", 0, 25],
    ],
    duration: 0.5,
  },
  "ecuxplot-jb4.csv": {
    format: "jb4",
    rows: 3,
    channels: 36,
    named: [
      [0, "rpm", "rpm"],
      [3, "boost", "psi"],
      [35, "mph", "mph"],
    ],
    values: [
      ["rpm", 3228, 3200],
      ["afr", 14.1, 13.8],
      ["mph", 42.19607843, 41.83006536],
    ],
    // "timestamp" counts tenths of a second: 57.25 → 62.
    duration: 0.475,
    check(log) {
      expect(log.meta).toMatchObject({
        device: "JB4 Android A217",
        appVersion: "4/15//5",
        extra: { Engine: "F Series - ALL" },
      });
      expect(log.meta.vin).toBeUndefined();
      expect(log.meta.timeOffsetSeconds).toBeCloseTo(5.725, 9);
    },
  },
  "ecuxplot-me7l-semicolons.csv": {
    format: "me7logger",
    rows: 3,
    channels: 75,
    named: [
      [0, "IgnitionRetardCyl1", "°KW"],
      [7, "fldrrx_w", ""],
      [30, "EngineSpeed", "rpm"],
    ],
    values: [
      ["EngineSpeed", 2533, 2533.5],
      ["LambdaControl", 0.978791, 1.0029],
    ],
    duration: 0.1,
    check: checkMe7Meta,
  },
  "ecuxplot-me7l.csv": {
    format: "me7logger",
    rows: 3,
    channels: 75,
    named: [
      [0, "IgnitionRetardCyl1", "°KW"],
      [43, "EGTModelBeforeCat", "°C"],
      [74, "mizsolv_w", ""],
    ],
    values: [
      ["EngineSpeed", 2533, 2533.5],
      ["MassAirFlow", 24.4445, 23.7778],
    ],
    duration: 0.1,
    check: checkMe7Meta,
  },
  "ecuxplot-obdlink.csv": {
    format: "obdlink",
    rows: 7,
    channels: 22,
    named: [
      [0, "Vehicle speed", "MPH"],
      [15, "O2 voltage (Bank 1 Sensor 1)", "V"],
      [19, "O2 sensor lambda wide range (current probe) (Bank 1 Sensor 1)", ""],
      [21, "Input voltage read by the scan tool", "V"],
    ],
    values: [
      ["Engine RPM", 0, 758],
      ["Input voltage read by the scan tool", 0, 13.9],
    ],
    duration: 28.49,
    check(log) {
      expect(log.meta.startedAt).toBe("2023-05-05T16:17:36.182");
    },
  },
  "ecuxplot-simostools.csv": {
    format: "simostools",
    rows: 4,
    channels: 88,
    named: [
      [0, "Accel Long", "g"],
      [9, "Comb Mode", ""],
      [39, "Lambda", "λ"],
      [40, "Lambda SP", "λ"],
      [87, "nl 4", "V"],
    ],
    values: [["Engine Speed", 2089, 2093]],
    duration: 0.1,
    check(log) {
      expect(log.meta.timeOffsetSeconds).toBeCloseTo(610.678, 9);
      expect(log.meta).toMatchObject({
        device: "SimosTools",
        appVersion: "R1.74",
        tune: "IS48_FF_925MPI_HPAHPFP_RS3LPFP_4BPUT_5BMAP_FBO_V5",
        ecuIds: { partNumber: "5G0906259L", softwareVersion: "SC800S5000000" },
      });
      expect(log.channels.some((c) => c.name.startsWith("SimosTools"))).toBe(false);
    },
  },
  "ecuxplot-vcds.csv": {
    format: "vcds",
    rows: 3,
    channels: 12,
    named: [
      [0, "Vehicle speed", "km/h"],
      [2, "Engine Speed", "/min"],
      [6, "Intake air change-over; pressure", "hPa"],
      [8, "Accelerator position #2", "%"],
    ],
    values: [
      ["Engine Speed", 680, 1726],
      ["Engine torque", 34.40625, 96.78125],
    ],
    // The row's first TIME stamp (Group 23) is the row's time: 0.39 → 3.41.
    duration: 3.02,
    check(log) {
      expect(log.meta.startedAt).toBe("2009-10-11T18:29:08");
      expect(log.meta.ecuIds).toEqual({ partNumber: "8K0 907 551 A", component: "3.0T SIMOS84  H06 0001" });
      expect(log.warnings).toContain(
        'Duplicate column name "Accelerator position" on line 7: the repeat is shown as "Accelerator position #2".',
      );
    },
  },
  "ecuxplot-volvologger.csv": {
    format: "volvologger",
    rows: 6,
    channels: 4,
    named: [
      [0, "Engine Speed", "RPM"],
      [1, "Boost Pressure", "mBar"],
      [3, "Vehicle Speed", "kph"],
    ],
    values: [["Engine Speed", 800, 1050]],
    duration: 0.5,
  },
  "ecuxplot-winlog.csv": {
    format: "winlog",
    rows: 2,
    channels: 44,
    named: [
      [0, "logtime", ""],
      [1, "nmot_w", ""],
      [43, "gangi", ""],
    ],
    values: [
      ["nmot_w", 1706.75, 1703.75],
      ["logtime", 51, 100],
    ],
    duration: 0.06,
    check(log) {
      expect(log.meta).toMatchObject({ device: "WinLog 14point7", appVersion: "1.1" });
      expect(log.meta.timeOffsetSeconds).toBeCloseTo(87.07, 9);
    },
  },
  "ecuxplot-zeitronix.csv": {
    format: "zeitronix",
    rows: 6,
    channels: 9,
    named: [
      [0, "IAT", ""],
      [7, "MAP #2", ""],
      [8, "AFR #2", ""],
    ],
    values: [
      ["RPM", 1855.8, 1855.6],
      ["AFR #2", 15.3, 15.167],
    ],
    duration: 0.08,
    check(log) {
      expect(log.channels.map((c) => c.id)).toContain("map-2");
      expect(log.meta.timeOffsetSeconds).toBeCloseTo(10 * 3600 + 19 * 60 + 15.004, 6);
      expect(log.meta.extra.exportedAt).toBe("10/19/2025 3:16:20 PM");
    },
  },
  "haltech-nsp.csv": {
    format: "haltech-nsp",
    rows: 879,
    // 114 declared; "Undriven Wheel Speed" holds only the no-reading code and is left out.
    channels: 113,
    named: [
      [0, "Fuel Generic 1 Correction (Act Like A Carb)", "%"],
      [112, "Fuel - Load (MAP)", "kPa"],
    ],
    values: [
      ["RPM", 1225, 739],
      ["Coolant Temperature", 343.4 - 273.15, 343.7 - 273.15],
    ],
    duration: 17.56,
    check(log) {
      expect(log.meta.startedAt).toBe("2025-07-18T14:15:46.000");
      expect(log.meta).toMatchObject({ device: "Haltech NSP", appVersion: "999.999.999.999" });
      expect(byName(log, "RPM").channel.unit).toBe("rpm");
      expect(byName(log, "Wideband O2 Overall").channel.gaps).toBe(3);
      expect(log.channels.some((c) => c.name === "Undriven Wheel Speed")).toBe(false);
    },
  },
  "romraider-semicolon-decimal-comma.csv": {
    format: "romraider",
    rows: 4235,
    channels: 4,
    named: [
      [0, "Timing Advance", "degrees"],
      [1, "PLX Engine Speed", "rpm"],
      [2, "PLX Manifold Absolute Pressure", "bar"],
      [3, "PLX O2 - Wideband", "Lambda"],
    ],
    values: [
      ["PLX Manifold Absolute Pressure", 0.38, 0.37],
      ["PLX O2 - Wideband", 0.98, 0.98],
    ],
    duration: 827.203,
    check(log) {
      expect(byName(log, "PLX Engine Speed").channel.max).toBe(6686);
      expect(byName(log, "PLX O2 - Wideband").channel.min).toBeCloseTo(0.68, 6);
    },
  },
};

function checkMe7Meta(log: ParsedLog): void {
  expect(log.meta).toMatchObject({
    device: "ME7-Logger",
    appVersion: "1.20",
    startedAt: "2014-02-22T17:47:01.046",
    ecuIds: { HWNumber: "0261207143", SWNumber: "1037360857", PartNumber: "8D0907551M", EngineId: "2.7l V6/5VT" },
    extra: { "Logging with": "20 samples/second" },
  });
}

checkRealFiles("real logger fixtures", EXPECTED, fixtureNames, (name) => new Uint8Array(fixture(name)));
