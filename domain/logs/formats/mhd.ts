import { splitCells } from "../cells";
import { readMhdIdentity } from "../identity";
import { emptyMeta, findLine, keyValue, type LogFormat, type MetaDraft } from "../layout";
import type { TextLines } from "../text-lines";
import { delimitedLayout } from "./delimited";

const ECU_KEYS: Record<string, string> = { "ecu calid": "CALID", "ecu prgid": "PRGID" };

function headerIndex(lines: TextLines): number {
  return findLine(lines, (line) => line.trim() !== "" && !line.startsWith("#"), 0, 50);
}

/** MHD: "#Key: value" lines (CALID, PRGID, VIN), "Name (unit)" headers, "MHD <ver> <PRG> <tune>" last. */
export const mhd: LogFormat = {
  id: "mhd",
  name: "MHD",
  detect(lines) {
    const index = headerIndex(lines);
    if (index < 0) return false;
    const preamble = lines.slice(0, index).join("\n");
    const header = lines.get(index) ?? "";
    return (
      /^Time\b/i.test(header) &&
      (/^#\s*Ecu (CALID|PRGID)/im.test(preamble) || splitCells(header, ",").some((c) => /^MHD \S+ /.test(c)))
    );
  },
  layout(lines) {
    const index = headerIndex(lines);
    const meta: MetaDraft = emptyMeta();
    for (const line of lines.slice(0, index)) {
      const kv = keyValue(line);
      if (!kv || kv[1] === "") continue;
      const key = kv[0].toLowerCase();
      if (key in ECU_KEYS) meta.ecuIds = { ...meta.ecuIds, [ECU_KEYS[key]]: kv[1] };
      else if (key === "vin") meta.vin = kv[1];
      else meta.extra[kv[0]] = kv[1];
    }
    return delimitedLayout(lines, {
      format: "mhd",
      name: this.name,
      headerIndex: index,
      delimiter: ",",
      identity: readMhdIdentity,
      meta,
    });
  },
};
