import type { FormatId, LogMeta } from "../../../../../domain/logs";

/**
 * Small files in each logger's layout, written from one known series, so a test can check that
 * what went in comes back out: names, units, values, time and metadata.
 */

export interface Series {
  /** Seconds from the first sample. */
  time: number[];
  rpm: number[];
  boost: number[];
  coolant: number[];
}

export interface GeneratedLog {
  label: string;
  bytes: Uint8Array;
  format: FormatId;
  channels: { name: string; unit: string }[];
  /** Expected values per channel, in channel order. */
  values: number[][];
  /** Expected seconds from the first sample. */
  time: number[];
  meta?: Partial<LogMeta>;
}

export function series(rows = 40, step = 0.05): Series {
  const time: number[] = [];
  const rpm: number[] = [];
  const boost: number[] = [];
  const coolant: number[] = [];
  for (let i = 0; i < rows; i++) {
    time.push(Math.round(i * step * 1000) / 1000);
    rpm.push(800 + i * 25);
    boost.push(Math.round((-0.5 + i * 0.037) * 100) / 100);
    coolant.push(Math.round((85 + (i % 7) * 0.3) * 10) / 10);
  }
  return { time, rpm, boost, coolant };
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const f = (value: number, decimals: number): string => value.toFixed(decimals);

function rows(s: Series, cell: (i: number) => (string | number)[], eol = "\n", delimiter = ","): string {
  return s.time.map((_, i) => cell(i).join(delimiter)).join(eol) + eol;
}

const basicValues = (s: Series): number[][] => [s.rpm, s.boost, s.coolant];

export function mhdFile(s: Series): GeneratedLog {
  const start = 539.607;
  const text =
    "\uFEFF#Encoding: UTF-8\n#Ecu CALID: 9VT9G40B\n#Ecu PRGID: 7616431\n#VIN: WBA3B5C50DF000001\n" +
    "Time,RPM (RPM),Boost (Bar),Coolant (*C),MHD 5.26 IJE0S ST2V7.bin\n" +
    rows(s, (i) => [f(start + s.time[i], 3), s.rpm[i], f(s.boost[i], 2), f(s.coolant[i], 1), 0]);
  return {
    label: "MHD",
    bytes: utf8(text),
    format: "mhd",
    channels: [
      { name: "RPM", unit: "RPM" },
      { name: "Boost", unit: "Bar" },
      { name: "Coolant", unit: "°C" },
    ],
    values: basicValues(s),
    time: s.time,
    meta: {
      vin: "WBA3B5C50DF000001",
      ecuIds: { CALID: "9VT9G40B", PRGID: "7616431", PRG: "IJE0S" },
      tune: "ST2V7.bin",
      device: "MHD",
      appVersion: "5.26",
      timeOffsetSeconds: start,
    },
  };
}

export function bootmod3File(s: Series): GeneratedLog {
  const text =
    "Time,(RAM) RPM[rpm],(RAM) Boost[psi],(BM3) Boost[psi],(RAM) Coolant Temp[°C]\n" +
    rows(s, (i) => [f(s.time[i], 3), s.rpm[i], f(s.boost[i], 2), f(s.boost[i] + 0.5, 2), f(s.coolant[i], 1)]);
  return {
    label: "bootmod3",
    bytes: utf8(text),
    format: "bootmod3",
    channels: [
      { name: "RPM", unit: "rpm" },
      { name: "Boost (RAM)", unit: "psi" },
      { name: "Boost (BM3)", unit: "psi" },
      { name: "Coolant Temp", unit: "°C" },
    ],
    values: [s.rpm, s.boost, s.boost.map((b) => b + 0.5), s.coolant],
    time: s.time,
  };
}

export function cobbFile(s: Series): GeneratedLog {
  const text =
    "Time (sec),Engine Speed (RPM),Boost Press. (psi),Coolant Temp. (F),Brake Switch (-)," +
    "AP Info:[AP3-SUB-004 v1.7.5.0-18018][USDM Subaru WRX (FA20DIT)][Reflash: stage2_93.ptm]\n" +
    rows(s, (i) => [f(s.time[i], 3), s.rpm[i], f(s.boost[i], 2), f(s.coolant[i], 1), i % 2, 0]);
  return {
    label: "COBB Accessport",
    bytes: utf8(text),
    format: "cobb-accessport",
    channels: [
      { name: "Engine Speed", unit: "RPM" },
      { name: "Boost Press.", unit: "psi" },
      { name: "Coolant Temp.", unit: "F" },
      { name: "Brake Switch", unit: "" },
    ],
    values: [...basicValues(s), s.time.map((_, i) => i % 2)],
    time: s.time,
    meta: {
      device: "AP3-SUB-004",
      appVersion: "1.7.5.0-18018",
      tune: "stage2_93.ptm",
      extra: {
        apInfo: "[AP3-SUB-004 v1.7.5.0-18018][USDM Subaru WRX (FA20DIT)][Reflash: stage2_93.ptm]",
        vehicle: "USDM Subaru WRX (FA20DIT)",
      },
    },
  };
}

export function hpTunersFile(s: Series): GeneratedLog {
  const text =
    "HP Tuners CSV Log File\r\nVersion: 5.0\r\n\r\n[Log Information]\r\n" +
    "Creation Time: 03/14/2024 10:20:30 AM\r\nNotes: third gear pull\r\n\r\n" +
    "[Channel Information]\r\n,12,4101,1104\r\nOffset,Engine RPM,Boost,Coolant Temp\r\ns,rpm,psi,°F\r\n\r\n" +
    "[Channel Data]\r\n" +
    rows(s, (i) => [f(s.time[i], 3), s.rpm[i], f(s.boost[i], 2), f(s.coolant[i], 1)], "\r\n");
  return {
    label: "HP Tuners",
    bytes: utf8(text),
    format: "hp-tuners",
    channels: [
      { name: "Engine RPM", unit: "rpm" },
      { name: "Boost", unit: "psi" },
      { name: "Coolant Temp", unit: "°F" },
    ],
    values: basicValues(s),
    time: s.time,
    meta: {
      startedAt: "2024-03-14T10:20:30",
      extra: { Version: "5.0", "Creation Time": "03/14/2024 10:20:30 AM", Notes: "third gear pull" },
    },
  };
}

export function romRaiderFile(s: Series): GeneratedLog {
  const text =
    "Time (msec),Engine Speed (rpm),Manifold Relative Pressure (psi),Coolant Temperature (C)\r\n" +
    rows(s, (i) => [Math.round(s.time[i] * 1000), s.rpm[i], f(s.boost[i], 2), f(s.coolant[i], 1)], "\r\n");
  return {
    label: "RomRaider (comma)",
    bytes: utf8(text),
    format: "romraider",
    channels: [
      { name: "Engine Speed", unit: "rpm" },
      { name: "Manifold Relative Pressure", unit: "psi" },
      { name: "Coolant Temperature", unit: "C" },
    ],
    values: basicValues(s),
    time: s.time,
  };
}

export function romRaiderDecimalCommaFile(s: Series): GeneratedLog {
  const comma = (v: number, d: number) => f(v, d).replace(".", ",");
  const text =
    "Time (msec);Engine Speed (rpm);Manifold Relative Pressure (psi);Coolant Temperature (C)\r\n" +
    rows(s, (i) => [Math.round(s.time[i] * 1000), s.rpm[i], comma(s.boost[i], 2), comma(s.coolant[i], 1)], "\r\n", ";");
  return { ...romRaiderFile(s), label: "RomRaider (semicolon, decimal comma)", bytes: utf8(text) };
}

export function obdLinkFile(s: Series): GeneratedLog {
  const text =
    "\uFEFF# StartTime = 01/02/2024 09:05:07.5000 AM\n" +
    "Time (sec), Engine RPM (RPM), Boost (psi), Engine coolant temperature (°F)\n" +
    rows(s, (i) => [f(s.time[i], 3), f(s.rpm[i], 2), f(s.boost[i], 2), f(s.coolant[i], 2)]);
  return {
    label: "OBDLink",
    bytes: utf8(text),
    format: "obdlink",
    channels: [
      { name: "Engine RPM", unit: "RPM" },
      { name: "Boost", unit: "psi" },
      { name: "Engine coolant temperature", unit: "°F" },
    ],
    values: basicValues(s),
    time: s.time,
    meta: { startedAt: "2024-01-02T09:05:07.500" },
  };
}

export function jb4File(s: Series): GeneratedLog {
  const text =
    "Firmware,Interface,Engine,VIN,,\r\n7/1//24,JB4 Mobile 2.1,B58 Gen1,WBA5R1C50KA000001,,\r\n" +
    "BoostSafety,PID Gain,,\r\n28,10,,\r\n" +
    "timestamp,rpm,boost,iat\r\n" +
    rows(s, (i) => [f(s.time[i] * 10, 2), s.rpm[i], f(s.boost[i], 2), f(s.coolant[i], 1)], "\r\n");
  return {
    label: "JB4",
    bytes: utf8(text),
    format: "jb4",
    channels: [
      { name: "rpm", unit: "rpm" },
      { name: "boost", unit: "psi" },
      { name: "iat", unit: "°F" },
    ],
    values: basicValues(s),
    time: s.time,
    meta: {
      appVersion: "7/1//24",
      device: "JB4 Mobile 2.1",
      vin: "WBA5R1C50KA000001",
      extra: { Engine: "B58 Gen1", BoostSafety: "28", "PID Gain": "10" },
    },
  };
}

/** Written in latin1, as ME7Logger does on Windows, so "°C" is the single byte 0xB0. */
export function me7LoggerFile(s: Series): GeneratedLog {
  const text =
    "\r\n#################\r\nLogfile created by ME7-Logger v1.20 (c) mki, 12/2010-07/2013\r\n\r\n" +
    "Used EcuDefinition file: 8E0909518AK.ecu\r\n\r\nECU identified with following data:\r\n" +
    "HWNumber    = 0261208228       (requested was 0261208228)\r\nSWNumber    = 1037368072       (requested was 1037368072)\r\n\r\n" +
    "Logging with:    20 samples/second\r\nLog started at:  14.03.2024 10:20:30.125\r\n\r\n" +
    "TimeStamp, nmot_w    , pvdks_w   , tmot      \r\n" +
    "  sec.ms , rpm       , mbar      , °C        \r\n" +
    '"TIME","EngineSpeed","BoostPressureActual",""\r\n' +
    rows(
      s,
      (i) => [
        f(s.time[i], 3).padStart(9),
        ` ${s.rpm[i]}`,
        ` ${f(1000 + s.boost[i] * 100, 1)}`,
        ` ${f(s.coolant[i], 1)}`,
      ],
      "\r\n",
    );
  return {
    label: "ME7Logger (latin1)",
    bytes: Uint8Array.from(Buffer.from(text, "latin1")),
    format: "me7logger",
    channels: [
      { name: "EngineSpeed", unit: "rpm" },
      { name: "BoostPressureActual", unit: "mbar" },
      { name: "tmot", unit: "°C" },
    ],
    values: [s.rpm, s.boost.map((b) => Math.round((1000 + b * 100) * 10) / 10), s.coolant],
    time: s.time,
    meta: {
      device: "ME7-Logger",
      appVersion: "1.20",
      ecuIds: { HWNumber: "0261208228", SWNumber: "1037368072" },
      startedAt: "2024-03-14T10:20:30.125",
    },
  };
}

export function vcdsFile(s: Series): GeneratedLog {
  const text =
    "Thursday,14,March,2024,10:20:30\r\n06J 906 026 CQ,ADVMB,2.0l R4/4V TFSI 0040,\r\n" +
    ",,G003,F0,G115,F1,G115,F2,\r\n\r\n" +
    "Marker,TIME,Group 3 - Field 0,TIME,Group 115 - Field 1,TIME,Group 115 - Field 2,\r\n" +
    ",STAMP,Engine Speed,STAMP,Boost Pressure (actual),STAMP,Coolant temperature,\r\n" +
    ",, /min,, mbar,, °C,\r\n" +
    rows(
      s,
      (i) => [
        "",
        f(1 + s.time[i], 2),
        s.rpm[i],
        f(1.01 + s.time[i], 2),
        Math.round(1000 + s.boost[i] * 1000),
        f(1.02 + s.time[i], 2),
        f(s.coolant[i], 1),
        "",
      ],
      "\r\n",
    );
  return {
    label: "VCDS",
    bytes: utf8(text),
    format: "vcds",
    channels: [
      { name: "Engine Speed", unit: "/min" },
      { name: "Boost Pressure (actual)", unit: "mbar" },
      { name: "Coolant temperature", unit: "°C" },
    ],
    values: [s.rpm, s.boost.map((b) => Math.round(1000 + b * 1000)), s.coolant],
    time: s.time,
    meta: {
      startedAt: "2024-03-14T10:20:30",
      ecuIds: { partNumber: "06J 906 026 CQ", component: "2.0l R4/4V TFSI 0040" },
      timeOffsetSeconds: 1,
    },
  };
}

export function simosToolsFile(s: Series): GeneratedLog {
  const text =
    "Time,Engine Speed (rpm),Boost (psi),Coolant Temp (°F),Comb Mode ()," +
    "SimosTools [R1.80:2025_01_02:8V0906259H (Audi S3 (Stage1_v3) - SC8V0S4300000)]\r\n" +
    rows(s, (i) => [f(100.5 + s.time[i], 3), s.rpm[i], f(s.boost[i], 2), f(s.coolant[i], 1), 3, 0], "\r\n");
  return {
    label: "SimosTools",
    bytes: utf8(text),
    format: "simostools",
    channels: [
      { name: "Engine Speed", unit: "rpm" },
      { name: "Boost", unit: "psi" },
      { name: "Coolant Temp", unit: "°F" },
      { name: "Comb Mode", unit: "" },
    ],
    values: [...basicValues(s), s.time.map(() => 3)],
    time: s.time,
    meta: {
      device: "SimosTools",
      appVersion: "R1.80",
      tune: "Stage1_v3",
      ecuIds: { partNumber: "8V0906259H", softwareVersion: "SC8V0S4300000" },
      timeOffsetSeconds: 100.5,
    },
  };
}

/** Raw Haltech integers; the log starts just before midnight to check the clock unwinds. */
export function haltechFile(s: Series): GeneratedLog {
  const start = 23 * 3600 + 59 * 60 + 59;
  const clock = (seconds: number): string => {
    const t = Math.round((start + seconds) * 1000) % 86_400_000;
    const p = (n: number, w = 2) => String(n).padStart(w, "0");
    return `${p(Math.floor(t / 3_600_000))}:${p(Math.floor(t / 60_000) % 60)}:${p(Math.floor(t / 1000) % 60)}.${p(t % 1000, 3)}`;
  };
  const mapRaw = s.boost.map((b) => Math.round((101.3 + b * 10) * 10));
  const coolantRaw = s.coolant.map((c) => Math.round((c + 273.15) * 10));
  const lambdaRaw = s.time.map((_, i) => (i === 3 ? -2147483637 : 980 + i));
  const text =
    "%DataLog%\nDataLogVersion : 1.1\nSoftware : Haltech NSP\nSoftwareVersion : 1.30.4\n" +
    "DownloadDateTime : 20240315 08:00:00\n" +
    "Channel : RPM\nID : 1\nType : EngineSpeed\nDisplayMaxMin : 10000,0\n" +
    "Channel : Manifold Pressure\nID : 2\nType : AbsPressure\nDisplayMaxMin : 4000,0\n" +
    "Channel : Coolant Temperature\nID : 3\nType : Temperature\nDisplayMaxMin : 4231,2331\n" +
    "Channel : Wideband O2 1\nID : 4\nType : AFR\nDisplayMaxMin : 2000,500\n" +
    "Log Source : 20\nLog Number : 7\nLog : 20240314 11:59:59\n" +
    rows(s, (i) => [clock(s.time[i]), s.rpm[i], mapRaw[i], coolantRaw[i], lambdaRaw[i]]);
  return {
    label: "Haltech NSP (crossing midnight)",
    bytes: utf8(text),
    format: "haltech-nsp",
    channels: [
      { name: "RPM", unit: "rpm" },
      { name: "Manifold Pressure", unit: "kPa" },
      { name: "Coolant Temperature", unit: "°C" },
      { name: "Wideband O2 1", unit: "λ" },
    ],
    values: [
      s.rpm,
      mapRaw.map((r) => r * 0.1),
      coolantRaw.map((r) => r * 0.1 - 273.15),
      lambdaRaw.map((r) => (r < 0 ? NaN : r * 0.001)),
    ],
    time: s.time,
    meta: {
      device: "Haltech NSP",
      appVersion: "1.30.4",
      startedAt: "2024-03-14T23:59:59.000",
      timeOffsetSeconds: start,
    },
  };
}

/** Sparse rows: RPM on every row, MAP on every second, coolant on every fifth. */
export function ecuMasterFile(s: Series): GeneratedLog {
  const text =
    "TIME;engine/rpm;sensors/map;sensors/clt\r\n" +
    rows(
      s,
      (i) => [f(s.time[i], 3), s.rpm[i], i % 2 === 0 ? f(s.boost[i], 2) : "", i % 5 === 1 ? f(s.coolant[i], 1) : ""],
      "\r\n",
      ";",
    );
  const hold = (values: number[], sampled: (i: number) => boolean): number[] => {
    let last = NaN;
    return values.map((v, i) => (sampled(i) ? (last = v) : last));
  };
  return {
    label: "ECUMaster (sparse)",
    bytes: utf8(text),
    format: "ecumaster",
    channels: [
      { name: "engine/rpm", unit: "" },
      { name: "sensors/map", unit: "" },
      { name: "sensors/clt", unit: "" },
    ],
    values: [s.rpm, hold(s.boost, (i) => i % 2 === 0), hold(s.coolant, (i) => i % 5 === 1)],
    time: s.time,
  };
}

export function blueDriverFile(s: Series): GeneratedLog {
  const text =
    "\uFEFFBlueDriver Data Log\nMar 14, 2024\n" +
    "Time(s), Engine RPM (rpm), Boost (psi), Coolant Temp (°C)\n" +
    rows(s, (i) => [f(s.time[i], 2), ` ${s.rpm[i]}`, ` ${f(s.boost[i], 2)}`, ` ${f(s.coolant[i], 1)}`]);
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    bytes[2 * i] = text.charCodeAt(i) & 0xff;
    bytes[2 * i + 1] = text.charCodeAt(i) >> 8;
  }
  return {
    label: "BlueDriver (UTF-16 LE)",
    bytes,
    format: "bluedriver",
    channels: [
      { name: "Engine RPM", unit: "rpm" },
      { name: "Boost", unit: "psi" },
      { name: "Coolant Temp", unit: "°C" },
    ],
    values: basicValues(s),
    time: s.time,
    meta: { startedAt: "2024-03-14" },
  };
}

