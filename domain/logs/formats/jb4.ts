import { splitCells } from "../cells";
import { emptyMeta, findLine, type LogFormat, type MetaDraft } from "../layout";
import type { TextLines } from "../text-lines";
import { delimitedLayout } from "./delimited";

/**
 * The JB4 app writes bare lower-case ids; these are its documented units (as ECUxPlot maps them):
 * pressures in psi, temperatures in °F, speed in mph.
 */
const UNITS: Record<string, string> = {
  rpm: "rpm",
  ecu_psi: "psi",
  target: "psi",
  boost: "psi",
  boost2: "psi",
  dme_bt: "psi",
  fp_h: "psi",
  fp_l: "psi",
  pedal: "%",
  throttle: "%",
  wgdc: "%",
  trims: "%",
  trims2: "%",
  fuelen: "%",
  meth: "%",
  iat: "°F",
  waterf: "°F",
  oilf: "°F",
  transf: "°F",
  mph: "mph",
  afr: "AFR",
  afr2: "AFR",
  avg_ign: "°",
};

const META_KEYS: Record<string, keyof MetaDraft> = { firmware: "appVersion", interface: "device", vin: "vin" };

function headerIndex(lines: TextLines): number {
  return findLine(lines, (line) => /^timestamp\s*,/.test(line), 0, 50);
}

/**
 * JB4: rows of setting names and values, then a lower-case header starting with "timestamp",
 * which counts tenths of a second.
 */
export const jb4: LogFormat = {
  id: "jb4",
  name: "JB4",
  detect(lines) {
    return headerIndex(lines) >= 0;
  },
  layout(lines) {
    const index = headerIndex(lines);
    const meta: MetaDraft = emptyMeta();
    for (let i = 0; i + 1 < index; i += 2) {
      const names = splitCells(lines.get(i) ?? "", ",");
      const values = splitCells(lines.get(i + 1) ?? "", ",");
      names.forEach((name, k) => {
        const value = values[k] ?? "";
        if (!name || !value) return;
        const field = META_KEYS[name.toLowerCase()];
        if (field === "appVersion" || field === "device" || field === "vin") meta[field] = value;
        else meta.extra[name] = value;
      });
    }
    return delimitedLayout(lines, {
      format: "jb4",
      name: this.name,
      headerIndex: index,
      delimiter: ",",
      timeScale: 0.1,
      unitOf: (parts) => UNITS[parts.name] ?? (/^ign_\d+$/.test(parts.name) ? "°" : parts.unit),
      meta,
    });
  },
};
