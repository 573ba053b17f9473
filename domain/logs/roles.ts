/**
 * What a channel measures, as a tuner names it: engine speed, boost and its target, timing and
 * knock corrections per cylinder, mixture and its target… Loggers name the same quantity many
 * ways (`Engine speed`, `nmot_w`, `Motordrehzahl`, `engine/rpm`), so a role is read from the
 * channel's name (camelCase, slashes and underscores split into words) and unit, first by the
 * logger's own words and then by a generic English vocabulary for loggers no rule knows.
 */
import type { z } from "zod";
import type { CHANNEL_ROLES, channelRoleSchema, ROLE_FAMILIES } from "../../contracts/data-logs";
import type { FormatId, LogChannel } from "./types";

export type RoleId = (typeof CHANNEL_ROLES)[number];

export type RoleFamily = (typeof ROLE_FAMILIES)[number];

/** A channel's role as the API gives it (`contracts/data-logs.ts`): one shape on both sides. */
export type ChannelRole = z.infer<typeof channelRoleSchema>;

/** The unit family each role's values are in, so a display unit can be chosen per role. */
export const ROLE_FAMILY: Record<RoleId, RoleFamily> = {
  engineSpeed: "rotation",
  vehicleSpeed: "speed",
  gear: "count",
  throttle: "percent",
  pedal: "percent",
  boost: "pressure",
  boostTarget: "pressure",
  timing: "angle",
  knockCorrection: "angle",
  mixture: "mixture",
  mixtureTarget: "mixture",
  fuelTrimShort: "percent",
  fuelTrimLong: "percent",
  intakeAirTemp: "temperature",
  coolantTemp: "temperature",
  oilTemp: "temperature",
  airMass: "mass-flow",
  load: "percent",
  injectorDuty: "percent",
  railPressure: "pressure",
  wastegateDuty: "percent",
  ethanolContent: "percent",
};

/** Human names of the roles, for pane titles. */
export const ROLE_LABEL: Record<RoleId, string> = {
  engineSpeed: "Engine speed",
  vehicleSpeed: "Vehicle speed",
  gear: "Gear",
  throttle: "Throttle",
  pedal: "Pedal",
  boost: "Boost",
  boostTarget: "Boost target",
  timing: "Timing",
  knockCorrection: "Knock correction",
  mixture: "Mixture",
  mixtureTarget: "Mixture target",
  fuelTrimShort: "Short fuel trim",
  fuelTrimLong: "Long fuel trim",
  intakeAirTemp: "Intake air temperature",
  coolantTemp: "Coolant temperature",
  oilTemp: "Oil temperature",
  airMass: "Air mass",
  load: "Load",
  injectorDuty: "Injector duty",
  railPressure: "Rail pressure",
  wastegateDuty: "Wastegate duty",
  ethanolContent: "Ethanol content",
};

type RoleInput = Pick<LogChannel, "name" | "unit"> & Partial<Pick<LogChannel, "sourceHeader" | "min" | "max">>;
type RoleChannel = RoleInput & Pick<LogChannel, "id">;

interface Rule {
  role: RoleId;
  /** Matched against the name as lower-case words separated by single spaces. */
  words: RegExp;
  /** Units the channel may have; any unit when absent. Compared lower-case. */
  units?: RegExp;
}

/** Words that make a channel a limit, a controller's internals or a state, not the quantity. */
const NOT_THE_QUANTITY =
  /\b(derivative|error|deviation|limit|limiter|pid|blip|idle|accumulator|cut|switch|state|status|flag|volt|voltage|volts|signal|source|predicted|gauge|frequency|raw|ram|adder|slot|x|per s|count|level|loss|matching|unfiltered|driveshaft|factor|protection|ratio at|base|table|output state|mapx|ambient|baro|next|selector|gear ratio|transient|generic output|load map|setpoint throttle|eta|cpu|lambda control|b)\b/;

const TARGET = /\b(target|trgt|desired|specified|sp|set ?point|sollwert|soll|des|requested|request)\b/;

