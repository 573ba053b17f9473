import { splitCells } from "../cells";
import { type LogFormat, nextNonBlank } from "../layout";
import { delimitedLayout } from "./delimited";

/**
 * ECUMaster EMU: ";" separated, "TIME" first, channels named by path ("engine/rpm"), no units.
 * Rows are written whenever any channel is sampled and leave the others empty, so an empty cell
 * holds the channel's previous value; only cells before a channel's first sample are gaps.
 */
export const ecuMaster: LogFormat = {
  id: "ecumaster",
  name: "ECUMaster",
  detect(lines) {
    const header = lines.get(nextNonBlank(lines, 0)) ?? "";
    if (!/^TIME[;\t]/.test(header)) return false;
    const cells = splitCells(header, header[4]);
    return cells.slice(1).filter((c) => c.includes("/")).length * 2 >= cells.length - 1;
  },
  layout(lines) {
    const index = nextNonBlank(lines, 0);
    const layout = delimitedLayout(lines, {
      format: "ecumaster",
      name: this.name,
      headerIndex: index,
      delimiter: (lines.get(index) ?? "")[4] === "\t" ? "\t" : ";",
      decimalComma: false,
    });
    return { ...layout, holdEmpty: true };
  },
};
