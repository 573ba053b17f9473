import { parseLoggerDate } from "../dates";
import { emptyMeta, findLine, keyValue, type LogFormat, type MetaDraft } from "../layout";
import type { TextLines } from "../text-lines";
import { delimitedLayout } from "./delimited";

function headerIndex(lines: TextLines): number {
  return findLine(lines, (line) => line.trim() !== "" && !line.startsWith("#"), 0, 50);
}

/** OBDLink: "# StartTime = …" lines, then "Time (sec), Name (unit), …" with a space after commas. */
export const obdLink: LogFormat = {
  id: "obdlink",
  name: "OBDLink",
  detect(lines) {
    return findLine(lines, (line) => /^#\s*StartTime\s*=/.test(line), 0, 10) >= 0;
  },
  layout(lines) {
    const index = headerIndex(lines);
    const meta: MetaDraft = emptyMeta();
    for (const line of lines.slice(0, index)) {
      const kv = keyValue(line);
      if (!kv || kv[1] === "") continue;
      if (kv[0] === "StartTime") meta.startedAt = parseLoggerDate(kv[1]);
      meta.extra[kv[0]] = kv[1];
    }
    return delimitedLayout(lines, { format: "obdlink", name: this.name, headerIndex: index, delimiter: ",", meta });
  },
};