export function zeitronixFile(s: Series): GeneratedLog {
  const clock = (seconds: number) => {
    const ms = Math.round((10 * 3600 + 20 * 60 + seconds) * 1000);
    return `10:20:${String(Math.floor(ms / 1000) % 60).padStart(2, "0")}.${String(ms % 1000).padStart(3, "0")}`;
  };
  const text =
    "Filename:C:\\Zeitronix\\pull.zdl\r\nDate Exported:3/14/2024 10:30:00 AM\r\n\r\n" +
    '"Time","RPM","MAP","EGT"\r\n' +
    rows(s, (i) => [clock(s.time[i]), s.rpm[i], f(s.boost[i], 2), f(s.coolant[i] * 10, 0)], "\r\n");
  return {
    label: "Zeitronix",
    bytes: utf8(text),
    format: "zeitronix",
    channels: [
      { name: "RPM", unit: "" },
      { name: "MAP", unit: "" },
      { name: "EGT", unit: "" },
    ],
    values: [s.rpm, s.boost, s.coolant.map((c) => Math.round(c * 10))],
    time: s.time,
    meta: {
      extra: { filename: "C:\\Zeitronix\\pull.zdl", exportedAt: "3/14/2024 10:30:00 AM" },
      timeOffsetSeconds: 37200,
    },
  };
}

