import { describe, expect, it } from "vitest";
import { encodeChannel, encodeTime, gapCode } from "../../../../domain/logs/column-codes";
import { blocksOf, indexAtTime, lttb, minMaxIndices, minMaxPerPixel, rangeStats } from "../../../../src/lib/downsample";

/** n samples at 100 Hz: a slow wave with one high and one low spike. */
function signal(n: number): { time: Float64Array; values: Float32Array; spikeHigh: number; spikeLow: number } {
  const time = new Float64Array(n);
  const values = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    time[i] = i / 100;
    values[i] = Math.sin(i / 5000) * 10 + Math.sin(i / 7) * 0.5;
  }
  const spikeHigh = Math.floor(n * 0.3137);
  const spikeLow = Math.floor(n * 0.7211);
  values[spikeHigh] = 500;
  values[spikeLow] = -400;
  return { time, values, spikeHigh, spikeLow };
}

const ascending = (a: Float64Array) => a.every((t, i) => i === 0 || t >= a[i - 1]);

describe("indexAtTime", () => {
  const time = Float64Array.of(0, 0.5, 1, 1, 2);

  it("finds the last sample at or before t", () => {
    expect(indexAtTime(time, 0)).toBe(0);
    expect(indexAtTime(time, 0.7)).toBe(1);
    expect(indexAtTime(time, 1)).toBe(3);
    expect(indexAtTime(time, 1.99)).toBe(3);
    expect(indexAtTime(time, 2)).toBe(4);
  });

  it("clamps outside the log and says -1 for no samples", () => {
    expect(indexAtTime(time, -5)).toBe(0);
    expect(indexAtTime(time, 99)).toBe(4);
    expect(indexAtTime(new Float64Array(0), 1)).toBe(-1);
  });
});

describe("minMaxPerPixel", () => {
  const { time, values, spikeHigh, spikeLow } = signal(1_000_000);
  const t1 = time[time.length - 1];

  it("keeps every spike and about two points per pixel", () => {
    const out = minMaxPerPixel(time, values, 0, t1, 1000);
    expect(out.time.length).toBeLessThanOrEqual(2 * 1000 + 2);
    expect(out.time.length).toBeGreaterThan(1000);
    expect(Math.max(...out.values)).toBe(500);
    expect(Math.min(...out.values)).toBe(-400);
    expect(out.time).toContain(time[spikeHigh]);
    expect(out.time).toContain(time[spikeLow]);
    expect(ascending(out.time)).toBe(true);
  });

  it("matches a brute-force min and max in every pixel column", () => {
    const t0 = 1234.5;
    const t1v = 2345.6;
    const pixels = 300;
    const out = minMaxPerPixel(time, values, t0, t1v, pixels);
    const width = (t1v - t0) / pixels;
    // Column b holds the samples in [t0 + b·width, t0 + (b+1)·width).
    for (let b = 0; b < pixels; b++) {
      const lo = t0 + b * width;
      const hi = t0 + (b + 1) * width;
      let min = Infinity;
      let max = -Infinity;
      for (let i = indexAtTime(time, lo); i < time.length && time[i] < hi; i++) {
        if (time[i] < lo) continue;
        min = Math.min(min, values[i]);
        max = Math.max(max, values[i]);
      }
      const inColumn = Array.from(out.values).filter((_, k) => out.time[k] >= lo && out.time[k] < hi);
      expect(Math.min(...inColumn), `column ${b} min`).toBe(min);
      expect(Math.max(...inColumn), `column ${b} max`).toBe(max);
    }
  });

  it("includes one sample either side of the view so lines reach the edges", () => {
    const out = minMaxPerPixel(time, values, 100.005, 200.005, 500);
    expect(out.time[0]).toBe(100);
    expect(out.time[out.time.length - 1]).toBe(200.01);
  });

  it("returns the raw samples when there are few", () => {
    const out = minMaxPerPixel(time, values, 10, 11, 1000);
    expect(out.time.length).toBe(101);
    expect(Array.from(out.values)).toEqual(Array.from(values.subarray(1000, 1101)));
  });

  it("keeps gaps as NaN breaks, one per run of NaNs", () => {
    const gapped = values.slice();
    gapped.fill(NaN, 400_000, 450_000);
    const out = minMaxPerPixel(time, gapped, 0, t1, 1000);
    const gaps = Array.from(out.values).filter(Number.isNaN);
    expect(gaps).toHaveLength(1);
    const at = Array.from(out.values).findIndex(Number.isNaN);
    expect(out.time[at]).toBe(time[400_000]);
    expect(out.time[at - 1]).toBeLessThan(time[400_000]);
    expect(out.time[at + 1]).toBeGreaterThanOrEqual(time[450_000]);
  });

  it("returns nothing for an empty series or a reversed range", () => {
    expect(minMaxPerPixel(new Float64Array(0), new Float32Array(0), 0, 1, 100).time).toHaveLength(0);
    expect(minMaxPerPixel(time, values, 5, 1, 100).time).toHaveLength(0);
  });
});

