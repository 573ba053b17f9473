import { describe, expect, it } from "vitest";
import { parseLog } from "../../../../domain/logs";

const text = (s: string) => new TextEncoder().encode(s);
const f32 = Math.fround;

/** One channel, one value per row, so each cell's reading can be checked on its own. */
function readCells(cells: string[], delimiter = ",", decimalComma = false): number[] {
  const time = (i: number) => (decimalComma ? `${i},0` : `${i}.0`);
  const file =
    `Time${delimiter}Value${delimiter}Other\n` +
    cells.map((c, i) => `${time(i)}${delimiter}${c}${delimiter}1`).join("\n") +
    "\n";
  return Array.from(parseLog(text(file)).columns[0]);
}

describe("number cells", () => {
  it("reads signs, decimal points, bare fractions and padding", () => {
    expect(readCells(["12", "-3.5", "+7", ".5", "5.", "-0.25", "  42  ", "0007.50"])).toEqual(
      [12, -3.5, 7, 0.5, 5, -0.25, 42, 7.5].map(f32),
    );
  });

  it("reads exponents and long mantissas through the slow path", () => {
    expect(readCells(["1.5e3", "-2E-2", "6.02e+23", "3.14159265358979323846", "12345678901234567890"])).toEqual(
      [1500, -0.02, 6.02e23, Math.PI, 12345678901234567000].map(f32),
    );
    expect(readCells(["0.0000000000000000000000012"])[0]).toBe(f32(1.2e-24));
  });

  it("reads quoted numbers", () => {
    expect(readCells(['"12.5"', '" -3 "', '""'])).toEqual([12.5, -3, NaN]);
  });

  it("reads decimal commas when the delimiter is ; or tab", () => {
    expect(readCells(["0,38", "-1,5", "12", ",5"], ";", true)).toEqual([0.38, -1.5, 12, 0.5].map(f32));
    expect(readCells(["0,38", "-1,5"], "\t", true)).toEqual([0.38, -1.5].map(f32));
  });

  it("turns text, lone signs and stray separators into gaps", () => {
    expect(readCells(["N/A", "-", "1.2.3", "12abc", "0x1F", "1 2", "3"])).toEqual([NaN, NaN, NaN, NaN, NaN, NaN, 3]);
  });

  it("keeps full double precision in the time column", () => {
    const log = parseLog(text("Time,Value\n1699999999.123456,1\n1699999999.223456,2\n"));
    expect(log.meta.timeOffsetSeconds).toBe(1699999999.123456);
    expect(log.time[1]).toBeCloseTo(0.1, 6);
  });

  it("reads clock times in the time column and unwinds midnight", () => {
    const log = parseLog(text("Time,RPM\n23:59:59.500,800\n23:59:59.900,810\n00:00:00.300,820\n"));
    expect(Array.from(log.time).map((t) => Number(t.toFixed(3)))).toEqual([0, 0.4, 0.8]);
    expect(log.meta.timeOffsetSeconds).toBeCloseTo(86399.5, 6);
  });
});

describe("lines", () => {
  const rows = ["Time,RPM,Boost", "0.0,800,0.5", "0.1,900,0.75", "", "0.2,1000,1"];
  const expected = { rows: 3, rpm: [800, 900, 1000] };

  for (const [label, eol] of [
    ["LF", "\n"],
    ["CRLF", "\r\n"],
    ["lone CR", "\r"],
  ] as const) {
    it(`reads ${label} line endings and skips blank lines`, () => {
      const log = parseLog(text(rows.join(eol) + eol));
      expect(log.rowCount).toBe(expected.rows);
      expect(Array.from(log.columns[0])).toEqual(expected.rpm);
    });
  }

  it("treats whitespace-only lines and rows of bare delimiters as blank", () => {
    const log = parseLog(text("Time,RPM,Boost\n0.0,800,0.5\n   \t \n,,\n0.1,900,0.75\n,,\n"));
    expect(log.rowCount).toBe(2);
    expect(log.warnings).toEqual([]);
  });

  it("ignores one trailing delimiter on every row", () => {
    const log = parseLog(text("Time,RPM,Boost,\n0,800,0.5,\n0.1,900,0.75,\n"));
    expect(log.channels.map((c) => c.name)).toEqual(["RPM", "Boost"]);
    expect(log.warnings).toEqual([]);
  });

  it("keeps a delimiter inside a quoted header cell", () => {
    const log = parseLog(text('"Time","Boost, gauge (psi)","RPM"\n0,1.5,800\n0.1,1.6,810\n'));
    expect(log.channels[0]).toMatchObject({ name: "Boost, gauge", unit: "psi" });
  });
});
