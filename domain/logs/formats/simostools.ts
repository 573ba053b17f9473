import { splitCells } from "../cells";
import { readSimosToolsIdentity } from "../identity";
import { type LogFormat, nextNonBlank } from "../layout";
import { delimitedLayout } from "./delimited";

/** SimosTools (VW): "Time" (not zero based), "Name (unit)" with "()" for none, identity column last. */
export const simosTools: LogFormat = {
  id: "simostools",
  name: "SimosTools",
  detect(lines) {
    const header = lines.get(nextNonBlank(lines, 0)) ?? "";
    return splitCells(header, ",").some((c) => /^SimosTools\s*\[/.test(c));
  },
  layout(lines) {
    return delimitedLayout(lines, {
      format: "simostools",
      name: this.name,
      headerIndex: nextNonBlank(lines, 0),
      delimiter: ",",
      identity: readSimosToolsIdentity,
    });
  },
};
