import { deflateRawSync, inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  deserializeColumns,
  parseLog,
  readColumnsLayout,
  serializeColumns,
  serializeColumnsConcurrently,
} from "../../../../domain/logs";
import { codesOf, decodeColumn } from "../../../../domain/logs/column-codes";
import { arrayCodes, deserializeEncoded, selectChannels, storedBytes } from "../../../../domain/logs/serialize";
import type { ParsedLog } from "../../../../domain/logs/types";
import { fixture } from "./support/fixtures";

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/** A columnar form as version 1 wrote it (Float64 time, Float32 channels), as forms stored before version 2 are. */
function versionOne(log: ParsedLog): Uint8Array {
  const { time, columns, ...header } = log;
  const json = new TextEncoder().encode(JSON.stringify(header));
  const timeAt = 16 + align8(json.length);
  const columnBytes = align8(log.rowCount * 4);
  const out = new Uint8Array(timeAt + log.rowCount * 8 + columnBytes * columns.length);
  const view = new DataView(out.buffer);
  [0x434c5054, 1, json.length, log.rowCount].forEach((n, i) => {
    view.setUint32(i * 4, n, true);
  });
  out.set(json, 16);
  new Float64Array(out.buffer, timeAt, log.rowCount).set(time);
  columns.forEach((column, i) => {
    new Float32Array(out.buffer, timeAt + log.rowCount * 8 + i * columnBytes, log.rowCount).set(column);
  });
  return out;
}

