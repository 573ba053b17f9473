import { describe, expect, it } from "vitest";
import { type FormatId, LogParseError, type ParseOptions, parseLog } from "../../../../domain/logs";

const text = (s: string) => new TextEncoder().encode(s);

function failure(bytes: Uint8Array, options?: ParseOptions): LogParseError {
  try {
    parseLog(bytes, options);
  } catch (error) {
    if (error instanceof LogParseError) return error;
    throw error;
  }
  throw new Error("expected parseLog to throw a LogParseError");
}

const header = "Time (s),RPM (rpm),Boost (psi)\n";
const goodRows = (n: number, from = 0) =>
  `${Array.from({ length: n }, (_, i) => `${((from + i) * 0.1).toFixed(1)},${800 + i},${(i * 0.01).toFixed(2)}`).join(
    "\n",
  )}\n`;

describe("files that are refused", () => {
  it("an empty file", () => {
    expect(failure(new Uint8Array(0))).toMatchObject({ code: "empty", message: "The file is empty." });
  });

  it("a file of blank lines, or a BOM alone", () => {
    expect(failure(text(" \r\n\n\t\n")).code).toBe("empty");
    expect(failure(Uint8Array.of(0xef, 0xbb, 0xbf)).code).toBe("empty");
    expect(failure(Uint8Array.of(0xff, 0xfe)).code).toBe("empty");
  });

  it("binary junk with NUL bytes (a PNG uploaded by mistake)", () => {
    const png = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52);
    const error = failure(png);
    expect(error.code).toBe("binary");
    expect(error.message).toMatch(/NUL byte at offset 8/);
  });

  it("binary junk without NULs: mostly control characters", () => {
    const junk = new Uint8Array(4096);
    for (let i = 0; i < junk.length; i++) junk[i] = i % 3 === 0 ? 0x41 : 1 + (i % 7);
    const error = failure(junk);
    expect(error.code).toBe("binary");
    expect(error.message).toMatch(/control characters/);
  });

  it("text with no header row", () => {
    expect(failure(text("just some notes\nabout the car\n")).code).toBe("no-header");
    expect(failure(text("1,2,3\n4,5,6\n7,8,9\n")).message).toMatch(/No header row found in the first 100 lines/);
  });

  it("a header with no data rows under it", () => {
    const error = failure(text("#VIN: X\n#Ecu PRGID: 1\nTime,RPM (rpm),MHD 5.26 ABC tune.bin\n"));
    expect(error).toMatchObject({ code: "no-data", line: 4 });
    expect(error.message).toBe("No data rows after the header on line 3.");
  });

  it("a time column without numbers, naming the line", () => {
    const file = "Time (sec),RPM (RPM),AP Info:[AP3 v1.0][car][Reflash: x.ptm]\nstart,800,0\nmiddle,900,0\n";
    const error = failure(text(file), { format: "cobb-accessport" });
    expect(error).toMatchObject({ code: "no-time", line: 2 });
    expect(error.message).toBe('The time column "Time (sec)" has no numbers: line 2 reads "start,800,0".');
  });

  it("ragged rows beyond a few, listing their line numbers", () => {
    const rows = Array.from({ length: 20 }, (_, i) => (i % 2 ? `${i * 0.1},${800 + i}` : `${i * 0.1},${800 + i},0.5`));
    const error = failure(text(`${header + rows.join("\n")}\n`));
    expect(error).toMatchObject({ code: "ragged", line: 3 });
    expect(error.message).toBe(
      "10 rows do not have the header's 3 cells: line 3 has 2, line 5 has 2, line 7 has 2, line 9 has 2, line 11 has 2 and 5 more.",
    );
  });

  it("too many columns", () => {
    const wide = `Time,${Array.from({ length: 3000 }, (_, i) => `C${i}`).join(",")}\n`;
    const row = `0,${Array.from({ length: 3000 }, () => "1").join(",")}\n`;
    const error = failure(text(wide + row + row));
    expect(error).toMatchObject({ code: "too-many-columns", line: 1 });
    expect(error.message).toBe("Line 1 has 3001 columns; logs of up to 2048 columns are accepted.");
    expect(failure(text(header + goodRows(3)), { maxColumns: 2 }).code).toBe("too-many-columns");
  });

  it("a time column and nothing else readable", () => {
    const error = failure(text("Time,Gear\n0,P\n0.1,D\n"));
    expect(error).toMatchObject({ code: "no-data", line: 1 });
    expect(error.message).toBe("No column besides time has readable numbers (header on line 1).");
  });

  it("a Haltech preamble with no data rows", () => {
    const error = failure(text("%DataLog%\nDataLogVersion : 1.1\nChannel : RPM\nID : 1\nType : EngineSpeed\n"));
    expect(error.code).toBe("no-data");
  });

  it("an unknown format id passed as an option", () => {
    expect(failure(text(header + goodRows(3)), { format: "nonsense" as FormatId }).code).toBe("bad-format");
  });
});

