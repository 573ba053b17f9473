import { type LogFormat, nextNonBlank } from "../layout";
import { delimitedLayout } from "./delimited";

/** RomRaider logger: "Time (msec)" first, "," or ";" separated, decimal commas in some locales. */
export const romRaider: LogFormat = {
  id: "romraider",
  name: "RomRaider",
  detect(lines) {
    return /^Time \(msec\)\s*[,;]/.test(lines.get(nextNonBlank(lines, 0)) ?? "");
  },
  layout(lines) {
    return delimitedLayout(lines, { format: "romraider", name: this.name, headerIndex: nextNonBlank(lines, 0) });
  },
};