export function evoScanFile(s: Series): GeneratedLog {
  const text =
    "LogID,LogEntryDate,LogEntryTime,LogEntrySeconds,RPM,Boost,ECT\n" +
    rows(s, (i) => [
      i + 1,
      "2024-03-14",
      `10:20:${f(30 + s.time[i], 3)}`,
      f(s.time[i], 3),
      s.rpm[i],
      f(s.boost[i], 2),
      f(s.coolant[i], 1),
    ]);
  return {
    label: "EvoScan",
    bytes: utf8(text),
    format: "evoscan",
    channels: [
      { name: "RPM", unit: "" },
      { name: "Boost", unit: "" },
      { name: "ECT", unit: "" },
    ],
    values: basicValues(s),
    time: s.time,
  };
}

export function volvoLoggerFile(s: Series): GeneratedLog {
  const text =
    "Time (sec),Engine Speed(RPM) RPM,Boost Pressure(mBar) BoostPressure,Coolant Temp(C) ECT\n" +
    rows(s, (i) => [f(s.time[i], 2), s.rpm[i], f(1000 + s.boost[i] * 100, 1), f(s.coolant[i], 1)]);
  return {
    label: "VolvoLogger",
    bytes: utf8(text),
    format: "volvologger",
    channels: [
      { name: "Engine Speed", unit: "RPM" },
      { name: "Boost Pressure", unit: "mBar" },
      { name: "Coolant Temp", unit: "C" },
    ],
    values: [s.rpm, s.boost.map((b) => Math.round((1000 + b * 100) * 10) / 10), s.coolant],
    time: s.time,
  };
}

