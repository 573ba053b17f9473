import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type ParsedLog, parseLog } from "../../../../domain/logs";
import { type ChannelRole, channelRole, defaultPanes, namedLayouts, pickRoles } from "../../../../domain/logs/roles";
import { FIXTURE_DIR, MORE_FIXTURE_DIR, NEW_FORMAT_DIR } from "./support/fixtures";

/** `boost abs`, `knockCorrection cyl3`, `mixture bank2 lambda`: a role in one short string. */
function short(role: ChannelRole | null): string | null {
  if (!role) return null;
  const parts: string[] = [role.role];
  if (role.cylinder !== undefined) parts.push(`cyl${role.cylinder}`);
  if (role.bank !== undefined) parts.push(`bank${role.bank}`);
  if (role.pressure) parts.push(role.pressure === "absolute" ? "abs" : "rel");
  if (role.mixture) parts.push(role.mixture);
  return parts.join(" ");
}

const read = (dir: string, name: string) => new Uint8Array(readFileSync(path.join(dir, name)));

function load(file: string): ParsedLog {
  const [folder, name] = file.split("/") as [string, string];
  if (folder === "logs") return parseLog(read(FIXTURE_DIR, name));
  if (folder === "more-logs") return parseLog(read(MORE_FIXTURE_DIR, name));
  if (name.endsWith(".lg1")) {
    const lg2 = name.replace(/\.lg1$/, ".lg2");
    return parseLog(read(NEW_FORMAT_DIR, name), { companions: [{ name: lg2, bytes: read(NEW_FORMAT_DIR, lg2) }] });
  }
  return parseLog(read(NEW_FORMAT_DIR, name));
}

/**
 * For every fixture log, the channels that have a role, read off the files' headers by hand
 * (`head -3`). Every channel not listed must get no role, so a wrong guess fails as surely as a
 * missed one.
 */
/** ME7Logger's channels, as both fixture layouts of its log name them. */
const ME7LOGGER_ROLES = {
  ignitionretardcyl1: "knockCorrection cyl1",
  ignitionretardcyl5: "knockCorrection cyl5",
  ignitionretardcyl3: "knockCorrection cyl3",
  ignitionretardcyl2: "knockCorrection cyl2",
  ignitionretardcyl6: "knockCorrection cyl6",
  ignitionretardcyl4: "knockCorrection cyl4",
  selectedgear: "gear",
  airfuelratiodesired: "mixtureTarget lambda",
  wastegatedutycycle: "wastegateDuty",
  wastegatedutycyclebeforelin: "wastegateDuty",
  massairflow: "airMass",
  enginespeed: "engineSpeed",
  boostpressuredesired: "boostTarget abs",
  boostpressureactual: "boost abs",
  "engineload-8": "load",
  engineload: "load",
  engineloadcorrected: "load",
  intakeairtemperature: "intakeAirTemp",
  coolanttemperature: "coolantTemp",
  throttleplateangle: "throttle",
  avgignitionretardknockcontrol: "knockCorrection",
  accelpedalposition: "pedal",
  ignitiontimingangle: "timing",
  ignitiontimingangleoverall: "timing",
};

