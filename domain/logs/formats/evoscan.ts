import { splitCells } from "../cells";
import { findLine, type LogFormat } from "../layout";
import type { TextLines } from "../text-lines";
import { delimitedLayout } from "./delimited";

const BOOKKEEPING = new Set(["logid", "logentrydate", "logentrytime"]);

function headerIndex(lines: TextLines): number {
  return findLine(lines, (line) => {
    const cells = splitCells(line, ",");
    return cells.includes("LogID") && cells.includes("LogEntrySeconds");
  });
}

/**
 * EvoScan: "LogID,LogEntryDate,LogEntryTime,LogEntrySeconds,…". Time is LogEntrySeconds; the
 * row counter and the date/time text columns are bookkeeping, not channels.
 */
export const evoScan: LogFormat = {
  id: "evoscan",
  name: "EvoScan",
  detect(lines) {
    return headerIndex(lines) >= 0;
  },
  layout(lines) {
    return delimitedLayout(lines, {
      format: "evoscan",
      name: this.name,
      headerIndex: headerIndex(lines),
      delimiter: ",",
      isTime: (parts) => parts.name === "LogEntrySeconds",
      skip: (parts) => BOOKKEEPING.has(parts.name.toLowerCase()),
    });
  },
};
