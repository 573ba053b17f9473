import { describe, expect, it } from "vitest";
import { exportFileName, logCsv, logCsvParts } from "../../../../src/lib/log-export";
import { conversionFor, DEFAULT_DISPLAY_UNITS } from "../../../../src/lib/log-units";

const same = (unit: string) => ({ unit, scale: 1, offset: 0 });

describe("logCsv", () => {
  it("writes a header of names with the units shown, then one row per sample", () => {
    const csv = logCsv(Float64Array.from([0, 0.05, 0.1]), [
      { name: "RPM", values: Float32Array.from([900, 950, 1000]), conversion: same("rpm") },
      { name: "Throttle", values: Float32Array.from([0.1, 12.5, 99]), conversion: same("%") },
    ]);
    expect(csv).toBe("Time (s),RPM (rpm),Throttle (%)\r\n0,900,0.1\r\n0.05,950,12.5\r\n0.1,1000,99\r\n");
  });

  it("converts each value to the unit the chart shows, as the header says", () => {
    const toPsi = conversionFor("kPa", { ...DEFAULT_DISPLAY_UNITS, pressure: "psi" });
    const toFahrenheit = conversionFor("°C", { ...DEFAULT_DISPLAY_UNITS, temperature: "°F" });
    const csv = logCsv(
      [1],
      [
        { name: "Boost", values: [200], conversion: toPsi },
        { name: "Coolant", values: [100], conversion: toFahrenheit },
      ],
    );
    expect(csv.split("\r\n")[0]).toBe("Time (s),Boost (psi),Coolant (°F)");
    expect(csv.split("\r\n")[1]).toBe("1,29.00755,212");
  });

  it("leaves a gap's cell empty and quotes a name holding a comma or a quote", () => {
    const csv = logCsv(
      [0, 1],
      [
        { name: 'Load, "calc"', values: [Number.NaN, 4], conversion: same("") },
        { name: "AFR", values: [14.7, Number.NaN], conversion: same("AFR") },
      ],
    );
    expect(csv).toBe('Time (s),"Load, ""calc""",AFR (AFR)\r\n0,,14.7\r\n1,4,\r\n');
  });

  it("writes only the header for a range without samples", () => {
    expect(logCsv([], [{ name: "RPM", values: [], conversion: same("rpm") }])).toBe("Time (s),RPM (rpm)\r\n");
  });
});

describe("logCsvParts", () => {
  it("splits a long export into parts of whole rows that join into the same CSV", () => {
    const time = Float64Array.from({ length: 7 }, (_, i) => i);
    const columns = [
      { name: "RPM", values: Float32Array.from({ length: 7 }, (_, i) => 1000 + i), conversion: same("rpm") },
    ];
    const parts = logCsvParts(time, columns, 3);
    expect(parts).toEqual([
      "Time (s),RPM (rpm)\r\n0,1000\r\n1,1001\r\n",
      "2,1002\r\n3,1003\r\n4,1004\r\n",
      "5,1005\r\n6,1006\r\n",
    ]);
    expect(parts.join("")).toBe(logCsv(time, columns));
  });
});

describe("exportFileName", () => {
  it("names the download after the log and the range shown", () => {
    expect(exportFileName("Pull 3rd gear", [12, 30.5], "csv")).toBe("Pull-3rd-gear-12.00-30.50s.csv");
  });

  it("keeps a file name free of characters file systems refuse", () => {
    expect(exportFileName('Ölmotor: "B58" / 2024', [0, 1], "png")).toBe("Olmotor-B58-2024-0.00-1.00s.png");
    expect(exportFileName("///", [0, 1], "csv")).toBe("data-log-0.00-1.00s.csv");
  });
});