describe("damage that is tolerated and reported", () => {
  it("a few ragged rows: missing cells become gaps and the lines are named", () => {
    const file = `${header + goodRows(50)}5.0,900\n${goodRows(50, 51)}`;
    const log = parseLog(text(file));
    expect(log.rowCount).toBe(101);
    expect(log.columns[1][50]).toBeNaN();
    expect(log.columns[0][50]).toBe(900);
    expect(log.channels[1].gaps).toBe(1);
    expect(log.warnings).toContain("1 row without the header's 3 cells (missing cells are gaps): line 52 has 2.");
  });

  it("a truncated last line is dropped with a warning", () => {
    const file = `${header + goodRows(10)}1.0,81`;
    const log = parseLog(text(file));
    expect(log.rowCount).toBe(10);
    expect(log.warnings).toContain("The last line (12) is cut short at 2 of 3 cells and was left out.");
  });

  it("a complete last line without a line break is kept", () => {
    const log = parseLog(text(`${header}0.0,800,0.1\n0.1,810,0.25`));
    expect(log.rowCount).toBe(2);
    expect(log.columns[1][1]).toBeCloseTo(0.25, 6);
    expect(log.warnings).toEqual([]);
  });

  it("non-numeric cells become gaps, counted, never zeros", () => {
    const file = `${header}0.0,800,0.1\n0.1,N/A,0.2\n0.2,820,ERR\n0.3,830,\n0.4,840,0.5\n`;
    const log = parseLog(text(file));
    expect(Array.from(log.columns[0])).toEqual([800, NaN, 820, 830, 840]);
    expect(log.columns[1][2]).toBeNaN();
    expect(log.columns[1][3]).toBeNaN();
    expect(log.channels.map((c) => c.gaps)).toEqual([1, 2]);
    expect(log.channels[0]).toMatchObject({ min: 800, max: 840, mean: 822.5 });
    expect(log.warnings).toEqual([
      '"RPM": 1 unreadable cell shown as gaps (first on line 3: "N/A").',
      '"Boost": 1 unreadable cell shown as gaps (first on line 4: "ERR").',
    ]);
  });

  it("duplicate header names get unique ids and a warning (a tuner's two MAP inputs)", () => {
    const log = parseLog(text("Time,MAP,AFR,MAP,map\n0,1,14.7,2,3\n1,1,14.7,2,3\n"));
    expect(log.channels.map((c) => [c.id, c.name])).toEqual([
      ["map", "MAP"],
      ["afr", "AFR"],
      ["map-2", "MAP #2"],
      ["map-3", "map #3"],
    ]);
    expect(log.warnings).toEqual([
      'Duplicate column name "MAP" on line 1: the repeat is shown as "MAP #2".',
      'Duplicate column name "map" on line 1: the repeat is shown as "map #3".',
    ]);
  });

  it("a column with no numbers at all is left out with a warning", () => {
    const log = parseLog(text("Time,RPM,Gear\n0,800,P\n0.1,810,D\n0.2,820,D\n"));
    expect(log.channels.map((c) => c.name)).toEqual(["RPM"]);
    expect(log.warnings).toContain('Column "Gear" has no readable values and is left out.');
  });

  it("rows with an unreadable time inside the data are skipped and counted", () => {
    const log = parseLog(text(`${header}0.0,800,0.1\n--,810,0.2\n0.2,820,0.3\n`));
    expect(log.rowCount).toBe(2);
    expect(Array.from(log.columns[0])).toEqual([800, 820]);
    expect(log.warnings).toContain('1 row left out for an unreadable time (first on line 3: "--,810,0.2").');
  });

  it("a footer of key/value lines becomes metadata", () => {
    const log = parseLog(text(`${header + goodRows(3)}\nVIN: WVWZZZ1KZAW000001\nLogger: Example 2.0\n`));
    expect(log.rowCount).toBe(3);
    expect(log.meta.extra).toMatchObject({ VIN: "WVWZZZ1KZAW000001", Logger: "Example 2.0" });
    expect(log.warnings).toEqual([]);
  });

  it("no time column at all: time is the row index, with a warning", () => {
    const log = parseLog(text("RPM,Boost\n800,0.1\n900,0.2\n1000,0.3\n"));
    expect(Array.from(log.time)).toEqual([0, 1, 2]);
    expect(log.channels.map((c) => c.name)).toEqual(["RPM", "Boost"]);
    expect(log.meta.extra.timeSource).toBe("row-index");
    expect(log.warnings).toContain("No time column was found: samples are numbered 0, 1, 2… and shown as seconds.");
  });

  it("time that runs backwards is kept in file order with a warning", () => {
    const log = parseLog(text(`${header}0.0,800,0\n0.2,810,0\n0.1,820,0\n0.3,830,0\n`));
    expect(Array.from(log.time)).toEqual([0, 0.2, 0.1, 0.3]);
    expect(log.warnings).toContain("Time runs backwards 1 time (first at 0.200 s); rows are kept in file order.");
  });
});
