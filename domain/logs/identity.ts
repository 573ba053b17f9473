import type { MetaDraft } from "./layout";

/**
 * Identity columns: some loggers put the device, firmware and tune in the last header cell over
 * a column of zeros. They describe the log, so they become metadata and never a channel.
 */

/**
 * The firmware's signature line of a MegaLogViewer log ("speeduino 202006-dev: Speeduino
 * 2020.06-dev", "rusEFI master.2024.05.01…"): kept whole, its first two words are device and version.
 */
export function readFirmwareSignature(line: string, meta: MetaDraft): void {
  meta.extra.firmware = line;
  const sig = /^(\S+)\s+([^\s:]+)/.exec(line);
  if (sig) {
    meta.device = sig[1];
    meta.appVersion = sig[2];
  }
}

function setEcuId(meta: MetaDraft, key: string, value: string | undefined): void {
  if (!value) return;
  meta.ecuIds = { ...meta.ecuIds, [key]: value };
}

/** COBB: "AP Info:[AP3-VLK-002 v1.7.3.1-16762][USDM Volkswagen … (CXCA 5G09C0BB01)][Reflash: map.ptm]". */
export function readCobbApInfo(cell: string, meta: MetaDraft): boolean {
  const m = /^AP Info:\s*(.*)$/.exec(cell.trim());
  if (!m) return false;
  const groups = [...m[1].matchAll(/\[([^\]]*)\]/g)].map((g) => g[1].trim());
  meta.extra.apInfo = m[1];
  for (const group of groups) {
    const reflash = /^Reflash:\s*(.*)$/.exec(group);
    const device = /^(\S+)\s+v(\d\S*)$/.exec(group);
    if (reflash) meta.tune = reflash[1];
    else if (device && !meta.device) {
      meta.device = device[1];
      meta.appVersion = device[2];
    } else if (!meta.extra.vehicle) meta.extra.vehicle = group;
  }
  return true;
}

/** MHD: "MHD <version> … <PRG> <tune>", e.g. "MHD 5.26 IJE0S ST2V7.bin". */
export function readMhdIdentity(cell: string, meta: MetaDraft): boolean {
  const tokens = cell.trim().split(/\s+/);
  if (tokens[0] !== "MHD" || tokens.length < 3 || !/^v?\d/.test(tokens[1])) return false;
  meta.device = "MHD";
  meta.appVersion = tokens[1].replace(/^v/, "");
  meta.tune = tokens[tokens.length - 1];
  if (tokens.length >= 4) setEcuId(meta, "PRG", tokens[tokens.length - 2]);
  meta.extra.mhdInfo = cell.trim();
  return true;
}

/**
 * SimosTools: "SimosTools [R1.74:2025_10_24:5G0906259L (VW Golf (IS48_FF_…_V5) - SC800S5000000)]":
 * app release, date, ECU part number, then vehicle, tune and software version.
 */
export function readSimosToolsIdentity(cell: string, meta: MetaDraft): boolean {
  const m = /^SimosTools\s*\[(.*)\]$/.exec(cell.trim());
  if (!m) return false;
  meta.device = "SimosTools";
  meta.extra.simosToolsInfo = m[1];
  const parts = /^([^:]+):([^:]+):(\S+)\s*(?:\((.*)\))?$/.exec(m[1]);
  if (!parts) return true;
  meta.appVersion = parts[1];
  meta.extra.simosToolsDate = parts[2];
  setEcuId(meta, "partNumber", parts[3]);
  const detail = parts[4] ? /^(.*?)\s*\((.*)\)\s*-\s*(\S+)$/.exec(parts[4]) : null;
  if (detail) {
    meta.extra.vehicle = detail[1];
    meta.tune = detail[2];
    setEcuId(meta, "softwareVersion", detail[3]);
  }
  return true;
}

/** "bootmod3_2.00.012_unknown", "Logger v1.4", "rusEFI 2024.05.01": a name, a dotted version, maybe more. */
const NAMED_VERSION = /^([A-Za-z][\w .-]*?)[\s_:-]+v?(\d+(?:\.\d+)+)(?:[\s_-]+(.*))?$/i;
const VERSION_WORD = /\b(app ?version|version|ver|firmware|fw|build|release)\b/i;
const LOG_ID = /^[0-9a-f]{8,}$/i;

/** A header cell that names a version however the logger spells it ("Version", "FW", "bootmod3_2.00.012"). */
export function isVersionName(cell: string): boolean {
  const text = cell.trim();
  return NAMED_VERSION.test(text) || VERSION_WORD.test(text);
}

/**
 * Identity that is not a channel — a header cell with no data under it, or a constant column
 * named like a version — goes to metadata: a "name version" cell gives `device` and `appVersion`,
 * a long hex cell is the log's id, and `value` (the column's constant text) is kept under the header.
 */
export function readGenericIdentity(cell: string, meta: MetaDraft, value = ""): void {
  const text = cell.trim();
  const named = NAMED_VERSION.exec(text);
  if (named) {
    if (!meta.device) meta.device = named[1].trim();
    if (!meta.appVersion) meta.appVersion = named[2];
    meta.extra.identity = meta.extra.identity ? `${meta.extra.identity}; ${text}` : text;
  } else if (LOG_ID.test(text) && !value) {
    meta.extra.logId = text;
  } else if (!value) {
    meta.extra.identity = meta.extra.identity ? `${meta.extra.identity}; ${text}` : text;
  }
  if (value && !/^[-+]?0*\.?0*$/.test(value)) {
    meta.extra[text] = value;
    if (!meta.appVersion && VERSION_WORD.test(text)) meta.appVersion = value;
  }
}