const PRESSURE_UNIT = /^(|psi|psig|psia|bar|mbar|hpa|kpa|pa)$/;
const TEMPERATURE_UNIT = /^(|°?c|°?f|\*c|\*f|degc|degf)$/;
const PERCENT_UNIT = /^(|%|tps|ped|dk|percent)$/;
const ANGLE_UNIT = /^(|°|deg|degrees|°kw|°btdc|btdc|dbtdc|grad kw)$/;

/**
 * The generic vocabulary, first match wins: specific quantities (rail pressure, knock) come
 * before the broad words they contain (pressure, timing).
 */
const GENERIC: Rule[] = [
  { role: "railPressure", words: /\b(rail press|rail pressure|fp di|hpfp act|fuel rail)\b/, units: PRESSURE_UNIT },
  {
    role: "knockCorrection",
    words:
      /\b(knock retard|ignition retard|knock cyl|timing corr|ignition correction|knock correction|spark reduction|kr|wkrm|ign corr)\b/,
    units: ANGLE_UNIT,
  },
  {
    role: "timing",
    words:
      /\b(timing|ign timing|ignition angle|ignition timing|spark ?adv|advance|ignition cyl|ign \d|avg ign|zwout|ignition \d angle)\b/,
    units: ANGLE_UNIT,
  },
  {
    role: "wastegateDuty",
    words: /\b(wgdc|wastegate duty|wastegate duty cycle|wg pos final|boost duty|boost control solenoid duty|ldtvm)\b/,
  },
  {
    role: "injectorDuty",
    words: /\b(injector duty|inj duty|duty cycle ?\d?|injection stage \d outputs highest duty cycle)\b/,
  },
  {
    role: "boost",
    words:
      /\b(boost|map|mgp|manifold absolute pressure|manifold pressure|manifold press|relative manifold pressure|boost press|boost pressure|ladedruck|charge pressure|pvdks)\b/,
    units: PRESSURE_UNIT,
  },
  {
    role: "engineSpeed",
    words: /\b(engine speed|engine rpm|rpm|motordrehzahl|nmot|enginespeed)\b/,
    units: /^(|rpm|1\/min|\/min|u\/min)$/,
  },
  { role: "vehicleSpeed", words: /\b(vehicle speed|speed|mph|kph|vss|vfil)\b/, units: /^(|mph|kph|km\/h)$/ },
  { role: "gear", words: /\b(gear|current gear|selected gear|gangi)\b/, units: /^(|gear)$/ },
  { role: "pedal", words: /\b(pedal|accel pedal|accelerator|app|aps|wped)\b/, units: PERCENT_UNIT },
  { role: "throttle", words: /\b(throttle|tps|tps1|throttle plate angle|throttle angle|wdkba)\b/, units: PERCENT_UNIT },
  { role: "fuelTrimShort", words: /\b(stft|short term fuel|fuel trim short)\b/ },
  { role: "fuelTrimLong", words: /\b(ltft|long term fuel|fuel trim long|long term fuel trim)\b/ },
  {
    role: "mixture",
    words: /\b(afr|lambda|wideband|o2 wideband|air fuel|lambda act|lambda avg|lamsoni|o2 sensor lambda wide range)\b/,
    units: /^(|afr|λ|lambda|la|o2|a\/f)$/,
  },
  {
    role: "intakeAirTemp",
    words:
      /\b(iat|intake air temp|intake air temperature|inlet air temp|inlet air temperature|air temp|charge temperature|tanslin)\b/,
    units: TEMPERATURE_UNIT,
  },
  {
    role: "coolantTemp",
    words: /\b(coolant|ect|clt|coolant temp|water temp|waterf|tmotlin)\b/,
    units: TEMPERATURE_UNIT,
  },
  { role: "oilTemp", words: /\b(oil temp|oil temperature|oilf|engine oil temp)\b/, units: TEMPERATURE_UNIT },
  { role: "ethanolContent", words: /\b(ethanol|eth content|e 85|flex fuel|fuel composition)\b/, units: /^(|%)$/ },
  { role: "airMass", words: /\b(maf|mass air flow|mass airflow|air mass|airmass|luftmasse|mass flow|mshfm)\b/ },
  { role: "load", words: /\b(load|engine load|calculated load|rl)\b/ },
];

