import { describe, expect, it } from "vitest";
import { decodeColumn, decoder, encodeChannel, encodeTime, gapCode } from "../../../../domain/logs/column-codes";

const same = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  Array.from(a).map(String).join() === Array.from(b).map(String).join();

describe("channel codes", () => {
  it("keeps a one-decimal channel of under 255 steps as bytes, every sample exact", () => {
    const values = Float32Array.from([12.3, 12.4, 20.1, 0.5, 13], Math.fround);
    const coded = encodeChannel(values);
    expect(coded.encoding).toEqual({ type: "u8", base: 5, decimals: 1 });
    expect(coded.codes).toBeInstanceOf(Uint8Array);
    expect(same(decodeColumn(coded, Float32Array), values)).toBe(true);
  });

  it("keeps 4-decimal lambda and negative 2-decimal ignition as 2-byte codes, exact", () => {
    const lambda = Float32Array.from({ length: 3001 }, (_, i) => Math.fround(0.8 + i / 10_000));
    const ignition = Float32Array.from({ length: 5001 }, (_, i) => Math.fround(-30 + i / 100));
    for (const values of [lambda, ignition]) {
      const coded = encodeChannel(values);
      expect(coded.codes).toBeInstanceOf(Uint16Array);
      expect(same(decodeColumn(coded, Float32Array), values)).toBe(true);
    }
    expect(encodeChannel(lambda).encoding).toMatchObject({ decimals: 4 });
  });

  it("keeps gaps as gaps: the top code, decoded to NaN", () => {
    const values = Float32Array.from([1, NaN, 2, NaN, NaN, 3]);
    const coded = encodeChannel(values);
    expect(coded.encoding.type).toBe("u8");
    expect(coded.codes[1]).toBe(gapCode(coded.encoding));
    const back = decodeColumn(coded, Float32Array);
    expect(Array.from(back)).toEqual([1, NaN, 2, NaN, NaN, 3]);
  });

  it("falls back to the Float32 samples when 2 bytes cannot hold the span or the decimals run out", () => {
    const wide = Float32Array.from({ length: 3 }, (_, i) => Math.fround(i * 100 + 0.001));
    wide[2] = 80_000.5;
    expect(encodeChannel(wide).encoding).toEqual({ type: "f32" });
    const irrational = Float32Array.from([Math.PI, Math.E, Math.SQRT2]);
    const coded = encodeChannel(irrational);
    expect(coded.encoding).toEqual({ type: "f32" });
    expect(coded.codes).toBe(irrational);
  });

  it("codes a channel of only gaps, and an empty one", () => {
    expect(Array.from(decodeColumn(encodeChannel(Float32Array.from([NaN, NaN])), Float32Array))).toEqual([NaN, NaN]);
    expect(decodeColumn(encodeChannel(new Float32Array(0)), Float32Array)).toHaveLength(0);
  });

  it("orders codes as it orders values, so minima and maxima can be found on the codes", () => {
    const values = Float32Array.from([3.5, -1.25, 7, 0], Math.fround);
    const coded = encodeChannel(values);
    const order = (a: ArrayLike<number>) => Array.from(a, (_, i) => i).sort((i, j) => a[i] - a[j]);
    expect(order(coded.codes)).toEqual(order(values));
    expect(decoder(coded.encoding)(Math.min(...coded.codes))).toBe(-1.25);
  });
});

describe("time codes", () => {
  it("stores 100 Hz seconds as 10 ms ticks, giving back the printed times", () => {
    // Seconds from the first sample of a clock at 12.34 s, as the parser computes them.
    const time = Float64Array.from({ length: 70_000 }, (_, i) => (1234 + i) / 100 - 12.34);
    const coded = encodeTime(time);
    expect(coded.encoding).toEqual({ type: "u32", base: 0, decimals: 2 });
    const back = decodeColumn(coded, Float64Array);
    expect(Math.max(...back.map((t, i) => Math.abs(t - time[i])))).toBeLessThan(1e-9);
    expect(back[12_345]).toBe(123.45);
  });

  it("keeps Float64 seconds when the samples fall on no decimal tick", () => {
    const time = Float64Array.from({ length: 10 }, (_, i) => i / 3);
    const coded = encodeTime(time);
    expect(coded.encoding).toEqual({ type: "f64" });
    expect(decodeColumn(coded, Float64Array)).toBe(time);
  });
});
