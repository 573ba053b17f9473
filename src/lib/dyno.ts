/**
 * Virtual dyno (after ECUxPlot and VW_Flash's "calculate HP"): wheel
 * and crank power and torque per pull, from a log's speed (or rpm with the gear) and a vehicle
 * profile. Pure functions over arrays, so they run anywhere and are tested without a browser.
 * The pulls are the log view's pull list's (`domain/logs/pulls.ts`), so both name the same runs.
 *
 *   wheel power  P = m·a·v + ½·ρ·Cd·A·v³ + Crr·m·g·v
 *   crank power  P / (1 − driveline loss)
 *   torque       power / engine angular speed (2π·rpm/60)
 */
import type { DynoProfile } from "../../contracts/data-logs";
import { DEFAULT_PULL_THRESHOLDS, pullRanges } from "../../domain/logs/pulls";
import { derivative, samplesIn, smooth } from "../../domain/logs/signal";

const AIR_DENSITY = 1.225; // kg/m³, sea level at 15 °C
const GRAVITY = 9.81;
/** Pulls are reported on an rpm grid this fine, so two pulls can be compared point by point. */
const RPM_STEP = 100;

export const KW_PER_HP = 0.745699872;
export const NM_PER_LBFT = 1.3558179483;

export interface DynoInput {
  /** Seconds, ascending. */
  time: ArrayLike<number>;
  rpm: ArrayLike<number>;
  /** Vehicle speed in m/s; when absent it comes from rpm, the gear and the tyre. */
  speedMps?: ArrayLike<number>;
  /** Gear number per sample (1-based), or one gear for the whole log. */
  gear?: ArrayLike<number> | number;
  /** Throttle or pedal in %; when given a pull needs it at or above `minThrottle` (the pull list's `minPedal`). */
  throttle?: ArrayLike<number>;
  minThrottle?: number;
}

export interface DynoPoint {
  rpm: number;
  wheelKw: number;
  crankKw: number;
  wheelNm: number;
  crankNm: number;
}

export interface DynoPull {
  startTime: number;
  endTime: number;
  gear: number | null;
  points: DynoPoint[];
  peakCrankKw: DynoPoint;
  peakCrankNm: DynoPoint;
}

const MPS_PER: Record<string, number> = { "km/h": 1 / 3.6, kph: 1 / 3.6, kmh: 1 / 3.6, mph: 0.44704, "m/s": 1 };

/** Factor from a speed channel's unit to m/s; null for a unit that is not a speed. */
export function metresPerSecondPer(unit: string): number | null {
  return MPS_PER[unit.trim().toLowerCase()] ?? null;
}

/** Rolling diameter of a tyre written 225/40R18, in metres. */
export function tyreDiameterM(tyre: DynoProfile["tyre"]): number {
  return (tyre.rimInches * 25.4 + (2 * tyre.widthMm * tyre.aspectPercent) / 100) / 1000;
}

/** Road speed (m/s) at an engine speed in one gear. */
export function speedFromRpm(rpm: number, gearRatio: number, finalDrive: number, tyreDiameter: number): number {
  return ((rpm / 60) * Math.PI * tyreDiameter) / (gearRatio * finalDrive);
}

/** The gear (1-based) whose ratio best explains rpm at a speed; null when standing or unclear. */
export function inferGear(rpm: number, speedMps: number, profile: DynoProfile): number | null {
  if (!(speedMps > 1) || !(rpm > 0)) return null;
  const ratio = ((rpm / 60) * Math.PI * tyreDiameterM(profile.tyre)) / (speedMps * profile.finalDrive);
  let best = -1;
  let bestError = Infinity;
  profile.gearRatios.forEach((gearRatio, i) => {
    const error = Math.abs(Math.log(ratio / gearRatio));
    if (error < bestError) {
      bestError = error;
      best = i;
    }
  });
  // More than ~10 % off every ratio: the clutch is slipping or the car is between gears.
  return bestError < 0.1 ? best + 1 : null;
}

/** Wheel power (W) at speed v with acceleration a. */
export function wheelPowerW(profile: DynoProfile, v: number, a: number): number {
  const inertia = profile.massKg * a * v;
  const aero = 0.5 * AIR_DENSITY * profile.dragCoefficient * profile.frontalAreaM2 * v ** 3;
  const rolling = profile.rollingCoefficient * profile.massKg * GRAVITY * v;
  return inertia + aero + rolling;
}

/** Every pull of the log with its power and torque curves on a 100 rpm grid. */
export function dynoPulls(input: DynoInput, profile: DynoProfile): DynoPull[] {
  const { time, rpm } = input;
  const n = time.length;
  const window = samplesIn(time, DEFAULT_PULL_THRESHOLDS.smoothSeconds);
  const rpmSmooth = smooth(rpm, window);
  const diameter = tyreDiameterM(profile.tyre);
  const gearAt = (i: number): number | null => {
    if (input.gear === undefined) return null;
    const g = typeof input.gear === "number" ? input.gear : Math.round(input.gear[i]);
    return g >= 1 && g <= profile.gearRatios.length ? g : null;
  };

  const speed = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (input.speedMps) speed[i] = input.speedMps[i];
    else {
      const g = gearAt(i);
      speed[i] = g === null ? NaN : speedFromRpm(rpm[i], profile.gearRatios[g - 1], profile.finalDrive, diameter);
    }
  }
  const v = smooth(speed, window);
  const a = smooth(derivative(time, v), window);

  const ranges = pullRanges(
    { time, rpm, throttle: input.throttle },
    input.minThrottle === undefined ? {} : { minPedal: input.minThrottle },
  );
  return ranges.flatMap(([start, end]) => {
    const bins = new Map<number, { wheel: number; count: number }>();
    for (let i = start; i <= end; i++) {
      if (!Number.isFinite(v[i]) || !Number.isFinite(a[i]) || !(rpmSmooth[i] > 0)) continue;
      const bin = Math.round(rpmSmooth[i] / RPM_STEP) * RPM_STEP;
      const entry = bins.get(bin) ?? { wheel: 0, count: 0 };
      entry.wheel += wheelPowerW(profile, v[i], a[i]);
      entry.count++;
      bins.set(bin, entry);
    }
    const points: DynoPoint[] = [...bins.entries()]
      .sort(([x], [y]) => x - y)
      .map(([binRpm, { wheel, count }]) => {
        const wheelW = wheel / count;
        const crankW = wheelW / (1 - profile.drivelineLoss);
        const omega = (2 * Math.PI * binRpm) / 60;
        return {
          rpm: binRpm,
          wheelKw: wheelW / 1000,
          crankKw: crankW / 1000,
          wheelNm: wheelW / omega,
          crankNm: crankW / omega,
        };
      });
    if (points.length < 3) return [];
    const peak = (key: "crankKw" | "crankNm") => points.reduce((best, p) => (p[key] > best[key] ? p : best));
    const mid = (start + end) >> 1;
    return [
      {
        startTime: time[start],
        endTime: time[end],
        gear: gearAt(mid) ?? (input.speedMps ? inferGear(rpmSmooth[mid], v[mid], profile) : null),
        points,
        peakCrankKw: peak("crankKw"),
        peakCrankNm: peak("crankNm"),
      },
    ];
  });
}