/** Words only one logger uses, read before the generic vocabulary. */
const BY_FORMAT: Partial<Record<FormatId, Rule[]>> = {
  // WinLog and ME7Logger write Bosch ME7 variable names.
  winlog: [
    { role: "engineSpeed", words: /^nmot w$/ },
    { role: "boost", words: /^pvdks w$/ },
    { role: "boostTarget", words: /^plsol w$/ },
    { role: "load", words: /^rl w$/ },
    { role: "timing", words: /^zwout$/ },
    { role: "mixture", words: /^lamsoni w$/ },
  ],
  // JB4 names its boost target plainly "target".
  jb4: [{ role: "boostTarget", words: /^target$/ }],
  me7logger: [{ role: "timing", words: /^ignition timing angle overall$/ }],
};

/** `IgnitionRetardCyl1`, `engine/rpm`, `Boost (Pre-Throttle)` → `ignition retard cyl 1`, `engine rpm`, `boost pre throttle`. */
export function roleWords(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Za-z])(\d)/g, "$1 $2")
    .toLowerCase()
    .replace(/[^a-z0-9äöüß°λ]+/g, " ")
    .trim();
}

const numberAfter = (words: string, label: RegExp): number | undefined => {
  const m = words.match(label);
  return m ? Number(m[1]) : undefined;
};

function pressureKind(words: string, unit: string, channel: RoleInput): "absolute" | "relative" {
  if (/\b(abs|absolute|psia)\b/.test(words) || unit === "psia") return "absolute";
  if (/\b(relative|rel|gauge|mgp)\b/.test(words) || unit === "psig") return "relative";
  // mbar and hPa are what absolute-reading ECUs (Bosch) write; psi is the gauge of boost meters.
  if (unit === "mbar" || unit === "hpa") return "absolute";
  // Only when the name and unit do not say, the log's own minimum decides: a pressure below
  // zero cannot be absolute, and one that never drops below 10 psi is not a gauge reading.
  if (channel.min !== undefined && channel.min < -5) return "relative";
  if (unit === "psi" || unit === "bar") return channel.min !== undefined && channel.min > 10 ? "absolute" : "relative";
  if (unit === "kpa") return "absolute";
  return /\bboost\b/.test(words) && !/\bmap\b/.test(words) ? "relative" : "absolute";
}

function describe(rule: Rule, words: string, unit: string, channel: RoleInput): ChannelRole | null {
  const target = TARGET.test(words);
  let role = rule.role;
  if (target) {
    if (role === "boost") role = "boostTarget";
    else if (role === "mixture") role = "mixtureTarget";
    else if (!/^(mixtureTarget|boostTarget)$/.test(role)) return null;
  }
  const found: ChannelRole = { role, family: ROLE_FAMILY[role] };
  const cylinder = numberAfter(words, /\b(?:cyl|cylinder|ign|ignition timing)\s?(\d{1,2})\b/);
  if (cylinder !== undefined && /^(timing|knockCorrection)$/.test(role)) found.cylinder = cylinder;
  const bank = numberAfter(words, /\bbank\s?(\d)\b/);
  if (bank !== undefined) found.bank = bank;
  if (role === "boost" || role === "boostTarget") found.pressure = pressureKind(words, unit, channel);
  if (role === "mixture" || role === "mixtureTarget") {
    found.mixture =
      /^(afr|a\/f)$/.test(unit) || (unit !== "λ" && unit !== "lambda" && unit !== "la" && /\bafr\b/.test(words))
        ? "afr"
        : "lambda";
  }
  return found;
}

/** The role of one channel, or null when the name says no quantity a tuner opens a log for. */
export function channelRole(channel: RoleInput, format?: FormatId): ChannelRole | null {
  const words = roleWords(channel.name);
  const unit = channel.unit.trim().toLowerCase();
  const own = format ? (BY_FORMAT[format] ?? []) : [];
  for (const rule of own) if (rule.words.test(words)) return describe(rule, words, unit, channel);
  if (NOT_THE_QUANTITY.test(words)) return null;
  for (const rule of GENERIC) {
    if (!rule.words.test(words)) continue;
    if (rule.units && !rule.units.test(unit)) continue;
    return describe(rule, words, unit, channel);
  }
  return null;
}

