import { describe, expect, it } from "vitest";
import { deserializeColumns, parseLog, readColumnsLayout, serializeColumns } from "../../../server/domain/logs";
import { fixture } from "./helpers/fixtures";

describe("columnar serialization", () => {
  const log = parseLog(fixture("bluedriver-utf16.csv"));

  it("round-trips header, time and columns, gaps included", () => {
    const back = deserializeColumns(serializeColumns(log));
    expect(back.format).toBe(log.format);
    expect(back.meta).toEqual(log.meta);
    expect(back.channels).toEqual(log.channels);
    expect(back.warnings).toEqual(log.warnings);
    expect(back.rowCount).toBe(log.rowCount);
    expect(back.durationSeconds).toBe(log.durationSeconds);
    expect(Array.from(back.time)).toEqual(Array.from(log.time));
    back.columns.forEach((column, i) => expect(Array.from(column)).toEqual(Array.from(log.columns[i])));
    expect(back.columns[0][144]).toBeNaN();
  });

  it("tells where each array lies from the first bytes, so a reader can fetch them by range", () => {
    const bytes = serializeColumns(log);
    const short = readColumnsLayout(bytes.subarray(0, 20));
    expect(short).toEqual({ headerBytes: expect.any(Number) });
    const layout = readColumnsLayout(bytes.subarray(0, (short as { headerBytes: number }).headerBytes));
    if ("headerBytes" in layout) throw new Error("the header was complete");
    expect(layout.byteLength).toBe(bytes.length);
    expect(layout.header.channels).toEqual(log.channels);
    const time = new Float64Array(bytes.slice(layout.timeAt, layout.timeAt + layout.rows * 8).buffer);
    expect(Array.from(time)).toEqual(Array.from(log.time));
    const last = log.channels.length - 1;
    const start = layout.channelsAt + last * layout.columnBytes;
    const column = new Float32Array(bytes.slice(start, start + layout.rows * 4).buffer);
    expect(Array.from(column)).toEqual(Array.from(log.columns[last]));
  });

  it("lays arrays out 8-byte aligned and reads them as views, without copying", () => {
    const bytes = serializeColumns(log);
    expect(bytes.length % 8).toBe(0);
    const back = deserializeColumns(bytes);
    expect(back.time.buffer).toBe(bytes.buffer);
    expect(back.time.byteOffset % 8).toBe(0);
    for (const column of back.columns) {
      expect(column.buffer).toBe(bytes.buffer);
      expect(column.byteOffset % 8).toBe(0);
    }
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("TPLC");
    const jsonLength = new DataView(bytes.buffer).getUint32(8, true);
    const align8 = (n: number) => Math.ceil(n / 8) * 8;
    expect(bytes.length).toBe(16 + align8(jsonLength) + 145 * 8 + 4 * align8(145 * 4));
  });

  it("reads from an ArrayBuffer and from a Buffer that does not start on an 8-byte boundary", () => {
    const bytes = serializeColumns(log);
    expect(deserializeColumns(bytes.buffer as ArrayBuffer).rowCount).toBe(145);
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    const back = deserializeColumns(shifted.subarray(3));
    expect(Array.from(back.columns[3])).toEqual(Array.from(log.columns[3]));
  });

  it("round-trips a log whose row count leaves each column padded", () => {
    const small = parseLog(new TextEncoder().encode("Time,A,B,C\n0,1,2,3\n0.1,4,5,6\n0.2,7,8,9\n"));
    const back = deserializeColumns(serializeColumns(small));
    expect(back.columns.map((c) => Array.from(c))).toEqual([
      [1, 4, 7],
      [2, 5, 8],
      [3, 6, 9],
    ]);
  });

  it("refuses bytes that are not a columnar log", () => {
    expect(() => deserializeColumns(new TextEncoder().encode("Time,RPM\n0,800\n0.1,900\n"))).toThrow("bad magic number");
    const bytes = serializeColumns(log);
    expect(() => deserializeColumns(bytes.subarray(0, bytes.length - 8))).toThrow(/bytes where \d+ were expected/);
    expect(() => deserializeColumns(bytes.subarray(0, 8))).toThrow("too short");
  });
});
