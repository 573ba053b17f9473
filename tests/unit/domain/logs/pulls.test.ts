import { describe, expect, it } from "vitest";
import { parseLog } from "../../../../domain/logs";
import { LogAnalysisError } from "../../../../domain/logs/analysis-error";
import { findPulls, type PullInput, pullRanges } from "../../../../domain/logs/pulls";
import { demoCar, pullLog } from "../../../../server/seed/virtual-car/phone-app";
import { thrownBy } from "../../support/thrown";
import { byName } from "./support/expectations";
import { fixture } from "./support/fixtures";

/** Samples every `dt` seconds for `seconds`, one value per sample from `at(t)`. */
function series(seconds: number, dt: number, at: (t: number) => number) {
  const time = Array.from({ length: Math.round(seconds / dt) + 1 }, (_, i) => i * dt);
  return { time, values: time.map(at) };
}

/** A 10 Hz log: idle to 3 s, a pull from 2,000 to 6,000 rpm over 4 s, then a lift. */
const pullShape = (t: number) => (t < 3 ? 2000 : t <= 7 ? 2000 + (t - 3) * 1000 : 6000 - (t - 7) * 2000);
const { time, values: rpm } = series(10, 0.1, pullShape);
const open = time.map((t) => (t >= 2 && t <= 7.5 ? 100 : 10));

describe("pulls of the RomRaider log (827 s, MAP in bar absolute, wideband lambda)", () => {
  const log = parseLog(fixture("romraider-semicolon-decimal-comma.csv"));
  const input: PullInput = {
    time: log.time,
    rpm: byName(log, "PLX Engine Speed").column,
    boost: byName(log, "PLX Manifold Absolute Pressure").column,
    mixture: { values: byName(log, "PLX O2 - Wideband").column, kind: "lambda" },
  };

  it("finds the five full-boost runs, as read off the file", () => {
    // File lines (line 1 is the header, so a row's index is its line minus 2), read with awk: the
    // first and last time (ms), lowest and highest rpm, highest MAP, lowest and highest lambda.
    // Each run starts on the last lowest rpm before the climb and ends on its highest rpm.
    //   1416–1448  276275–282454  3441–5963  1.85  0.68–1.01  (next line the rpm falls to 5885)
    //   1535–1562  299445–304751  3695–5005  2.01  0.68–1.04  (MAP drops to 0.35 on the last line)
    //   2314–2341  451594–456895  2639–4907  1.73  0.68–1.05  (next line a shift to 4164 rpm)
    //   2343–2355  457277–459606  4301–5787  1.78  0.68–0.79  (next line MAP falls to 1.00)
    //   2357–2369  459962–462355  5572–6686  1.92  0.68–0.81  (past 6,000 rpm; then the lift)
    const pulls = findPulls(input, { minPeakBoost: 1.5 });
    const near = (value: number) => expect.closeTo(value, 5);
    expect(
      pulls.map((p) => [
        p.startIndex + 2,
        p.endIndex + 2,
        p.startTime,
        p.endTime,
        p.rpmFrom,
        p.rpmTo,
        p.peakBoost?.value,
        p.richest?.value,
        p.leanest?.value,
      ]),
    ).toEqual([
      [1416, 1448, near(276.275), near(282.454), 3441, 5963, near(1.85), near(0.68), near(1.01)],
      [1535, 1562, near(299.445), near(304.751), 3695, 5005, near(2.01), near(0.68), near(1.04)],
      [2314, 2341, near(451.594), near(456.895), 2639, 4907, near(1.73), near(0.68), near(1.05)],
      [2343, 2355, near(457.277), near(459.606), 4301, 5787, near(1.78), near(0.68), near(0.79)],
      [2357, 2369, near(459.962), near(462.355), 5572, 6686, near(1.92), near(0.68), near(0.81)],
    ]);
    for (const pull of pulls) {
      expect(pull.duration).toBeCloseTo(pull.endTime - pull.startTime, 9);
      expect(pull).toMatchObject({ gear: null, mixtureKind: "lambda", largestCorrection: null });
    }
  });

  it("without a boost threshold also lists part-throttle rises, such as the first from idle", () => {
    // Lines 58–80: 10.878 s to 15.154 s, 841 to 3460 rpm, MAP never above 0.72 bar (vacuum).
    const pulls = findPulls(input);
    expect(pulls.length).toBeGreaterThan(5);
    expect(pulls[0]).toMatchObject({ startIndex: 56, endIndex: 78, rpmFrom: 841, rpmTo: 3460 });
    expect([pulls[0].startTime, pulls[0].endTime]).toEqual([expect.closeTo(10.878, 5), expect.closeTo(15.154, 5)]);
    expect(pulls[0].peakBoost?.value).toBeCloseTo(0.72, 5);
  });
});

describe("pulls of the virtual car's log (npm run vehicle -- log)", () => {
  it("finds its one pull from 2,000 to 6,500 rpm over the whole 10 s", () => {
    const text = pullLog(demoCar());
    const log = parseLog(new TextEncoder().encode(text));
    const pulls = findPulls({
      time: log.time,
      rpm: byName(log, "Engine speed").column,
      boost: byName(log, "Boost").column,
    });
    // The highest boost, read from the CSV text itself (fourth field of each data line).
    const boosts = text
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => Number(line.split(",")[3]));
    expect(pulls).toHaveLength(1);
    expect(pulls[0]).toMatchObject({
      startIndex: 0,
      endIndex: 200,
      startTime: 0,
      endTime: 10,
      rpmFrom: 2000,
      rpmTo: 6500,
    });
    expect(pulls[0].peakBoost?.value).toBeCloseTo(Math.max(...boosts), 5);
  });
});

