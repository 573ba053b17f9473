import { parseLoggerDate } from "../dates";
import { emptyMeta, findLine, type LogFormat, type MetaDraft } from "../layout";
import type { TextLines } from "../text-lines";
import { delimitedLayout } from "./delimited";

function headerIndex(lines: TextLines): number {
  return findLine(lines, (line) => /^Time\s*\(s\)\s*,/i.test(line), 0, 20);
}

/** BlueDriver: UTF-16 with BOM, title lines ("BlueDriver Data Log", a date), then "Time(s), Name (unit), …". */
export const blueDriver: LogFormat = {
  id: "bluedriver",
  name: "BlueDriver",
  detect(lines) {
    return /BlueDriver/i.test(lines.get(0) ?? "") && headerIndex(lines) >= 0;
  },
  layout(lines) {
    const index = headerIndex(lines);
    const meta: MetaDraft = emptyMeta();
    for (const line of lines.slice(0, index)) {
      const date = parseLoggerDate(line);
      if (date) meta.startedAt = date;
      else if (line.trim()) meta.extra.title = line.trim();
    }
    return delimitedLayout(lines, { format: "bluedriver", name: this.name, headerIndex: index, delimiter: ",", meta });
  },
};