/** Channel ids by role, best first: a channel with no cylinder or bank before per-cylinder ones. */
export function pickRoles(channels: readonly RoleChannel[], format?: FormatId): Map<RoleId, string[]> {
  const picked = new Map<RoleId, string[]>();
  const ranked: { id: string; role: ChannelRole; index: number }[] = [];
  channels.forEach((channel, index) => {
    const role = channelRole(channel, format);
    if (role) ranked.push({ id: channel.id, role, index });
  });
  const rank = (r: ChannelRole) => (r.cylinder !== undefined ? 2 : 0) + (r.bank !== undefined && r.bank > 1 ? 1 : 0);
  ranked.sort((a, b) => rank(a.role) - rank(b.role) || a.index - b.index);
  for (const { id, role } of ranked) picked.set(role.role, [...(picked.get(role.role) ?? []), id]);
  return picked;
}

/** The tuner's first panes, by role; missing roles are skipped and empty panes dropped. */
const DEFAULT_PANES: RoleId[][] = [
  ["engineSpeed", "boost", "boostTarget"],
  ["timing", "knockCorrection"],
  ["mixture", "mixtureTarget"],
  ["throttle", "pedal"],
];

/** Roles whose every cylinder or bank a tuner reads side by side, not only the best channel. */
const EVERY_CHANNEL: ReadonlySet<RoleId> = new Set(["timing", "knockCorrection", "fuelTrimShort", "fuelTrimLong"]);

/**
 * The built-in layouts, by role: what a tuner opens for boost control, for ignition and for
 * fuelling. Each pane keeps one unit family, so its scale reads in one unit.
 */
const NAMED_LAYOUTS: ReadonlyArray<{ name: string; panes: RoleId[][] }> = [
  {
    name: "Boost",
    panes: [["engineSpeed"], ["boost", "boostTarget"], ["wastegateDuty"], ["throttle", "pedal"], ["intakeAirTemp"]],
  },
  { name: "Timing", panes: [["engineSpeed"], ["timing"], ["knockCorrection"], ["intakeAirTemp", "coolantTemp"]] },
  {
    name: "Fuel",
    panes: [
      ["engineSpeed"],
      ["mixture", "mixtureTarget"],
      ["fuelTrimShort", "fuelTrimLong"],
      ["injectorDuty"],
      ["railPressure"],
      ["ethanolContent"],
    ],
  },
];

/**
 * The built-in layouts this log can show: a layout's missing roles are skipped, and a layout with
 * no channel beyond engine speed is left out (it would show nothing of what it is named for).
 */
export function namedLayouts(
  channels: readonly RoleChannel[],
  format?: FormatId,
): Array<{ name: string; panes: string[][] }> {
  const picked = pickRoles(channels, format);
  return NAMED_LAYOUTS.flatMap(({ name, panes: roles }) => {
    const panes = roles
      .map((pane) =>
        pane.flatMap((role) =>
          EVERY_CHANNEL.has(role) ? (picked.get(role) ?? []) : (picked.get(role) ?? []).slice(0, 1),
        ),
      )
      .filter((pane) => pane.length > 0);
    const speed = picked.get("engineSpeed")?.[0];
    return panes.flat().some((id) => id !== speed) ? [{ name, panes }] : [];
  });
}

/**
 * Panes of channel ids to open a log with. Each role brings its best channel; timing and knock
 * correction bring every cylinder, since a tuner reads them side by side. Null when no role is
 * found, so the caller keeps its own default.
 */
export function defaultPanes(channels: readonly RoleChannel[], format?: FormatId): string[][] | null {
  const picked = pickRoles(channels, format);
  const panes = DEFAULT_PANES.map((roles) =>
    roles.flatMap((role) => {
      const ids = picked.get(role) ?? [];
      return role === "knockCorrection" ? ids : ids.slice(0, 1);
    }),
  ).filter((pane) => pane.length > 0);
  return panes.length > 0 ? panes : null;
}
