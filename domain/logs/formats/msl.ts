import { splitCells } from "../cells";
import { readFirmwareSignature } from "../identity";
import { emptyMeta, findLine, type LogFormat, type MetaDraft } from "../layout";
import type { TextLines } from "../text-lines";
import { delimitedLayout } from "./delimited";
import { readMslMarks } from "./msl-marks";

function headerIndex(lines: TextLines): number {
  return findLine(lines, (line) => /^"?Time"?\t/.test(line), 0, 20);
}

/**
 * MegaLogViewer text logs (.msl, TunerStudio / Speeduino / rusEFI / MegaSquirt): quoted lines
 * (firmware signature, "Capture Date: …"), a tab-separated header starting "Time", a row of units,
 * then data. "MARK nnn" lines among the data are the markers set while logging.
 */
export const msl: LogFormat = {
  id: "megalogviewer",
  name: "MegaLogViewer",
  detect(lines) {
    const index = headerIndex(lines);
    return index > 0 && /^"/.test(lines.get(0) ?? "") && splitCells(lines.get(index + 1) ?? "", "\t").length > 1;
  },
  layout(lines) {
    const index = headerIndex(lines);
    const meta: MetaDraft = emptyMeta();
    lines.slice(0, index).forEach((raw, i) => {
      const line = raw.trim().replace(/^"|"$/g, "");
      const kv = /^([A-Za-z][\w ]{0,30}):\s*(.*)$/.exec(line);
      if (i === 0 && !kv) readFirmwareSignature(line, meta);
      else if (kv) meta.extra[kv[1]] = kv[2];
      else if (line) meta.extra[`line ${i + 1}`] = line;
    });
    const firstTime = Number(splitCells(lines.get(index + 2) ?? "", "\t")[0]);
    const marks = readMslMarks(lines.bytes, lines.startOf(index + 2), Number.isFinite(firstTime) ? firstTime : 0);
    if (marks) meta.extra.markers = marks;
    const layout = delimitedLayout(lines, {
      format: "megalogviewer",
      name: this.name,
      headerIndex: index,
      unitsIndex: index + 1,
      delimiter: "\t",
      isTime: (parts, i) => i === 0 && /^time$/i.test(parts.name),
      timeScale: 1,
      meta,
    });
    return { ...layout, markLinePrefix: "MARK" };
  },
};