/** Lone CR line endings, as WinLog writes them. */
export function winLogFile(s: Series): GeneratedLog {
  const text =
    "WinLog 14point7 v1.1 - www.devtechnics.com\rlogtime, TimeStamp, nmot_w, pvdks_w, tmot\r" +
    rows(
      s,
      (i) => [
        Math.round(s.time[i] * 1000) + 40,
        ` ${f(87 + s.time[i], 2)}`,
        s.rpm[i],
        f(1000 + s.boost[i] * 100, 2),
        f(s.coolant[i], 2),
      ],
      "\r",
    );
  return {
    label: "WinLog (CR line endings)",
    bytes: utf8(text),
    format: "winlog",
    channels: [
      { name: "logtime", unit: "" },
      { name: "nmot_w", unit: "" },
      { name: "pvdks_w", unit: "" },
      { name: "tmot", unit: "" },
    ],
    values: [
      s.time.map((t) => Math.round(t * 1000) + 40),
      s.rpm,
      s.boost.map((b) => Math.round((1000 + b * 100) * 100) / 100),
      s.coolant,
    ],
    time: s.time,
    meta: { device: "WinLog 14point7", appVersion: "1.1", timeOffsetSeconds: 87 },
  };
}

export function genericTabWithUnitsRow(s: Series): GeneratedLog {
  const text =
    "# exported by a home-made logger\n# Vehicle: track car\n" +
    "Time\tRPM\tBoost\tCoolant\ns\trpm\tpsi\t°C\n" +
    rows(s, (i) => [f(s.time[i], 3), s.rpm[i], f(s.boost[i], 2), f(s.coolant[i], 1)], "\n", "\t");
  return {
    label: "generic: tab separated, units row",
    bytes: utf8(text),
    format: "generic-csv",
    channels: [
      { name: "RPM", unit: "rpm" },
      { name: "Boost", unit: "psi" },
      { name: "Coolant", unit: "°C" },
    ],
    values: basicValues(s),
    time: s.time,
    meta: { extra: { Vehicle: "track car" } },
  };
}

