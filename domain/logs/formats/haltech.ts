import { parseLoggerDate } from "../dates";
import { LogParseError } from "../errors";
import { cleanName } from "../headers";
import { type ColumnSpec, emptyMeta, findLine, keyValue, type LogFormat, type MetaDraft } from "../layout";

/**
 * Haltech NSP stores each channel as a scaled integer whose meaning follows its "Type"
 * (Haltech CAN broadcast conventions): value = raw × scale + offset, in the unit given.
 * Types not listed are kept raw and named in a warning.
 */
const TYPES: Record<string, { scale: number; offset: number; unit: string }> = {
  EngineSpeed: { scale: 1, offset: 0, unit: "rpm" },
  AbsPressure: { scale: 0.1, offset: 0, unit: "kPa" },
  Pressure: { scale: 0.1, offset: -101.3, unit: "kPa" },
  Percentage: { scale: 0.1, offset: 0, unit: "%" },
  Angle: { scale: 0.1, offset: 0, unit: "°" },
  BatteryVoltage: { scale: 0.001, offset: 0, unit: "V" },
  Temperature: { scale: 0.1, offset: -273.15, unit: "°C" },
  Speed: { scale: 0.1, offset: 0, unit: "km/h" },
  AFR: { scale: 0.001, offset: 0, unit: "λ" },
  Decibel: { scale: 0.01, offset: 0, unit: "dB" },
  Time_us: { scale: 0.001, offset: 0, unit: "ms" },
  Time_ms: { scale: 1, offset: 0, unit: "ms" },
  Frequency: { scale: 1, offset: 0, unit: "Hz" },
  Gear: { scale: 1, offset: 0, unit: "" },
  Raw: { scale: 1, offset: 0, unit: "" },
};

/**
 * Haltech fills a channel with codes just above the 32-bit minimum (-2147483637, -2147483617…)
 * when a sensor has no reading — a wideband warming up, a wheel-speed input not wired.
 */
const NO_READING = -2147483648 + 1024;

const META_KEYS: Record<string, string> = {
  DataLogVersion: "dataLogVersion",
  DownloadDateTime: "downloadedAt",
  "Log Source": "logSource",
  "Log Number": "logNumber",
  Log: "loggedAt",
};

/**
 * Haltech NSP export: "%DataLog%", "Key : value" lines, one "Channel / ID / Type / DisplayMaxMin"
 * block per channel, then data rows with no header: a clock time and one cell per channel.
 */
export const haltechNsp: LogFormat = {
  id: "haltech-nsp",
  name: "Haltech NSP",
  detect(lines) {
    return (lines.get(0) ?? "").trim() === "%DataLog%";
  },
  layout(lines) {
    const dataLine = findLine(lines, (line) => /^\d{1,2}:\d{2}:\d{2}/.test(line), 1, 20_000);
    if (dataLine < 0) {
      throw new LogParseError("no-data", "No data rows: Haltech rows start with a clock time (hh:mm:ss.fff).");
    }
    const meta: MetaDraft = emptyMeta();
    const columns: ColumnSpec[] = [{ sourceHeader: "Time", name: "Time", unit: "s", role: "time" }];
    const unconverted = new Set<string>();
    let logDate: string | undefined;
    for (const line of lines.slice(1, dataLine)) {
      const kv = keyValue(line);
      if (!kv) continue;
      const [key, value] = kv;
      const channel = columns[columns.length - 1];
      if (key === "Channel") {
        columns.push({
          sourceHeader: value,
          name: cleanName(value),
          unit: "",
          role: "channel",
          noReadingAtOrBelow: NO_READING,
        });
      } else if (key === "Type" && channel.role === "channel") {
        const type = TYPES[value];
        if (type) Object.assign(channel, type);
        else unconverted.add(value);
      } else if (key === "ID" && channel.role === "channel") {
        channel.sourceHeader = `${channel.name} [${value}]`;
      } else if (key === "Software") meta.device = value;
      else if (key === "SoftwareVersion") meta.appVersion = value;
      else if (key in META_KEYS && value) {
        meta.extra[META_KEYS[key]] = value;
        if (key === "Log") logDate = parseLoggerDate(value)?.slice(0, 10);
      }
    }
    const warnings = unconverted.size
      ? [`Haltech channel types kept in raw units (no known scaling): ${[...unconverted].sort().join(", ")}.`]
      : [];
    return {
      format: "haltech-nsp",
      sourceFormat: this.name,
      dataLine,
      delimiter: ",",
      decimalComma: false,
      columns,
      timeScale: 1,
      clockTime: true,
      // The "Log" line's clock is 12-hour without AM/PM; the date is right and the first row has the time.
      meta: logDate ? { ...meta, startedAt: logDate } : meta,
      warnings,
    };
  },
};