describe("pull detection", () => {
  it("finds only long rising stretches", () => {
    // The climb runs from sample 30 (3 s, 2,000 rpm) to sample 70 (7 s, 6,000 rpm).
    expect(pullRanges({ time, rpm })).toEqual([[30, 70]]);
    // A 0.5 s rise of 500 rpm is a shift or noise, not a pull.
    const short = series(3, 0.1, (t) => (t > 1 && t < 1.5 ? 2000 + (t - 1) * 1000 : 2000));
    expect(pullRanges({ time: short.time, rpm: short.values })).toEqual([]);
  });

  it("needs the pedal open, and reads the pedal rather than the throttle", () => {
    const closed = time.map(() => 30);
    // The pedal is open from 2 s to 7.5 s, around the whole climb.
    expect(pullRanges({ time, rpm, pedal: open, throttle: closed })).toEqual([[30, 70]]);
    expect(pullRanges({ time, rpm, pedal: closed, throttle: open })).toEqual([]);
    expect(pullRanges({ time, rpm, throttle: open })).toEqual([[30, 70]]);
    expect(pullRanges({ time, rpm, throttle: closed }, { minPedal: 25 })).toEqual([[30, 70]]);
  });

  it("keeps a pull whole over a gap in the engine speed, and breaks it where the pedal is a gap", () => {
    const gappy = rpm.map((v, i) => (i === 50 ? NaN : v));
    expect(pullRanges({ time, rpm: gappy })).toEqual([[30, 70]]);
    // Nothing is known of the pedal at sample 50 (5 s): the climbs before (3–4.9 s) and after
    // (5.1–7 s) are each long and wide enough to be a pull.
    const pedal = open.map((v, i) => (i === 50 ? NaN : v));
    expect(pullRanges({ time, rpm, pedal })).toEqual([
      [30, 49],
      [51, 70],
    ]);
  });

  it("splits a pull where the logger stopped for longer than the largest gap", () => {
    // The logger stops for 5 s at 5 s: the climb before (3–4.9 s) and after (10–12 s) are two pulls.
    const gapped = time.map((t) => (t >= 5 ? t + 5 : t));
    const ranges = pullRanges({ time: gapped, rpm });
    expect(ranges.map(([s, e]) => [gapped[s], gapped[e]])).toEqual([
      [expect.closeTo(3, 9), expect.closeTo(4.9, 9)],
      [expect.closeTo(10, 9), expect.closeTo(12, 9)],
    ]);
  });

  it("splits a pull where the time runs backwards, as when a logger restarts", () => {
    // At sample 50 (5 s) the clock goes back to 0.1 s and counts on from there.
    const restarted = time.map((t, i) => (i >= 50 ? t - 4.9 : t));
    expect(pullRanges({ time: restarted, rpm })).toEqual([
      [30, 49],
      [50, 70],
    ]);
  });

  it("reports gear, peak boost, mixture extremes and the largest retard with its cylinder, over gaps", () => {
    const gear = time.map((t) => (t < 6.9 ? 3 : 4));
    const boost = time.map((t, i) => (i === 50 ? NaN : t < 3 ? 0 : t * 2));
    const afr = time.map((_, i) => (i === 40 ? NaN : i === 45 ? 10.9 : i === 60 ? 13.1 : 12));
    const corrections = [
      { cylinder: 1, values: time.map((_, i) => (i === 55 ? -2 : 0)) },
      { cylinder: 3, values: time.map((_, i) => (i === 65 ? -3.5 : i === 66 ? NaN : 0)) },
      // A retard outside the pull is not the pull's.
      { cylinder: 4, values: time.map((_, i) => (i === 90 ? -8 : 0)) },
    ];
    const [pull] = findPulls({
      time,
      rpm,
      throttle: open,
      gear,
      boost,
      mixture: { values: afr, kind: "afr" },
      corrections,
    });
    expect(pull).toMatchObject({
      startIndex: 30,
      endIndex: 70,
      rpmFrom: 2000,
      rpmTo: 6000,
      gear: 3,
      mixtureKind: "afr",
      richest: { value: 10.9, time: time[45] },
      leanest: { value: 13.1, time: time[60] },
      largestCorrection: { value: -3.5, cylinder: 3, time: time[65] },
    });
    expect(pull.peakBoost).toEqual({ value: 14, time: 7 });
    expect(pull.duration).toBeCloseTo(4, 9);
  });

  it("gives null for what was not logged, and a null cylinder for an engine-wide correction", () => {
    // Every sample is -1: the pull's first (3 s) is the one named.
    const [pull] = findPulls({ time, rpm, corrections: [{ values: time.map(() => -1) }] });
    expect(pull).toMatchObject({ gear: null, peakBoost: null, richest: null, leanest: null, mixtureKind: null });
    expect(pull.largestCorrection).toEqual({ value: -1, cylinder: null, time: 3 });
  });

  it("refuses a bad threshold or a channel of the wrong length, naming it", () => {
    for (const [name, value] of [
      ["minPedal", 120],
      ["minSeconds", 0],
      ["minRpmSpan", Number.NaN],
      ["maxGapSeconds", -1],
      ["minPeakBoost", Number.POSITIVE_INFINITY],
    ] as const) {
      const error = thrownBy(LogAnalysisError, () => findPulls({ time, rpm }, { [name]: value }));
      expect(error.field).toBe(name);
      expect(error.message).toContain(name);
    }
    const error = thrownBy(LogAnalysisError, () => findPulls({ time, rpm, boost: [1, 2] }));
    expect(error.field).toBe("boost");
    expect(error.message).toBe(`boost has 2 values, expected ${time.length} (one per row)`);
  });
});
