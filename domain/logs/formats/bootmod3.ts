import { splitCells } from "../cells";
import { emptyMeta, findLine, keyValue, type LogFormat, type MetaDraft } from "../layout";
import type { TextLines } from "../text-lines";
import { delimitedLayout } from "./delimited";

const TAGGED = /^\((RAM|BM3)\)\s/;

function headerIndex(lines: TextLines): number {
  return findLine(lines, (line) => splitCells(line, ",").filter((c) => TAGGED.test(c)).length >= 1, 0, 50);
}

/** bootmod3: "(RAM) Name[unit]" / "(BM3) Name[unit]" headers after "Time"; the tag is dropped from names. */
export const bootmod3: LogFormat = {
  id: "bootmod3",
  name: "bootmod3",
  detect(lines) {
    const index = headerIndex(lines);
    return index >= 0 && /^"?Time\b/i.test(lines.get(index) ?? "");
  },
  layout(lines) {
    const index = headerIndex(lines);
    const meta: MetaDraft = emptyMeta();
    for (const line of lines.slice(0, index)) {
      const kv = keyValue(line);
      if (!kv || kv[1] === "") continue;
      if (kv[0].toLowerCase() === "vin") meta.vin = kv[1];
      else meta.extra[kv[0]] = kv[1];
    }
    return delimitedLayout(lines, { format: "bootmod3", name: this.name, headerIndex: index, meta });
  },
};