const EXPECTED: Record<string, Record<string, string>> = {
  "logs/bluedriver-utf16.csv": {},
  "logs/ecumaster.csv": {
    "engine-rpm": "engineSpeed",
    "sensors-gear": "gear",
    "ignition-angle": "timing",
    "sensors-tps1": "throttle",
  },
  "logs/ecuxplot-cobb-ap.csv": {
    afr: "mixture afr",
    "afr-set-point": "mixtureTarget afr",
    "accel-pedal-position": "pedal",
    "air-mass-im-per-stroke": "airMass",
    "boost-press": "boost rel",
    "cobb-spark-reduction": "knockCorrection",
    "coolant-temp": "coolantTemp",
    "current-gear": "gear",
    "engine-oil-temp": "oilTemp",
    "engine-speed": "engineSpeed",
    iat: "intakeAirTemp",
    "ignition-timing-final": "timing",
    "knock-retard-cylinder-1": "knockCorrection cyl1",
    "knock-retard-cylinder-2": "knockCorrection cyl2",
    "knock-retard-cylinder-3": "knockCorrection cyl3",
    "knock-retard-cylinder-4": "knockCorrection cyl4",
    ltft: "fuelTrimLong",
    "rail-press": "railPressure",
    "relative-manifold-pressure": "boost rel",
    stft: "fuelTrimShort",
    tps: "throttle",
    "trgt-boost-press": "boostTarget rel",
    "vehicle-speed": "vehicleSpeed",
  },
  "logs/ecuxplot-evoscan.csv": {
    rpm: "engineSpeed",
    tps: "throttle",
    app: "pedal",
    iat: "intakeAirTemp",
  },
  "logs/ecuxplot-jb4.csv": {
    rpm: "engineSpeed",
    target: "boostTarget rel",
    boost: "boost rel",
    pedal: "pedal",
    iat: "intakeAirTemp",
    wgdc: "wastegateDuty",
    throttle: "throttle",
    "ign-1": "timing cyl1",
    "avg-ign": "timing",
    afr: "mixture afr",
    gear: "gear",
    load: "load",
    map: "boost abs",
    afr2: "mixture afr",
    "ign-2": "timing cyl2",
    "ign-3": "timing cyl3",
    "ign-4": "timing cyl4",
    "ign-5": "timing cyl5",
    "ign-6": "timing cyl6",
    oilf: "oilTemp",
    waterf: "coolantTemp",
    e85: "ethanolContent",
    boost2: "boost rel",
    mph: "vehicleSpeed",
  },
  // The same ME7Logger log in its two layouts (semicolons, commas): one table.
  "logs/ecuxplot-me7l-semicolons.csv": ME7LOGGER_ROLES,
  "logs/ecuxplot-me7l.csv": ME7LOGGER_ROLES,
  "logs/ecuxplot-obdlink.csv": {
    "vehicle-speed": "vehicleSpeed",
    "calculated-load-value": "load",
    "engine-coolant-temperature": "coolantTemp",
    "short-term-fuel-trim-bank-1": "fuelTrimShort bank1",
    "short-term-fuel-trim-bank-2": "fuelTrimShort bank2",
    "long-term-fuel-trim-bank-1": "fuelTrimLong bank1",
    "long-term-fuel-trim-bank-2": "fuelTrimLong bank2",
    "engine-rpm": "engineSpeed",
    "ignition-timing-advance-for-1-cylinder": "timing",
    "intake-air-temperature": "intakeAirTemp",
    "mass-air-flow-rate": "airMass",
    "absolute-throttle-position": "throttle",
    "o2-sensor-lambda-wide-range-current-probe-bank-1-sensor-1": "mixture bank1 lambda",
    "o2-sensor-lambda-wide-range-current-probe-bank-2-sensor-1": "mixture bank2 lambda",
  },
  "logs/ecuxplot-simostools.csv": {
    afr: "mixture afr",
    "afr-sp": "mixtureTarget afr",
    airmass: "airMass",
    boost: "boost rel",
    "coolant-temp": "coolantTemp",
    "current-gear": "gear",
    "engine-speed": "engineSpeed",
    "eth-content": "ethanolContent",
    "fp-di": "railPressure",
    iat: "intakeAirTemp",
    "ign-timing-avg": "timing",
    "knock-cyl-1": "knockCorrection cyl1",
    "knock-cyl-2": "knockCorrection cyl2",
    "knock-cyl-3": "knockCorrection cyl3",
    "knock-cyl-4": "knockCorrection cyl4",
    lambda: "mixture lambda",
    "lambda-sp": "mixtureTarget lambda",
    ltft: "fuelTrimLong",
    map: "boost abs",
    "map-sp": "boostTarget abs",
    "oil-temp": "oilTemp",
    "pedal-pos": "pedal",
    stft: "fuelTrimShort",
    tps: "throttle",
    "vehicle-speed": "vehicleSpeed",
    "wg-pos-final": "wastegateDuty",
    "wheel-speed-fl": "vehicleSpeed",
    "wheel-speed-fr": "vehicleSpeed",
  },
  "logs/ecuxplot-vcds.csv": {
    "vehicle-speed": "vehicleSpeed",
    "accelerator-position": "pedal",
    "engine-speed": "engineSpeed",
    "engine-load": "load",
    "engine-speed-actual": "engineSpeed",
    "charge-pressure-control-charge-press-before-throttle-valve": "boost abs",
    "accelerator-position-2": "pedal",
    "vehicle-speed-actual": "vehicleSpeed",
    "vehicle-speed-filtered": "vehicleSpeed",
  },
  "logs/ecuxplot-volvologger.csv": {
    "engine-speed": "engineSpeed",
    "boost-pressure": "boost abs",
    "throttle-position": "throttle",
    "vehicle-speed": "vehicleSpeed",
  },
  "logs/ecuxplot-winlog.csv": {
    "nmot-w": "engineSpeed",
    "rl-w": "load",
    "plsol-w": "boostTarget abs",
    "pvdks-w": "boost abs",
    ldtvm: "wastegateDuty",
    "mshfm-w": "airMass",
    tanslin: "intakeAirTemp",
    tmotlin: "coolantTemp",
    "vfil-w": "vehicleSpeed",
    wdkba: "throttle",
    "lamsoni-w": "mixture lambda",
    "lamsoni2-w": "mixture lambda",
    zwout: "timing",
    wkrm: "knockCorrection",
    "wped-w": "pedal",
    gangi: "gear",
  },
  "logs/ecuxplot-zeitronix.csv": {
    iat: "intakeAirTemp",
    sparkadv: "timing",
    tps: "throttle",
    map: "boost rel",
    rpm: "engineSpeed",
    afr: "mixture afr",
    "map-2": "boost rel",
    "afr-2": "mixture afr",
  },
  "logs/haltech-nsp.csv": {
    rpm: "engineSpeed",
    "manifold-pressure": "boost rel",
    "ignition-angle": "timing",
    "target-lambda": "mixtureTarget lambda",
    "measured-manifold-pressure": "boost rel",
    "injection-stage-1-outputs-highest-duty-cycle": "injectorDuty",
    "ignition-1-angle": "timing",
    "calculated-air-mass-per-cylinder": "airMass",
    "wideband-o2-overall": "mixture lambda",
    "drive-by-wire-accelerator-pedal-position": "pedal",
    "vehicle-speed": "vehicleSpeed",
    "throttle-position": "throttle",
    "driven-wheel-speed": "vehicleSpeed",
    "wideband-o2-1": "mixture lambda",
    "knock-control-bank-1-ignition-correction": "knockCorrection bank1",
    "boost-control-actual-pressure": "boost rel",
    "boost-control-solenoid-duty-cycle": "wastegateDuty",
    "fuel-composition": "ethanolContent",
    "oil-temperature": "oilTemp",
    "intake-air-temperature": "intakeAirTemp",
    "coolant-temperature": "coolantTemp",
    gear: "gear",
    "vehicle-speed-drive-train-sensor": "vehicleSpeed",
    "boost-control-target-pressure-corrected": "boostTarget abs",
    "o2-control-bank-1-short-term-fuel-trim": "fuelTrimShort bank1",
  },
  "logs/romraider-semicolon-decimal-comma.csv": {
    "timing-advance": "timing",
    "plx-engine-speed": "engineSpeed",
    "plx-manifold-absolute-pressure": "boost abs",
    "plx-o2-wideband": "mixture lambda",
  },
  "more-logs/bootmod3-b58.csv": {
    "accel-pedal": "pedal",
    "boost-pre-throttle": "boost rel",
    "boost-pressure-target": "boostTarget rel",
    "coolant-temp": "coolantTemp",
    "engine-speed": "engineSpeed",
    gear: "gear",
    "hpfp-act": "railPressure",
    iat: "intakeAirTemp",
    "ignition-cyl-1": "timing cyl1",
    "ignition-timing-1": "timing cyl1",
    "ignition-timing-2": "timing cyl2",
    "ignition-timing-3": "timing cyl3",
    "ignition-timing-4": "timing cyl4",
    "ignition-timing-5": "timing cyl5",
    "ignition-timing-6": "timing cyl6",
    ltft: "fuelTrimLong",
    lambda: "mixture afr",
    "lambda-act": "mixture afr",
    "load-act-rel": "load",
    maf: "airMass",
    stft: "fuelTrimShort",
    "throttle-angle": "throttle",
    "vehicle-speed": "vehicleSpeed",
    wgdc: "wastegateDuty",
    "flex-ethanol": "ethanolContent",
    "flex-ethanol-sensor": "ethanolContent",
    "boost-map": "boost rel",
    "boost-pressure-manifold-target": "boostTarget rel",
    "ignition-timing-corr-cyl-1": "knockCorrection cyl1",
    "ignition-timing-corr-cyl-2": "knockCorrection cyl2",
    "ignition-timing-corr-cyl-3": "knockCorrection cyl3",
    "ignition-timing-corr-cyl-4": "knockCorrection cyl4",
    "ignition-timing-corr-cyl-5": "knockCorrection cyl5",
    "ignition-timing-corr-cyl-6": "knockCorrection cyl6",
    "lambda-main-target-1": "mixtureTarget lambda",
    "lambda-main-target-2": "mixtureTarget lambda",
    "load-rf-actual": "load",
  },
  "more-logs/ecuxplot-ecux-ms.csv": {
    rpm: "engineSpeed",
    throttleplateangle: "throttle",
    massairflow: "airMass",
    boostpressuredesired: "boostTarget rel",
    boostpressureactual: "boost rel",
    ignitiontimingangleoverall: "timing",
    acceleratorpedalposition: "pedal",
    intakeairtemperature: "intakeAirTemp",
    ignitionretardcyl1: "knockCorrection cyl1",
    ignitionretardcyl2: "knockCorrection cyl2",
    ignitionretardcyl3: "knockCorrection cyl3",
    ignitionretardcyl4: "knockCorrection cyl4",
    ignitiontimingcyl1: "timing cyl1",
    ignitiontimingcyl2: "timing cyl2",
    ignitiontimingcyl3: "timing cyl3",
    ignitiontimingcyl4: "timing cyl4",
    ignitionretardcyl5: "knockCorrection cyl5",
    ignitionretardcyl6: "knockCorrection cyl6",
    ignitiontimingcyl5: "timing cyl5",
    ignitiontimingcyl6: "timing cyl6",
  },
  "more-logs/ecuxplot-vcds-german.csv": {
    motordrehzahl: "engineSpeed",
    "ladedruck-sollwert": "boostTarget abs",
    "ladedruck-istwert": "boost abs",
    "luftmasse-istwert": "airMass",
  },
  "more-logs/ecuxplot-vcds-legacy-groups.csv": {
    rpm: "engineSpeed",
    "mass-flow": "airMass",
    load: "load",
    "ign-timing": "timing",
  },
  "more-logs/speeduino.mlg": {
    rpm: "engineSpeed",
    map: "boost abs",
    tps: "throttle",
    afr: "mixture afr",
    lambda: "mixture lambda",
    iat: "intakeAirTemp",
    clt: "coolantTemp",
    "afr-target": "mixtureTarget afr",
    "lambda-target": "mixtureTarget lambda",
    dutycycle1: "injectorDuty",
    dutycycle2: "injectorDuty",
    advance: "timing",
    "boost-psi": "boost rel",
  },
  "new-formats/speeduino-v2.mlg": {
    rpm: "engineSpeed",
    map: "boost abs",
    tps: "throttle",
    afr: "mixture afr",
    lambda: "mixture lambda",
    iat: "intakeAirTemp",
    clt: "coolantTemp",
    "afr-target": "mixtureTarget afr",
    "lambda-target": "mixtureTarget lambda",
    dutycycle1: "injectorDuty",
    "advance-current": "timing",
    "boost-psi": "boost rel",
    "boost-target": "boostTarget abs",
    "boost-duty": "wastegateDuty",
    "advance-1": "timing",
    "advance-2": "timing",
    fuelload: "load",
    ignitionload: "load",
    "vehicle-speed": "vehicleSpeed",
  },
  "new-formats/link-g4x.llg5": {
    "engine-speed": "engineSpeed",
    "lambda-avg": "mixture lambda",
    "afr-lambda-target": "mixtureTarget lambda",
    "ignition-angle": "timing",
    "tps-main": "throttle",
    "aps-main": "pedal",
    mgp: "boost rel",
    map: "boost abs",
    iat: "intakeAirTemp",
    "charge-temperature": "intakeAirTemp",
    ect: "coolantTemp",
  },
  "new-formats/emerald-idle-and-rev.lg1": {
    "coolant-temp": "coolantTemp",
    "air-temp": "intakeAirTemp",
    rpm: "engineSpeed",
  },
};

