import { splitCells } from "../cells";
import { readCobbApInfo } from "../identity";
import { type LogFormat, nextNonBlank } from "../layout";
import { delimitedLayout } from "./delimited";

/** COBB Accessport: "Time (sec)", "Name (unit)" headers, identity column "AP Info:[…]" last. */
export const cobbAccessport: LogFormat = {
  id: "cobb-accessport",
  name: "COBB Accessport",
  detect(lines) {
    const header = lines.get(nextNonBlank(lines, 0)) ?? "";
    return /^Time \(sec\),/.test(header) && splitCells(header, ",").some((c) => c.startsWith("AP Info:"));
  },
  layout(lines) {
    return delimitedLayout(lines, {
      format: "cobb-accessport",
      name: this.name,
      headerIndex: nextNonBlank(lines, 0),
      delimiter: ",",
      identity: readCobbApInfo,
    });
  },
};
