/**
 * Virtual dyno (after ECUxPlot and VW_Flash's "calculate HP"): wheel
 * and crank power and torque per pull, from a log's speed (or rpm with the gear) and a vehicle
 * profile. Pure functions over arrays, so they run anywhere and are tested without a browser.
 *
 *   wheel power  P = m·a·v + ½·ρ·Cd·A·v³ + Crr·m·g·v
 *   crank power  P / (1 − driveline loss)
 *   torque       power / engine angular speed (2π·rpm/60)
 */
import type { DynoProfile } from "../../contracts/data-logs";

const AIR_DENSITY = 1.225; // kg/m³, sea level at 15 °C
const GRAVITY = 9.81;
/** A pull is at least this long and spans at least this many rpm; shorter rises are shifts or noise. */
const MIN_PULL_SECONDS = 1.5;
const MIN_PULL_RPM = 1000;
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
  /** Throttle or pedal in %; when given a pull needs it at or above `minThrottle`. */
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

/** Centred moving average over `half` samples each side; NaN samples are left out of the mean. */
export function smooth(values: ArrayLike<number>, half: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  let sum = 0;
  let count = 0;
  let lo = 0;
  let hi = -1;
  for (let i = 0; i < n; i++) {
    const from = Math.max(0, i - half);
    const to = Math.min(n - 1, i + half);
    while (hi < to) {
      const v = values[++hi];
      if (!Number.isNaN(v)) {
        sum += v;
        count++;
      }
    }
    while (lo < from) {
      const v = values[lo++];
      if (!Number.isNaN(v)) {
        sum -= v;
        count--;
      }
    }
    out[i] = count ? sum / count : NaN;
  }
  return out;
}

/** Central differences dv/dt (one-sided at the ends). */
export function derivative(time: ArrayLike<number>, values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - 1);
    const b = Math.min(n - 1, i + 1);
    const dt = time[b] - time[a];
    out[i] = dt > 0 ? (values[b] - values[a]) / dt : NaN;
  }
  return out;
}

/** Samples per `seconds` at the log's median sample interval (at least 1). */
function samplesIn(time: ArrayLike<number>, seconds: number): number {
  const n = Math.min(time.length, 1001);
  if (n < 2) return 1;
  const steps: number[] = [];
  for (let i = 1; i < n; i++) steps.push(time[i] - time[i - 1]);
  steps.sort((x, y) => x - y);
  const median = steps[steps.length >> 1];
  return median > 0 ? Math.max(1, Math.round(seconds / median)) : 1;
}

/** Wheel power (W) at speed v with acceleration a. */
export function wheelPowerW(profile: DynoProfile, v: number, a: number): number {
  const inertia = profile.massKg * a * v;
  const aero = 0.5 * AIR_DENSITY * profile.dragCoefficient * profile.frontalAreaM2 * v ** 3;
  const rolling = profile.rollingCoefficient * profile.massKg * GRAVITY * v;
  return inertia + aero + rolling;
}

/** Index ranges [start, end] where rpm rises steadily (with the throttle open, when known). */
export function findPulls(
  time: ArrayLike<number>,
  rpmSmooth: ArrayLike<number>,
  rpmRate: ArrayLike<number>,
  throttle?: ArrayLike<number>,
  minThrottle = 80,
): Array<[number, number]> {
  const pulls: Array<[number, number]> = [];
  let start = -1;
  const close = (end: number) => {
    if (start >= 0 && time[end] - time[start] >= MIN_PULL_SECONDS && rpmSmooth[end] - rpmSmooth[start] >= MIN_PULL_RPM)
      pulls.push([start, end]);
    start = -1;
  };
  for (let i = 0; i < time.length; i++) {
    const rising = rpmRate[i] > 50 && (!throttle || throttle[i] >= minThrottle);
    if (rising && start < 0) start = i;
    else if (!rising && start >= 0) close(i - 1);
  }
  if (start >= 0) close(time.length - 1);
  return pulls;
}

/** Every pull of the log with its power and torque curves on a 100 rpm grid. */
export function dynoPulls(input: DynoInput, profile: DynoProfile): DynoPull[] {
  const { time, rpm } = input;
  const n = time.length;
  const window = samplesIn(time, 0.25);
  const rpmSmooth = smooth(rpm, window);
  const rpmRate = derivative(time, rpmSmooth);
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

  return findPulls(time, rpmSmooth, rpmRate, input.throttle, input.minThrottle).flatMap(([start, end]) => {
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
