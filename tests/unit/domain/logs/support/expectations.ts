/**
 * What a real logger file must read as, written by hand from the raw file (never from the
 * parser), and the checks every such file gets: format, rows, channels with their names and
 * units, exact first and last values, duration, and the file's own extra checks.
 */
import { describe, expect, it } from "vitest";
import { detectFormat, type FormatId, type ParsedLog, parseLog } from "../../../../../domain/logs";

export interface Expectation {
  format: FormatId;
  rows: number;
  channels: number;
  /** A few channels by position: name and unit. */
  named: [index: number, name: string, unit: string][];
  /** Exact first and last values of some channels, by name. */
  values: [name: string, first: number, last: number][];
  duration: number;
  check?: (log: ParsedLog) => void;
}

export const byName = (log: ParsedLog, name: string) => {
  const index = log.channels.findIndex((c) => c.name === name);
  if (index < 0) throw new Error(`no channel "${name}" in ${log.channels.map((c) => c.name).join(", ")}`);
  return { channel: log.channels[index], column: log.columns[index] };
};

/** One describe per file of `expected`, read with `read`, after checking the folder holds exactly those files. */
export function checkRealFiles(
  title: string,
  expected: Record<string, Expectation>,
  names: () => string[],
  read: (name: string) => Uint8Array,
) {
  describe(title, () => {
    it("has an expectation for every file in the folder", () => {
      expect(names()).toEqual(Object.keys(expected).sort());
    });

    for (const [file, want] of Object.entries(expected)) {
      describe(file, () => {
        const bytes = read(file);
        const log = parseLog(bytes);

        it(`is ${want.format} with ${want.rows} rows and ${want.channels} channels`, () => {
          expect(detectFormat(bytes).format).toBe(want.format);
          expect(log.format).toBe(want.format);
          expect(log.rowCount).toBe(want.rows);
          expect(log.time).toHaveLength(want.rows);
          expect(log.channels).toHaveLength(want.channels);
          expect(log.columns).toHaveLength(want.channels);
          expect(log.durationSeconds).toBeCloseTo(want.duration, 6);
          expect(log.time[0]).toBe(0);
        });

        it("names channels and units from the header", () => {
          for (const [index, name, unit] of want.named)
            expect(log.channels[index], `channel ${index}`).toMatchObject({ name, unit });
          expect(new Set(log.channels.map((c) => c.id)).size).toBe(log.channels.length);
        });

        it("reads first and last values exactly", () => {
          for (const [name, first, last] of want.values) {
            const { column } = byName(log, name);
            expect(column[0], `${name} first`).toBeCloseTo(first, 4);
            expect(column[column.length - 1], `${name} last`).toBeCloseTo(last, 4);
          }
        });

        if (want.check) it("keeps the file's metadata and gaps", () => want.check?.(log));
      });
    }
  });
}
