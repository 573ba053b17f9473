import { emptyMeta, findLine, keyValue, type LogFormat, type MetaDraft } from "../layout";
import type { TextLines } from "../text-lines";
import { delimitedLayout } from "./delimited";

function headerIndex(lines: TextLines): number {
  return findLine(lines, (line) => /^"?Time"?\s*,/.test(line), 0, 20);
}

/**
 * Zeitronix Data Logger export: "Filename:" and "Date Exported:" lines, a quoted header with
 * bare names, clock-time rows. The wideband gauge's second MAP and AFR inputs repeat their names.
 */
export const zeitronix: LogFormat = {
  id: "zeitronix",
  name: "Zeitronix",
  detect(lines) {
    return (
      findLine(lines, (line) => /^(Filename:.*Zeitronix|Date Exported:)/i.test(line), 0, 5) >= 0 &&
      headerIndex(lines) >= 0
    );
  },
  layout(lines) {
    const index = headerIndex(lines);
    const meta: MetaDraft = emptyMeta();
    for (const line of lines.slice(0, index)) {
      const kv = keyValue(line);
      if (!kv?.[1]) continue;
      if (kv[0] === "Filename") meta.extra.filename = kv[1];
      else if (kv[0] === "Date Exported") meta.extra.exportedAt = kv[1];
      else meta.extra[kv[0]] = kv[1];
    }
    return delimitedLayout(lines, { format: "zeitronix", name: this.name, headerIndex: index, delimiter: ",", meta });
  },
};
