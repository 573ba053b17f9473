import { splitCells } from "../cells";
import { cleanName, normalizeUnit } from "../headers";
import { findLine, type LogFormat } from "../layout";
import type { TextLines } from "../text-lines";
import { delimitedLayout } from "./delimited";

/** "Engine Speed(RPM) RPM": name, unit glued in parentheses, then the logger's short alias. */
const CELL = /^(.+?)\s*\(([^()]*)\)\s+(\S+)$/;

function headerIndex(lines: TextLines): number {
  return findLine(
    lines,
    (line) => {
      const cells = splitCells(line, ",");
      return /^Time\b/i.test(cells[0] ?? "") && cells.length > 1 && cells.slice(1).every((c) => CELL.test(c));
    },
    0,
    20,
  );
}

/** VolvoLogger (VolvoTools): "Time (sec)" then "Name(unit) Alias" headers. */
export const volvoLogger: LogFormat = {
  id: "volvologger",
  name: "VolvoLogger",
  detect(lines) {
    return headerIndex(lines) >= 0;
  },
  layout(lines) {
    const layout = delimitedLayout(lines, {
      format: "volvologger",
      name: this.name,
      headerIndex: headerIndex(lines),
      delimiter: ",",
    });
    for (const column of layout.columns) {
      const m = CELL.exec(column.sourceHeader);
      if (column.role !== "channel" || !m) continue;
      column.name = cleanName(m[1]);
      column.unit = normalizeUnit(m[2]);
    }
    return layout;
  },
};
