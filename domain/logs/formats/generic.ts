import { splitCells } from "../cells";
import { LogParseError } from "../errors";
import { cleanName } from "../headers";
import { emptyMeta, keyValue, type LogReader, type MetaDraft } from "../layout";
import { delimitedLayout, findHeaderRow } from "./delimited";

const SEARCHED_LINES = 100;

/**
 * Any other delimited file with a header: the delimiter (, ; tab |) and decimal commas are
 * sniffed from the data, units come from "Name (unit)", "Name[unit]" or a units row, and
 * "Key: value" or "#" lines above the header are kept as metadata.
 */
export const genericCsv: LogReader = {
  id: "generic-csv",
  name: "Delimited text",
  layout(lines) {
    const found = findHeaderRow(lines, SEARCHED_LINES);
    if (!found) {
      throw new LogParseError(
        "no-header",
        `No header row found in the first ${SEARCHED_LINES} lines: expected a line of column names followed by rows of numbers.`,
      );
    }
    const meta: MetaDraft = emptyMeta();
    for (const line of lines.slice(0, found.headerIndex)) {
      const kv = keyValue(line);
      if (kv?.[1]) meta.extra[kv[0]] = kv[1];
    }
    const layout = delimitedLayout(lines, {
      format: "generic-csv",
      name: this.name,
      headerIndex: found.headerIndex,
      unitsIndex: found.unitsIndex,
      dataIndex: found.dataIndex,
      meta,
    });
    // Aliases name the channels, as in ME7Logger; the header cell stays as the source.
    if (found.aliasIndex !== undefined) {
      const aliases = splitCells(lines.get(found.aliasIndex) ?? "", layout.delimiter);
      layout.columns.forEach((column, i) => {
        if (column.role === "channel" && aliases[i]) column.name = cleanName(aliases[i]);
      });
    }
    return layout;
  },
};