describe("columnar serialization", () => {
  const log = parseLog(fixture("bluedriver-utf16.csv"));

  it("round-trips header, time and columns exactly, gaps included", () => {
    const back = deserializeColumns(serializeColumns(log));
    expect(back.format).toBe(log.format);
    expect(back.meta).toEqual(log.meta);
    expect(back.channels).toEqual(log.channels);
    expect(back.warnings).toEqual(log.warnings);
    expect(back.rowCount).toBe(log.rowCount);
    expect(back.durationSeconds).toBe(log.durationSeconds);
    back.time.forEach((t, i) => {
      expect(t).toBeCloseTo(log.time[i], 9);
    });
    back.columns.forEach((column, i) => {
      expect(Array.from(column)).toEqual(Array.from(log.columns[i]));
    });
    expect(back.columns[0][144]).toBeNaN();
  });

  it("stores printed decimals as small integer codes: a 1,000-row log of four channels takes under half the Float32 bytes", () => {
    const rows = Array.from(
      { length: 1000 },
      (_, i) =>
        `${(i / 20).toFixed(2)},${(800 + i).toFixed(0)},${(0.8 + i / 5000).toFixed(4)},${(-5 + (i % 50) / 10).toFixed(1)},${Math.sqrt(i)}`,
    );
    const parsed = parseLog(new TextEncoder().encode(`Time,RPM,Lambda,Timing,Odd\n${rows.join("\n")}\n`));
    const bytes = serializeColumns(parsed);
    const stored = deserializeEncoded(bytes);
    expect(stored.time.encoding).toMatchObject({ type: "u16", decimals: 2 });
    expect(stored.columns.map((column) => column.encoding.type)).toEqual(["u16", "u16", "u8", "f32"]);
    const back = deserializeColumns(bytes);
    back.columns.forEach((column, i) => {
      expect(Array.from(column)).toEqual(Array.from(parsed.columns[i]));
    });
    expect(back.time[999]).toBe(49.95);
    expect(bytes.length).toBeLessThan(16 + 1024 + 1000 * (8 + 4 * 4) * 0.5);
  });

  it("tells where each array lies and how it is coded from the first bytes, so a reader can fetch them by range", () => {
    const bytes = serializeColumns(log);
    const short = readColumnsLayout(bytes.subarray(0, 20));
    expect(short).toEqual({ headerBytes: expect.any(Number) });
    const layout = readColumnsLayout(bytes.subarray(0, (short as { headerBytes: number }).headerBytes));
    if ("headerBytes" in layout) throw new Error("the header was complete");
    expect(layout.byteLength).toBe(bytes.length);
    expect(layout.header.channels).toEqual(log.channels);
    expect(layout.header).not.toHaveProperty("encodings");
    const last = layout.columns[layout.columns.length - 1];
    const fetched = bytes.slice(last.at, last.at + last.bytes).buffer;
    const column = decodeColumn(
      { codes: codesOf(last.encoding, fetched, 0, layout.rows), encoding: last.encoding },
      Float32Array,
    );
    expect(Array.from(column)).toEqual(Array.from(log.columns[log.channels.length - 1]));
  });

  it("lays arrays out 8-byte aligned and reads them as views, without copying", () => {
    const bytes = serializeColumns(log);
    expect(bytes.length % 8).toBe(0);
    const stored = deserializeEncoded(bytes);
    for (const array of [stored.time, ...stored.columns]) {
      expect(array.codes.buffer).toBe(bytes.buffer);
      expect(array.codes.byteOffset % 8).toBe(0);
    }
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("TPLC");
    expect(new DataView(bytes.buffer).getUint32(4, true)).toBe(2);
  });

  it("still reads version 1 forms stored before the codes, Float32 channels as they were", () => {
    const old = versionOne(log);
    const stored = deserializeEncoded(old);
    expect(stored.time.encoding).toEqual({ type: "f64" });
    expect(stored.columns.every((column) => column.encoding.type === "f32")).toBe(true);
    const back = deserializeColumns(old);
    expect(Array.from(back.time)).toEqual(Array.from(log.time));
    back.columns.forEach((column, i) => {
      expect(Array.from(column)).toEqual(Array.from(log.columns[i]));
    });
    const layout = readColumnsLayout(old);
    if ("headerBytes" in layout) throw new Error("the header was complete");
    expect(layout.byteLength).toBe(old.length);
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
    expect(() => deserializeColumns(new TextEncoder().encode("Time,RPM\n0,800\n0.1,900\n"))).toThrow(
      "bad magic number",
    );
    const bytes = serializeColumns(log);
    expect(() => deserializeColumns(bytes.subarray(0, bytes.length - 8))).toThrow(/bytes where \d+ were expected/);
    expect(() => deserializeColumns(bytes.subarray(0, 8))).toThrow("too short");
  });

  describe("version 3: each array deflated on its own", () => {
    const deflate = (bytes: Uint8Array) => deflateRawSync(bytes);
    const ecumaster = parseLog(fixture("ecumaster.csv"));

    it("round-trips a real log exactly, in about a sixth of the bytes", () => {
      const plain = serializeColumns(ecumaster);
      const bytes = serializeColumns(ecumaster, deflate);
      expect(new DataView(bytes.buffer).getUint32(4, true)).toBe(3);
      expect(bytes.length).toBeLessThan(plain.length / 4);
      const back = deserializeColumns(bytes, inflateRawSync);
      expect(back.channels).toEqual(ecumaster.channels);
      expect(back.warnings).toEqual(ecumaster.warnings);
      back.time.forEach((t, i) => {
        expect(t).toBeCloseTo(ecumaster.time[i], 9);
      });
      back.columns.forEach((column, i) => {
        expect(Array.from(column).map(String)).toEqual(Array.from(ecumaster.columns[i]).map(String));
      });
    });

    it("writes the same bytes when the arrays are deflated concurrently, each handed to the zlib once", async () => {
      const handed: number[] = [];
      const bytes = await serializeColumnsConcurrently(ecumaster, async (array) => {
        handed.push(array.length);
        return deflate(array);
      });
      expect(handed).toHaveLength(ecumaster.channels.length + 1);
      expect(Buffer.compare(bytes, serializeColumns(ecumaster, deflate))).toBe(0);
    });

    it("tells each array's stored place from the header, so one channel is fetched by range and inflated alone", () => {
      const bytes = serializeColumns(log, deflate);
      const short = readColumnsLayout(bytes.subarray(0, 20)) as { headerBytes: number };
      const layout = readColumnsLayout(bytes.subarray(0, short.headerBytes));
      if ("headerBytes" in layout) throw new Error("the header was complete");
      expect(layout.byteLength).toBe(bytes.length);
      expect(layout.header).not.toHaveProperty("stored");
      expect([layout.time, ...layout.columns].every((place) => place.deflated && place.at % 8 === 0)).toBe(true);
      const index = log.channels.length - 1;
      const place = layout.columns[index];
      const fetched = bytes.slice(place.at, place.at + place.bytes);
      const column = decodeColumn(
        { codes: arrayCodes(place.encoding, inflateRawSync(fetched), layout.rows), encoding: place.encoding },
        Float32Array,
      );
      expect(Array.from(column)).toEqual(Array.from(log.columns[index]));
      // The same from a buffer holding every channel from the first one on, as the view fetches the rest.
      const rest = bytes.slice(layout.columns[0].at);
      expect(storedBytes(rest, place, layout.columns[0].at)).toEqual(fetched);
    });

    it("says so instead of reading deflated arrays without an inflate, or one that inflates to the wrong length", () => {
      const bytes = serializeColumns(log, deflate);
      expect(() => deserializeColumns(bytes)).toThrow("deflated and no inflate was given");
      expect(() => deserializeColumns(bytes, () => new Uint8Array(3))).toThrow(
        /an array of 3 bytes where \d+ were expected/,
      );
      const future = bytes.slice();
      new DataView(future.buffer).setUint32(4, 4, true);
      expect(() => deserializeColumns(future, inflateRawSync)).toThrow("unsupported version 4");
    });

    it("keeps the chosen channels of a form, their arrays copied as stored, in either version", () => {
      const keep = [3, 0];
      for (const bytes of [serializeColumns(log, deflate), serializeColumns(log), versionOne(log)]) {
        const subset = selectChannels(bytes, keep);
        const back = deserializeColumns(subset, inflateRawSync);
        expect(back.channels).toEqual(keep.map((i) => log.channels[i]));
        expect(back.rowCount).toBe(log.rowCount);
        back.columns.forEach((column, k) => {
          expect(Array.from(column)).toEqual(Array.from(log.columns[keep[k]]));
        });
        back.time.forEach((t, i) => {
          expect(t).toBeCloseTo(log.time[i], 9);
        });
      }
      const deflated = serializeColumns(log, deflate);
      const from = readColumnsLayout(deflated);
      const to = readColumnsLayout(selectChannels(deflated, keep));
      if ("headerBytes" in from || "headerBytes" in to) throw new Error("the headers were complete");
      expect(to.columns.map((place) => place.bytes)).toEqual(keep.map((i) => from.columns[i].bytes));
      expect(to.columns.every((place) => place.deflated)).toBe(true);
    });
  });
});
