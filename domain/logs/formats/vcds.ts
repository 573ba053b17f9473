import { splitCells } from "../cells";
import { parseLoggerDate } from "../dates";
import { cleanName, normalizeUnit } from "../headers";
import { type ColumnSpec, type LogFormat, type MetaDraft, emptyMeta, findLine } from "../layout";
import type { TextLines } from "../text-lines";
import { sampleLines } from "./delimited";

function headerIndex(lines: TextLines): number {
  return findLine(lines, (line) => /^Marker\s*,\s*TIME\s*,/i.test(line) || /Group \d+ - Field \d+/.test(line), 0, 30);
}

/**
 * VCDS (Ross-Tech): a date row, an ECU row (part number, measuring mode, component), a row of group ids,
 * then three header rows — "Marker,TIME,Group 23 - Field 0,TIME,…", the field names under
 * "STAMP", and units. Every measuring group has its own TIME column; the first one is the log's
 * time and the others are read past, so a group's samples are placed at the row's first stamp
 * (VCDS reads the groups of a row in turn, a fraction of a second apart).
 */
export const vcds: LogFormat = {
  id: "vcds",
  name: "VCDS",
  detect(lines) {
    return headerIndex(lines) >= 0;
  },
  layout(lines) {
    const index = headerIndex(lines);
    const meta: MetaDraft = emptyMeta();
    const preamble = lines.slice(0, index).filter((line) => line.replace(/,/g, "").trim() !== "");
    for (const line of preamble) {
      const startedAt = parseLoggerDate(line);
      const cells = splitCells(line, ",").filter(Boolean);
      if (startedAt) meta.startedAt = startedAt;
      else if (/^G\d+/.test(cells[0] ?? "")) meta.extra.groups = cells.filter((c) => /^G\d+$/.test(c)).join(" ");
      else if (cells.length >= 2 && !meta.ecuIds) {
        meta.ecuIds = { partNumber: cells[0], component: cells[cells.length - 1] };
        // "ADVMB": the measuring mode (advanced measuring blocks), not an ECU property.
        if (cells.length > 2) meta.extra.mode = cells[1];
      }
    }
    const ids = splitCells(lines.get(index) ?? "", ",");
    const names = splitCells(lines.get(index + 1) ?? "", ",");
    const units = splitCells(lines.get(index + 2) ?? "", ",");
    let timeSeen = false;
    const columns: ColumnSpec[] = ids.map((id, i) => {
      if (/^TIME$/i.test(id)) {
        const role = timeSeen ? "skip" : "time";
        timeSeen = true;
        return { sourceHeader: id, name: "Time", unit: "s", role };
      }
      if (id === "" || /^Marker$/i.test(id)) return { sourceHeader: id, name: id, unit: "", role: "skip" };
      return {
        sourceHeader: id,
        name: cleanName(names[i] || id),
        unit: normalizeUnit(units[i] ?? ""),
        role: "channel",
      };
    });
    const first = splitCells(sampleLines(lines, index + 3, 1)[0] ?? "", ",");
    return {
      format: "vcds",
      sourceFormat: this.name,
      dataLine: index + 3,
      delimiter: ",",
      decimalComma: false,
      columns,
      timeScale: 1,
      clockTime: /:/.test(first[columns.findIndex((c) => c.role === "time")] ?? ""),
      meta,
      warnings: [],
    };
  },
};
