import { describe, expect, it } from "vitest";
import { DEFAULT_DYNO_PROFILE } from "../../../../contracts/data-logs";
import {
  dynoPulls,
  inferGear,
  metresPerSecondPer,
  speedFromRpm,
  tyreDiameterM,
  wheelPowerW,
} from "../../../../src/lib/dyno";

const profile = DEFAULT_DYNO_PROFILE;

/** A pull in one gear under a constant wheel power, integrated with the same road-load model. */
function simulatedPull(powerW: number, gear: number, hz = 50) {
  const diameter = tyreDiameterM(profile.tyre);
  const time: number[] = [];
  const rpm: number[] = [];
  const speed: number[] = [];
  let v = speedFromRpm(2000, profile.gearRatios[gear - 1], profile.finalDrive, diameter);
  const dt = 1 / hz;
  // Two idle seconds, the pull to 6500 rpm, two coasting seconds.
  for (let t = 0; t < 2; t += dt) {
    time.push(time.length * dt);
    speed.push(v);
    rpm.push(2000);
  }
  const rpmOf = (speedMps: number) =>
    (speedMps * profile.gearRatios[gear - 1] * profile.finalDrive * 60) / (Math.PI * diameter);
  while (rpmOf(v) < 6500) {
    const resist = wheelPowerW(profile, v, 0);
    v += ((powerW - resist) / (profile.massKg * v)) * dt;
    time.push(time.length * dt);
    speed.push(v);
    rpm.push(rpmOf(v));
  }
  for (let t = 0; t < 2; t += dt) {
    time.push(time.length * dt);
    speed.push(v);
    rpm.push(rpm[rpm.length - 1] - 100 * t);
  }
  return { time, rpm, speed };
}

describe("virtual dyno", () => {
  it("knows tyre size and road speed", () => {
    expect(tyreDiameterM({ widthMm: 225, aspectPercent: 40, rimInches: 18 })).toBeCloseTo(0.6372, 4);
    // 1000 rpm in a 1:1 gear with a 1:1 final drive turns the wheel 1000 times a minute.
    expect(speedFromRpm(1000, 1, 1, 1)).toBeCloseTo((1000 / 60) * Math.PI, 9);
    expect(
      inferGear(
        3000,
        speedFromRpm(3000, profile.gearRatios[2], profile.finalDrive, tyreDiameterM(profile.tyre)),
        profile,
      ),
    ).toBe(3);
    expect(inferGear(3000, 0.5, profile)).toBeNull();
    expect([metresPerSecondPer("km/h"), metresPerSecondPer("MPH"), metresPerSecondPer("rpm")]).toEqual([
      1 / 3.6,
      0.44704,
      null,
    ]);
  });

  it("recovers the power of a simulated pull from speed, and from rpm and gear", () => {
    const powerW = 200_000;
    const { time, rpm, speed } = simulatedPull(powerW, 3);
    for (const input of [
      { time, rpm, speedMps: speed },
      { time, rpm, gear: 3 },
    ]) {
      const pulls = dynoPulls(input, profile);
      expect(pulls).toHaveLength(1);
      const [pull] = pulls;
      expect(pull.gear).toBe(3);
      const middle = pull.points.filter((p) => p.rpm >= 3000 && p.rpm <= 6000);
      for (const point of middle) {
        expect(point.wheelKw).toBeGreaterThan(190);
        expect(point.wheelKw).toBeLessThan(210);
        expect(point.crankKw).toBeCloseTo(point.wheelKw / 0.85, 6);
        expect(point.crankNm).toBeCloseTo((point.crankKw * 1000) / ((2 * Math.PI * point.rpm) / 60), 6);
      }
      expect(pull.peakCrankKw.crankKw).toBeGreaterThan(220);
    }
  });
});