export function genericPipeBrackets(s: Series): GeneratedLog {
  const text =
    "Seconds|Engine Speed[rpm]|Boost[bar]|Coolant[°C]\n" +
    rows(s, (i) => [f(s.time[i], 3), s.rpm[i], f(s.boost[i], 2), f(s.coolant[i], 1)], "\n", "|");
  return {
    label: "generic: pipe separated, Name[unit]",
    bytes: utf8(text),
    format: "generic-csv",
    channels: [
      { name: "Engine Speed", unit: "rpm" },
      { name: "Boost", unit: "bar" },
      { name: "Coolant", unit: "°C" },
    ],
    values: basicValues(s),
    time: s.time,
  };
}

export function genericSemicolonDecimalComma(s: Series): GeneratedLog {
  const comma = (v: number, d: number) => f(v, d).replace(".", ",");
  const text =
    "Zeit (ms);Drehzahl (1/min);Ladedruck (bar);Kühlmittel (°C)\r\n" +
    rows(s, (i) => [Math.round(s.time[i] * 1000), s.rpm[i], comma(s.boost[i], 2), comma(s.coolant[i], 1)], "\r\n", ";");
  return {
    label: "generic: semicolons, decimal commas, time in ms",
    bytes: utf8(text),
    format: "generic-csv",
    channels: [
      { name: "Drehzahl", unit: "1/min" },
      { name: "Ladedruck", unit: "bar" },
      { name: "Kühlmittel", unit: "°C" },
    ],
    values: basicValues(s),
    time: s.time,
  };
}

export const GENERATORS: ((s: Series) => GeneratedLog)[] = [
  mhdFile,
  bootmod3File,
  cobbFile,
  hpTunersFile,
  romRaiderFile,
  romRaiderDecimalCommaFile,
  obdLinkFile,
  jb4File,
  me7LoggerFile,
  vcdsFile,
  simosToolsFile,
  haltechFile,
  ecuMasterFile,
  blueDriverFile,
  zeitronixFile,
  evoScanFile,
  volvoLoggerFile,
  winLogFile,
  genericTabWithUnitsRow,
  genericPipeBrackets,
  genericSemicolonDecimalComma,
];
