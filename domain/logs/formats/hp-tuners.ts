import { splitCells } from "../cells";
import { parseLoggerDate } from "../dates";
import { LogParseError } from "../errors";
import { emptyMeta, findLine, keyValue, type LogFormat, type MetaDraft } from "../layout";
import type { TextLines } from "../text-lines";
import { delimitedLayout } from "./delimited";

function section(lines: TextLines, name: string): number {
  return findLine(lines, (line) => line.trim() === `[${name}]`, 0, 500);
}

/**
 * HP Tuners VCM Scanner CSV: "Key: value" lines, then "[Channel Information]" (a row of channel
 * ids, a row of names starting with "Offset", a row of units), then "[Channel Data]".
 */
export const hpTuners: LogFormat = {
  id: "hp-tuners",
  name: "HP Tuners",
  detect(lines) {
    return section(lines, "Channel Information") >= 0 && section(lines, "Channel Data") >= 0;
  },
  layout(lines) {
    const info = section(lines, "Channel Information");
    const data = section(lines, "Channel Data");
    const names = findLine(lines, (line) => /^"?Offset"?\s*,/i.test(line), info + 1, Math.max(1, data - info - 1));
    if (names < 0) {
      throw new LogParseError(
        "no-header",
        `No "Offset" row of channel names under [Channel Information] (line ${info + 1}).`,
        info + 1,
      );
    }
    const meta: MetaDraft = emptyMeta();
    for (const line of lines.slice(0, info)) {
      const kv = keyValue(line);
      if (!kv || kv[1] === "") continue;
      const key = kv[0].toLowerCase();
      if (key === "creation time") meta.startedAt = parseLoggerDate(kv[1]);
      else if (key === "vin") meta.vin = kv[1];
      if (key !== "vin") meta.extra[kv[0]] = kv[1];
    }
    const ids = splitCells(lines.get(names - 1) ?? "", ",");
    const layout = delimitedLayout(lines, {
      format: "hp-tuners",
      name: this.name,
      headerIndex: names,
      unitsIndex: names + 1 < data ? names + 1 : undefined,
      dataIndex: data + 1,
      delimiter: ",",
      isTime: (parts) => parts.name.toLowerCase() === "offset",
      meta,
    });
    // Channel ids tell apart channels that share a name (two "Engine RPM" from different PIDs).
    if (names - 1 > info) {
      layout.columns.forEach((column, i) => {
        if (column.role === "channel" && ids[i]) column.sourceHeader = `${column.sourceHeader} [${ids[i]}]`;
      });
    }
    return layout;
  },
};