describe("channelRole on every fixture log", () => {
  for (const [file, expected] of Object.entries(EXPECTED)) {
    it(`${file}: the listed channels have their roles and every other channel has none`, () => {
      const log = load(file);
      const got = Object.fromEntries(
        log.channels.map((channel) => [channel.id, short(channelRole(channel, log.format))]).filter(([, r]) => r),
      );
      expect(got).toEqual(expected);
      for (const id of Object.keys(expected)) expect(log.channels.some((c) => c.id === id)).toBe(true);
    });
  }
});

/** Headers of loggers no fixture comes from, written from their documentation: the generic vocabulary must read them. */
describe("channelRole on loggers no test has seen", () => {
  const roles = (channels: [string, string][]) =>
    Object.fromEntries(channels.map(([name, unit]) => [name, short(channelRole({ name, unit }))]));

  it("reads an AEMdata CSV export's channels", () => {
    expect(
      roles([
        ["Engine Speed", "rpm"],
        ["MAP", "kPa"],
        ["Lambda #1", "Lambda"],
        ["Ignition Timing", "deg"],
        ["Throttle", "%"],
        ["Coolant Temp", "C"],
        ["Air Temp", "C"],
        ["Battery", "V"],
      ]),
    ).toEqual({
      "Engine Speed": "engineSpeed",
      MAP: "boost abs",
      "Lambda #1": "mixture lambda",
      "Ignition Timing": "timing",
      Throttle: "throttle",
      "Coolant Temp": "coolantTemp",
      "Air Temp": "intakeAirTemp",
      Battery: null,
    });
  });

  it("reads a Hondata FlashPro CSV's channels", () => {
    expect(
      roles([
        ["RPM", ""],
        ["Gear", ""],
        ["MAP", "kPa"],
        ["Ign. advance", "deg"],
        ["Knock retard", "deg"],
        ["AFR", "AFR"],
        ["AFR target", "AFR"],
        ["Cam angle", "deg"],
        ["ECT", "C"],
        ["Inj. duty", "%"],
      ]),
    ).toEqual({
      RPM: "engineSpeed",
      Gear: "gear",
      MAP: "boost abs",
      "Ign. advance": "timing",
      "Knock retard": "knockCorrection",
      AFR: "mixture afr",
      "AFR target": "mixtureTarget afr",
      "Cam angle": null,
      ECT: "coolantTemp",
      "Inj. duty": "injectorDuty",
    });
  });

  it("reads a MoTeC i2 CSV export's channels", () => {
    expect(
      roles([
        ["Engine Speed", "rpm"],
        ["Manifold Pressure", "kPa"],
        ["Throttle Position", "%"],
        ["Lambda 1", "LA"],
        ["Ignition Timing", "dBTDC"],
        ["Inlet Air Temperature", "C"],
        ["Ground Speed", "km/h"],
        ["Fuel Pressure", "kPa"],
      ]),
    ).toEqual({
      "Engine Speed": "engineSpeed",
      "Manifold Pressure": "boost abs",
      "Throttle Position": "throttle",
      "Lambda 1": "mixture lambda",
      "Ignition Timing": "timing",
      "Inlet Air Temperature": "intakeAirTemp",
      "Ground Speed": "vehicleSpeed",
      "Fuel Pressure": null,
    });
  });
});