describe("minMaxIndices on a log's integer codes", () => {
  const n = 200_000;
  const time = Float64Array.from({ length: n }, (_, i) => i / 100);
  const values = Float32Array.from({ length: n }, (_, i) =>
    Math.fround(Math.round(Math.sin(i / 900) * 3000 + (i % 97)) / 10),
  );
  values.fill(NaN, 50_000, 50_500);
  const [codedTime, coded] = [encodeTime(time), encodeChannel(values)];

  it("keeps the same samples as on the floats, gaps included, with times and the gap in code form", () => {
    expect(coded.encoding.type).toBe("u16");
    const onFloats = minMaxPerPixel(time, values, 100, 1500, 700);
    const indices = minMaxIndices(codedTime.codes, coded.codes, gapCode(coded.encoding), 100 * 100, 1500 * 100, 700);
    expect(Array.from(indices, (i) => time[i])).toEqual(Array.from(onFloats.time));
    expect(Array.from(indices, (i) => values[i])).toEqual(Array.from(onFloats.values));
    expect(Array.from(indices, (i) => values[i]).filter(Number.isNaN)).toHaveLength(1);
  });

  it("sums, minimises and maximises codes past the gap code", () => {
    const stats = rangeStats(coded.codes, 49_990, 50_510, gapCode(coded.encoding));
    expect(stats.count).toBe(20);
    expect(stats.max).toBeLessThan(gapCode(coded.encoding));
  });
});

describe("views and statistics read from block summaries", () => {
  const n = 1_000_000;
  const time = Float64Array.from({ length: n }, (_, i) => i);
  const codes = Uint16Array.from(
    { length: n },
    (_, i) => 30_000 + Math.round(Math.sin(i / 20_000) * 20_000) + (i % 13),
  );
  codes[123_457] = 65_000; // spikes inside blocks, not at their edges
  codes[700_001] = 3;
  codes.fill(0xffff, 400_010, 400_300); // a gap across blocks
  const gap = 0xffff;
  const blocks = blocksOf(codes, gap);

  it("keeps every spike and every gap, in time order, reading blocks instead of a million samples", () => {
    const indices = minMaxIndices(time, codes, gap, 0, n - 1, 1000, blocks);
    const plain = minMaxIndices(time, codes, gap, 0, n - 1, 1000);
    expect(indices.length).toBeLessThan(2 * 1000 + 8);
    expect(Array.from(indices).every((v, i) => i === 0 || v > indices[i - 1])).toBe(true);
    expect(indices).toContain(123_457);
    expect(indices).toContain(700_001);
    expect(Array.from(indices).filter((i) => codes[i] === gap)).toEqual([400_010]);
    const extremes = (list: Uint32Array) => [
      Math.min(...Array.from(list, (i) => (codes[i] === gap ? Infinity : codes[i]))),
      Math.max(...Array.from(list, (i) => (codes[i] === gap ? -Infinity : codes[i]))),
    ];
    expect(extremes(indices)).toEqual(extremes(plain));
  });

  it("sums whole blocks and reads the ends sample by sample, to the same statistics", () => {
    for (const [i0, i1] of [
      [0, n],
      [5, 999_990],
      [400_000, 400_400],
      [123_400, 123_500],
    ]) {
      expect(rangeStats(codes, i0, i1, gap, blocks)).toEqual(rangeStats(codes, i0, i1, gap));
    }
  });

  it("refuses a block size its offsets cannot hold", () => {
    expect(() => blocksOf(codes, gap, 300)).toThrow(RangeError);
  });
});

describe("lttb", () => {
  const { time, values, spikeHigh } = signal(1_000_000);
  const t1 = time[time.length - 1];

  it("returns exactly the threshold, first and last samples included", () => {
    const out = lttb(time, values, 0, t1, 1000);
    expect(out.time).toHaveLength(1000);
    expect(out.time[0]).toBe(0);
    expect(out.values[0]).toBe(values[0]);
    expect(out.time[999]).toBe(t1);
    expect(out.values[999]).toBe(values[values.length - 1]);
    expect(ascending(out.time)).toBe(true);
  });

  it("keeps a spike, the largest triangle in its bucket", () => {
    const out = lttb(time, values, 0, t1, 1000);
    expect(out.time).toContain(time[spikeHigh]);
  });

  it("reduces runs between gaps separately and breaks the line at each gap", () => {
    const gapped = values.slice();
    gapped.fill(NaN, 300_000, 310_000);
    gapped.fill(NaN, 600_000, 600_001);
    const out = lttb(time, gapped, 0, t1, 1000);
    const nan = Array.from(out.values).map(Number.isNaN);
    expect(nan.filter(Boolean)).toHaveLength(2);
    expect(out.time.length).toBeLessThanOrEqual(1000 + 2 * 3);
    const firstGap = nan.indexOf(true);
    expect(out.time[firstGap]).toBe(time[300_000]);
    expect(out.time[firstGap - 1]).toBe(time[299_999]);
    expect(out.time[firstGap + 1]).toBe(time[310_000]);
  });

  it("returns the raw samples when the threshold covers them, the ends when it is below 3", () => {
    expect(lttb(time, values, 10, 10.5, 1000).time).toHaveLength(51);
    const ends = lttb(time, values, 10, 20, 2);
    expect(Array.from(ends.time)).toEqual([10, 20]);
  });
});

describe("rangeStats", () => {
  const values = Float32Array.of(4, NaN, -2, 10, NaN, 3);

  it("gives min, max and mean of [i0, i1), ignoring gaps", () => {
    expect(rangeStats(values, 0, 6)).toEqual({ min: -2, max: 10, mean: 15 / 4, count: 4 });
    expect(rangeStats(values, 2, 4)).toEqual({ min: -2, max: 10, mean: 4, count: 2 });
  });

  it("clamps indices and reports an empty range as NaN", () => {
    expect(rangeStats(values, -10, 1)).toEqual({ min: 4, max: 4, mean: 4, count: 1 });
    expect(rangeStats(values, 1, 2)).toEqual({ min: NaN, max: NaN, mean: NaN, count: 0 });
    expect(rangeStats(values, 5, 99).count).toBe(1);
  });
});
