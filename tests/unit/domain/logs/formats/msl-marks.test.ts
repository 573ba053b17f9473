import { describe, expect, it } from "vitest";
import { parseLog } from "../../../../../domain/logs";
import { fileMarkersOf } from "../../../../../domain/logs/file-markers";

const msl = (rows: string[], eol = "\n") =>
  new TextEncoder().encode(
    ['"Speeduino 2023.05"', '"Capture Date: Mon Jan 01 10:00:00 2024"', "Time\tRPM\tMAP", "s\trpm\tkPa", ...rows].join(
      eol,
    ) + eol,
  );

describe("MegaLogViewer text marks", () => {
  it("keeps each MARK line as a marker at the time of the row before it, from the log's start", () => {
    const log = parseLog(
      msl([
        "10.0\t900\t35",
        "10.1\t950\t36",
        "MARK 000",
        "10.2\t1000\t40",
        "10.3\t1100\t45",
        "MARK 001",
        "10.4\t1200\t50",
      ]),
    );
    expect(log.format).toBe("megalogviewer");
    expect(log.rowCount).toBe(5);
    // Read as markers, so not reported as rows with an unreadable time.
    expect(log.warnings.filter((warning) => /unreadable time/.test(warning))).toEqual([]);
    expect(fileMarkersOf(log.meta.extra)).toEqual([
      { label: "000", seconds: 0.1 },
      { label: "001", seconds: 0.3 },
    ]);
  });

  it("still reports a data row whose time cannot be read, beside its marks", () => {
    const log = parseLog(msl(["0.0\t900\t35", "MARK 000", "x.1\t950\t36", "0.2\t1000\t40"]));
    expect(log.rowCount).toBe(2);
    expect(log.warnings).toContainEqual(
      expect.stringMatching(/1 row left out for an unreadable time \(first on line 7: "x\.1/),
    );
  });

  it("reads marks in a file with CRLF line ends, and none where the log has none", () => {
    const marked = parseLog(msl(["0.0\t900\t35", "MARK 007", "0.5\t950\t36"], "\r\n"));
    expect(fileMarkersOf(marked.meta.extra)).toEqual([{ label: "007", seconds: 0 }]);
    expect(parseLog(msl(["0.0\t900\t35", "0.5\t950\t36"])).meta.extra.markers).toBeUndefined();
  });
});
