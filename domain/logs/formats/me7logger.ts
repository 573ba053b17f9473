import { splitCells } from "../cells";
import { parseLoggerDate } from "../dates";
import { cleanName } from "../headers";
import { emptyMeta, findLine, type LogFormat, type MetaDraft } from "../layout";
import type { TextLines } from "../text-lines";
import { delimitedLayout } from "./delimited";

const ECU_KEYS = new Set(["HWNumber", "SWNumber", "PartNumber", "SWVersion", "EngineId", "VAGHWNumber", "ModelId"]);

function headerIndex(lines: TextLines): number {
  return findLine(lines, (line) => /^TimeStamp\s*[,;]/.test(line), 0, 100);
}

/**
 * ME7Logger: a "#" banner and "Key = value" / "Key: value" lines about the ECU, then three header
 * rows — variable names ("TimeStamp", "nmot_w"), units, and readable aliases ("EngineSpeed").
 * Channels are named by alias where there is one, else by variable.
 */
export const me7Logger: LogFormat = {
  id: "me7logger",
  name: "ME7Logger",
  detect(lines) {
    return findLine(lines, (line) => /ME7-Logger/.test(line), 0, 10) >= 0 && headerIndex(lines) >= 0;
  },
  layout(lines) {
    const index = headerIndex(lines);
    const meta: MetaDraft = emptyMeta();
    for (const line of lines.slice(0, index)) {
      const created = /created by (ME7-Logger) v(\S+)/.exec(line);
      if (created) {
        meta.device = created[1];
        meta.appVersion = created[2];
        continue;
      }
      const kv = /^([A-Za-z][\w ]*?)\s*(=|:)\s*(.*?)\s*$/.exec(line);
      if (!kv || kv[3] === "") continue;
      const [, key, , raw] = kv;
      const value = raw.replace(/\s*\(requested was .*\)$/, "");
      if (key === "Log started at") meta.startedAt = parseLoggerDate(value);
      else if (ECU_KEYS.has(key)) meta.ecuIds = { ...meta.ecuIds, [key]: value };
      else meta.extra[key] = value;
    }
    const delimiter = /^TimeStamp\s*;/.test(lines.get(index) ?? "") ? ";" : ",";
    const layout = delimitedLayout(lines, {
      format: "me7logger",
      name: this.name,
      headerIndex: index,
      unitsIndex: index + 1,
      dataIndex: index + 3,
      delimiter,
      isTime: (parts) => parts.name === "TimeStamp",
      meta,
    });
    const aliases = splitCells(lines.get(index + 2) ?? "", delimiter);
    layout.columns.forEach((column, i) => {
      if (column.role === "channel" && aliases[i]) column.name = cleanName(aliases[i]);
    });
    return layout;
  },
};
