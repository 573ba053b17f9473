import { looksLikeDataRow, splitCells } from "../cells";
import { parseLoggerDate } from "../dates";
import { cleanName, normalizeUnit } from "../headers";
import { type ColumnSpec, emptyMeta, findLine, type LogFormat, type MetaDraft } from "../layout";
import type { TextLines } from "../text-lines";
import { sampleLines } from "./delimited";

/** The marker column's title and the time stamp words, in the languages VCDS writes. */
const MARKER = /^(marker|markierung|marque(ur)?|marcador|marca|marcatore|markering|znacznik)$/i;
const STAMP = /^(time|stamp|zeit|marke|temps|tiempo|tempo|tijd|tid|czas)$/i;

/**
 * The row that names the marker column: "Marker,TIME,…" (English), "Markierung,Zeit,…" (German) or,
 * in the older group layout, "Marker,STAMP, /min,…" under "Group A:" rows.
 */
function markerIndex(lines: TextLines): number {
  return findLine(
    lines,
    (line) => {
      const cells = splitCells(line, ",");
      return (MARKER.test(cells[0] ?? "") && STAMP.test(cells[1] ?? "")) || /Group \d+ - Field \d+/.test(line);
    },
    0,
    40,
  );
}

/**
 * VCDS (Ross-Tech), every layout it writes: a date row, an ECU row (part number, measuring mode,
 * component), group ids, then a block of header rows above the data. In the current layout the
 * block is ids ("Group 23 - Field 0", "Loc. IDE00021"), names under "STAMP"/"MARKE" and units; in
 * the older one it is "Group A:" ids, names, a row of TIME and units under "Marker,STAMP". Every
 * group has its own time stamp column: the first group's stamps are the log's time and each other
 * group's samples are aligned to it by their own stamps (see `alignGroups`). The marker column
 * holds the markers a user set while logging: events in `meta.extra.markers`, not a channel.
 */
export const vcds: LogFormat = {
  id: "vcds",
  name: "VCDS",
  detect(lines) {
    return markerIndex(lines) >= 0;
  },
  layout(lines) {
    const marker = markerIndex(lines);
    // The header block: the non-blank rows around the marker row, down to the first data row.
    let start = marker;
    while (
      start > 0 &&
      marker - start < 4 &&
      (lines.get(start - 1) ?? "").replace(/,/g, "").trim() !== "" &&
      !isGroupIdRow(lines.get(start - 1) ?? "")
    )
      start--;
    let dataLine = marker + 1;
    while (dataLine < marker + 6) {
      const line = lines.get(dataLine);
      if (line === undefined || (line.trim() !== "" && looksLikeDataRow(splitCells(line, ","), false))) break;
      dataLine++;
    }
    const meta: MetaDraft = emptyMeta();
    readPreamble(lines.slice(0, start), meta);

    const rows = lines
      .slice(start, dataLine)
      .filter((line) => line.trim() !== "")
      .map((line) => splitCells(line, ","));
    const units = rows[rows.length - 1] ?? [];
    const above = rows.slice(0, -1);
    const width = Math.max(...rows.map((r) => r.length));
    const markerColumn = splitCells(lines.get(marker) ?? "", ",");
    const columns: ColumnSpec[] = [];
    let group = -1;
    for (let i = 0; i < width; i++) {
      const stack = rows.map((r) => r[i] ?? "");
      const sourceHeader = stack.filter(Boolean).join(" | ");
      if (i === 0 && MARKER.test(markerColumn[0] ?? "")) {
        columns.push({ sourceHeader, name: "Marker", unit: "", role: "event" });
      } else if (stack.some((cell) => STAMP.test(cell))) {
        group++;
        columns.push({ sourceHeader, name: "Time", unit: "s", role: group === 0 ? "time" : "stamp", group });
      } else {
        // The name is the lowest non-empty cell above the units row ("Vehicle speed" under "Group 23 - Field 0").
        const name =
          [...above]
            .reverse()
            .map((r) => r[i] ?? "")
            .find((cell) => cell !== "" && !/^Group [A-Z\d]+:?$/i.test(cell)) ?? "";
        if (name === "" || group < 0)
          columns.push({ sourceHeader, name: name || `Column ${i + 1}`, unit: "", role: "skip" });
        else
          columns.push({
            sourceHeader,
            name: cleanName(name.replace(/^'/, "")),
            unit: normalizeUnit(units[i] ?? ""),
            role: "channel",
            group,
          });
      }
    }
    const groups = readGroupIds(rows);
    if (groups) meta.extra.groups = meta.extra.groups ?? groups;
    if (group > 0) meta.extra.timeSource = "first group's stamps; other groups aligned by their own stamps";
    const first = splitCells(sampleLines(lines, dataLine, 1)[0] ?? "", ",");
    return {
      format: "vcds",
      sourceFormat: this.name,
      dataLine,
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

/** ",,G004,F0,G026,F0,…": the measured groups, listed above the header block. */
function isGroupIdRow(line: string): boolean {
  return splitCells(line, ",").some((c) => /^G\d+$/.test(c));
}

function readPreamble(preamble: string[], meta: MetaDraft): void {
  for (const line of preamble) {
    if (line.replace(/,/g, "").trim() === "") continue;
    const cells = splitCells(line, ",").filter(Boolean);
    const startedAt =
      parseLoggerDate(line) ??
      parseLoggerDate(
        cells
          .slice(0, 5)
          .join(",")
          .replace(/:\d+-VCID.*$/, ""),
      );
    if (startedAt && !meta.startedAt) {
      meta.startedAt = startedAt;
      for (const cell of cells.slice(4)) {
        const kv = /^([^:]+):\s*(.*)$/.exec(cell);
        if (kv && !/^\d/.test(cell)) meta.extra[kv[1].trim()] = kv[2].trim();
        const vcid = /VCID:(\S+)/.exec(cell);
        if (vcid) meta.extra.VCID = vcid[1];
      }
    } else if (/^G\d+/.test(cells[0] ?? "")) meta.extra.groups = cells.filter((c) => /^G\d+$/.test(c)).join(" ");
    else if (cells.length >= 2 && !meta.ecuIds) {
      meta.ecuIds = { partNumber: cells[0], component: cells[cells.length - 1] };
      // "ADVMB": the measuring mode (advanced measuring blocks), not an ECU property.
      if (cells.length > 2) meta.extra.mode = cells[1];
    }
  }
}

/** The older layout's "Group A:,'003" pairs, as "A:003 B:020 C:026". */
function readGroupIds(rows: string[][]): string | undefined {
  for (const row of rows) {
    const pairs: string[] = [];
    row.forEach((cell, i) => {
      const m = /^Group ([A-Z]):?$/i.exec(cell);
      if (m) pairs.push(`${m[1]}:${(row[i + 1] ?? "").replace(/^'/, "")}`);
    });
    if (pairs.length > 0) return pairs.join(" ");
  }
  return undefined;
}
