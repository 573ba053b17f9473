import { type LogFormat, nextNonBlank } from "../layout";
import { delimitedLayout } from "./delimited";

/**
 * WinLog (devtechnics): a "WinLog <product> v<version> - <site>" line, then ME7 variable names.
 * "TimeStamp" is the ECU clock in seconds; "logtime" (the logger's own counter) stays a channel.
 */
export const winLog: LogFormat = {
  id: "winlog",
  name: "WinLog",
  detect(lines) {
    return /^WinLog\b/.test(lines.get(0) ?? "");
  },
  layout(lines) {
    const banner = /^WinLog\s+(.*?)\s+v(\S+)/.exec(lines.get(0) ?? "");
    const layout = delimitedLayout(lines, {
      format: "winlog",
      name: this.name,
      headerIndex: nextNonBlank(lines, 1),
      delimiter: ",",
      isTime: (parts) => parts.name === "TimeStamp",
    });
    layout.meta.device = banner ? `WinLog ${banner[1]}` : "WinLog";
    if (banner) layout.meta.appVersion = banner[2];
    return layout;
  },
};