describe("defaultPanes", () => {
  it("opens the RomRaider log with engine speed and boost, then timing, then lambda", () => {
    const log = load("logs/romraider-semicolon-decimal-comma.csv");
    expect(defaultPanes(log.channels, log.format)).toEqual([
      ["plx-engine-speed", "plx-manifold-absolute-pressure"],
      ["timing-advance"],
      ["plx-o2-wideband"],
    ]);
  });

  it("opens the bootmod3 log with boost and its target, every cylinder's correction and the pedal", () => {
    const log = load("more-logs/bootmod3-b58.csv");
    const corrections = [1, 2, 3, 4, 5, 6].map((n) => `ignition-timing-corr-cyl-${n}`);
    expect(defaultPanes(log.channels, log.format)).toEqual([
      ["engine-speed", "boost-pre-throttle", "boost-pressure-target"],
      ["ignition-cyl-1", ...corrections],
      ["lambda", "lambda-main-target-1"],
      ["throttle-angle", "accel-pedal"],
    ]);
  });

  it("is null for a log with no channel a role names, so the page keeps its own default", () => {
    const log = load("logs/bluedriver-utf16.csv");
    expect(defaultPanes(log.channels, log.format)).toBeNull();
  });

  it("ranks a channel with no cylinder before the per-cylinder ones of its role", () => {
    const log = load("logs/ecuxplot-jb4.csv");
    expect(pickRoles(log.channels, log.format).get("timing")).toEqual([
      "avg-ign",
      "ign-1",
      "ign-2",
      "ign-3",
      "ign-4",
      "ign-5",
      "ign-6",
    ]);
  });
});

