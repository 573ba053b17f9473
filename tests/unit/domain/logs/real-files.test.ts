import { describe, expect, it } from "vitest";
import { parseLog } from "../../../../domain/logs";
import { byName, checkRealFiles, type Expectation } from "./support/expectations";
import { fixture, fixtureNames, moreFixture, moreFixtureNames } from "./support/fixtures";

/**
 * Real files from ../shared/fixtures/more-logs, in layouts the first suite did not cover. Every
 * expected value was read off the raw file by hand (head, tail, awk for cell counts; a separate
 * Python struct reading for the .mlg), not from the parser.
 */
const EXPECTED: Record<string, Expectation> = {
  // Header: Time, 57 channels, then "bootmod3_2.00.012_unknown" and a log id (60 cells); rows 58 values and a trailing comma.
  "bootmod3-b58.csv": {
    format: "bootmod3",
    rows: 12,
    channels: 57,
    named: [
      [0, "Accel. Pedal", "%"],
      [6, "Engine speed", "1/min"],
      [30, "Flex Ethanol %", "%"],
      [56, "Torque at Clutch (Target)", "Nm"],
    ],
    values: [
      ["Engine speed", 2302, 3044],
      ["Accel. Pedal", 20, 99],
    ],
    duration: 1.489,
    check(log) {
      expect(log.meta.device).toBe("bootmod3");
      expect(log.meta.appVersion).toBe("2.00.012");
      expect(log.meta.extra.logId).toBe("67f556e1292c3f48ff6da8f5");
      expect(log.channels.some((c) => /bootmod3_|67f556/.test(c.name))).toBe(false);
      // "(RAM) Boost Setpoint[-]" twice: both kept, the repeat numbered, with a warning.
      expect(byName(log, "Boost Setpoint (RAM) #2").channel.unit).toBe("");
      expect(log.warnings.some((w) => w.includes('"Boost Setpoint (RAM) #2"'))).toBe(true);
      // The file writes the degree sign double-encoded ("ï¿½"): read back as the unit it was.
      const corrections = log.channels.filter((c) => c.name.startsWith("Ignition Timing Corr."));
      expect(corrections.map((c) => c.unit)).toEqual(Array(6).fill("°"));
    },
  },
  // "TIME" 91, 161, 231, 301: milliseconds (70 ms steps).
  "ecuxplot-ecux-ms.csv": {
    format: "generic-csv",
    rows: 4,
    channels: 31,
    named: [
      [0, "RPM", ""],
      [30, "IgnitionTimingCyl6", ""],
    ],
    values: [
      ["RPM", 3749, 3958.25],
      ["OXSVoltS1B1", 0.635, 0.29],
    ],
    duration: 0.21,
    check(log) {
      expect(log.meta.timeOffsetSeconds).toBeCloseTo(0.091, 9);
      expect(log.time[1]).toBeCloseTo(0.07, 9);
    },
  },
  // "Markierung,Zeit,Loc. IDE00021,Zeit,…", names under "MARKE", units; 8 groups of one field; 14 rows 0.05 → 1.70.
  "ecuxplot-vcds-german.csv": {
    format: "vcds",
    rows: 14,
    channels: 8,
    named: [
      [0, "Motordrehzahl", "/min"],
      [1, "Ladedruck: Sollwert", "hPa"],
      [3, "Luftmasse: Istwert", "g/s"],
      [7, "Abgastemperatursensor 4", "°C"],
    ],
    values: [
      ["Motordrehzahl", 1498, 1341],
      ["Luftmasse: Istwert", 46.3, 40.49],
    ],
    duration: 1.65,
    check(log) {
      expect(log.meta.startedAt).toBe("2025-11-30T10:53:42");
      expect(log.meta.extra["VCDS Version"]).toBe("DRV 25.3.1");
      expect(log.meta.ecuIds?.partNumber).toBe("4G0 907 589 F");
      expect(log.channels.some((c) => /MARKE|Zeit|Column/.test(c.name))).toBe(false);
    },
  },
  // "Group A:,'003 … Group C:,'026", names, a TIME row, "Marker,STAMP, /min,…"; 45 rows, group A 0.60 → 41.56.
  "ecuxplot-vcds-legacy-groups.csv": {
    format: "vcds",
    rows: 45,
    channels: 12,
    named: [
      [0, "RPM", "/min"],
      [3, "Ign. Timing", "°BTDC"],
      [4, "Idle Stabilization", "CF"],
      [8, "Voltage", "V"],
      [11, "Voltage #4", "V"],
    ],
    values: [
      ["RPM", 840, 3200],
      ["Mass Flow", 3.72, 9.75],
      // Group C, stamps 0.30 … 41.25: the nearest stamp to each group A time is the same row's.
      ["Voltage", 0.702, 2.925],
    ],
    duration: 40.96,
    check(log) {
      expect(log.meta.startedAt).toBe("2006-11-03T22:07:14");
      expect(log.meta.extra.groups).toBe("A:003 B:020 C:026");
      // Marker cells "2" (line 36, time 25.94) and "3" (line 37, 26.85): events, not a channel.
      expect(log.meta.extra.markers).toBe("2 @ 25.340 s; 3 @ 26.250 s");
      expect(log.channels.some((c) => /Marker|STAMP|TIME|Column/.test(c.name))).toBe(false);
    },
  },
  // MLVLG v1: 59 fields ("Time" F32 first), 115-byte records, 139 data blocks, no markers.
  "speeduino.mlg": {
    format: "megalogviewer",
    rows: 139,
    channels: 58,
    named: [
      [0, "SecL", "sec"],
      [1, "RPM", "rpm"],
      [2, "MAP", "kpa"],
      [5, "AFR", "O2"],
    ],
    values: [
      ["RPM", 0, 214],
      ["MAP", 313, 312],
      ["SecL", 10, 20],
    ],
    duration: 9.26,
    check(log) {
      // AFR is a U08 with scale 0.1: raw 255 → 25.5.
      expect(byName(log, "AFR").column[0]).toBeCloseTo(25.5, 5);
      expect(log.meta.device).toBe("speeduino");
      expect(log.meta.appVersion).toBe("202006-dev");
      expect(log.meta.extra["Capture Date"]).toBe("Tue Sep 01 21:25:42 BOT 2020");
      expect(log.warnings).toEqual([]);
    },
  },
};

checkRealFiles("real files in more-logs", EXPECTED, moreFixtureNames, (name) => new Uint8Array(moreFixture(name)));

describe("every real file in both folders", () => {
  const all = [
    ...fixtureNames().map((name) => ({ name, bytes: () => fixture(name) })),
    ...moreFixtureNames().map((name) => ({ name, bytes: () => moreFixture(name) })),
  ];
  for (const { name, bytes } of all) {
    it(`${name} imports with unique, non-empty channel names and time from zero`, () => {
      const log = parseLog(new Uint8Array(bytes()));
      expect(log.rowCount).toBeGreaterThan(0);
      const names = log.channels.map((c) => c.name);
      expect(names.every((n) => n !== "" && n === n.trim())).toBe(true);
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
      expect(new Set(log.channels.map((c) => c.id)).size).toBe(names.length);
      expect(log.time[0]).toBe(0);
      expect(log.durationSeconds).toBeGreaterThan(0);
    });
  }
});
