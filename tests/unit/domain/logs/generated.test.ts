import { describe, expect, it } from "vitest";
import { detectFormat, parseLog } from "../../../../domain/logs";
import { GENERATORS, series } from "./support/generators";

const s = series(40);

describe("generated files of every format round-trip", () => {
  for (const generate of GENERATORS) {
    const file = generate(s);

    it(`${file.label}: detected as ${file.format}`, () => {
      expect(detectFormat(file.bytes).format).toBe(file.format);
    });

    it(`${file.label}: channels, units, time and values come back`, () => {
      const log = parseLog(file.bytes);
      expect(log.format).toBe(file.format);
      expect(log.rowCount).toBe(s.time.length);
      expect(log.channels.map((c) => ({ name: c.name, unit: c.unit }))).toEqual(file.channels);
      expect(log.time).toHaveLength(file.time.length);
      file.time.forEach((t, i) => {
        expect(log.time[i], `time[${i}]`).toBeCloseTo(t, 6);
      });
      expect(log.durationSeconds).toBeCloseTo(file.time[file.time.length - 1], 6);
      file.values.forEach((expected, c) => {
        const column = log.columns[c];
        expect(column).toHaveLength(expected.length);
        expected.forEach((v, i) => {
          if (Number.isNaN(v)) expect(column[i], `${file.channels[c].name}[${i}]`).toBeNaN();
          else expect(column[i], `${file.channels[c].name}[${i}]`).toBeCloseTo(v, 3);
        });
        const readable = expected.filter((v) => !Number.isNaN(v));
        expect(log.channels[c].gaps).toBe(expected.length - readable.length);
        expect(log.channels[c].min).toBeCloseTo(Math.min(...readable), 3);
        expect(log.channels[c].max).toBeCloseTo(Math.max(...readable), 3);
      });
      if (file.meta) expect(log.meta).toMatchObject(file.meta);
    });
  }
});