describe("namedLayouts", () => {
  it("gives the bootmod3 log boost, timing and fuel layouts, with every cylinder's timing and correction", () => {
    const log = load("more-logs/bootmod3-b58.csv");
    const timing = [1, 2, 3, 4, 5, 6].map((n) => `ignition-timing-${n}`);
    const corrections = [1, 2, 3, 4, 5, 6].map((n) => `ignition-timing-corr-cyl-${n}`);
    expect(namedLayouts(log.channels, log.format)).toEqual([
      {
        name: "Boost",
        panes: [
          ["engine-speed"],
          ["boost-pre-throttle", "boost-pressure-target"],
          ["wgdc"],
          ["throttle-angle", "accel-pedal"],
          ["iat"],
        ],
      },
      {
        name: "Timing",
        panes: [["engine-speed"], ["ignition-cyl-1", ...timing], corrections, ["iat", "coolant-temp"]],
      },
      {
        name: "Fuel",
        panes: [["engine-speed"], ["lambda", "lambda-main-target-1"], ["stft", "ltft"], ["hpfp-act"], ["flex-ethanol"]],
      },
    ]);
  });

  it("keeps a layout's roles the log has and drops the panes of those it has not (RomRaider)", () => {
    const log = load("logs/romraider-semicolon-decimal-comma.csv");
    expect(namedLayouts(log.channels, log.format)).toEqual([
      { name: "Boost", panes: [["plx-engine-speed"], ["plx-manifold-absolute-pressure"]] },
      { name: "Timing", panes: [["plx-engine-speed"], ["timing-advance"]] },
      { name: "Fuel", panes: [["plx-engine-speed"], ["plx-o2-wideband"]] },
    ]);
  });

  it("offers none for a log whose channels no role names", () => {
    const log = load("logs/bluedriver-utf16.csv");
    expect(namedLayouts(log.channels, log.format)).toEqual([]);
  });

  it("leaves out a layout that would show engine speed alone", () => {
    const channels = [
      { id: "rpm", name: "Engine Speed", unit: "rpm" },
      { id: "boost", name: "Boost", unit: "psi" },
    ];
    expect(namedLayouts(channels).map((layout) => layout.name)).toEqual(["Boost"]);
  });
});
