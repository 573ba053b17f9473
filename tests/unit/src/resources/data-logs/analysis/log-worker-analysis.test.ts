import { describe, expect, it } from "vitest";
import { parseLog } from "../../../../../../domain/logs";
import { decodeColumn, encodeChannel, encodeTime } from "../../../../../../domain/logs/column-codes";
import { findPulls } from "../../../../../../domain/logs/pulls";
import { variableOf } from "../../../../../../src/resources/data-logs/analysis/channels";
import {
  filterMask,
  insideBox,
  maskedSpans,
  maskedStats,
  pullsOf,
  rasterRows,
  rowsDecoded,
  xyPoints,
} from "../../../../../../src/resources/data-logs/analysis/log-worker-analysis";
import { pullChannels } from "../../../../../../src/resources/data-logs/analysis/pull-channels";
import { byName } from "../../../../domain/logs/support/expectations";
import { fixture } from "../../../../domain/logs/support/fixtures";

const romraider = parseLog(fixture("romraider-semicolon-decimal-comma.csv"));
const encoded = new Map(romraider.channels.map((channel, i) => [channel.id, encodeChannel(romraider.columns[i])]));
const columnOf = (id: string) => encoded.get(id)!;
const time = encodeTime(romraider.time);
const rpm = byName(romraider, "PLX Engine Speed").column;
const map = byName(romraider, "PLX Manifold Absolute Pressure").column;
const lambda = byName(romraider, "PLX O2 - Wideband").column;
const rows = romraider.rowCount;

describe("pullsOf, the worker's pulls from the channels' roles", () => {
  it("finds on the coded RomRaider columns the pulls findPulls finds on the parsed ones", () => {
    const roles = pullChannels(romraider.channels, romraider.format)!;
    const found = pullsOf(time, columnOf, roles, { minPeakBoost: 1.5 });
    const plain = findPulls(
      { time: romraider.time, rpm, boost: map, mixture: { values: lambda, kind: "lambda" } },
      { minPeakBoost: 1.5 },
    );
    expect(found).toHaveLength(5);
    expect(found.map((p) => [p.startIndex, p.endIndex, p.rpmFrom, p.rpmTo, p.peakBoost?.value])).toEqual(
      plain.map((p) => [p.startIndex, p.endIndex, p.rpmFrom, p.rpmTo, p.peakBoost?.value]),
    );
    // The last run is the one past 6,000 rpm.
    expect(found[4].rpmTo).toBe(6686);
  });

  it("summarises each pull from its own rows exactly as findPulls does from every decoded row", () => {
    const roles = pullChannels(romraider.channels, romraider.format)!;
    const whole = (id: string | undefined) => (id ? decodeColumn(columnOf(id), Float32Array) : undefined);
    const plain = findPulls({
      time: decodeColumn(time, Float64Array),
      rpm: whole(roles.rpm)!,
      pedal: whole(roles.pedal),
      throttle: whole(roles.throttle),
      gear: whole(roles.gear),
      boost: whole(roles.boost),
      mixture: roles.mixture && { values: whole(roles.mixture.id)!, kind: roles.mixture.kind },
    });
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.every((pull) => pull.peakBoost && pull.richest)).toBe(true);
    expect(pullsOf(time, columnOf, roles, {})).toEqual(plain);
  });

  it("decodes a column only in the rows asked for, gaps and other rows as NaN, the sign applied", () => {
    const column = encodeChannel(Float32Array.from([1.5, 2, Number.NaN, 4, 5, 6]));
    const decoded = rowsDecoded(column, [[1, 3]], -1);
    expect([...decoded]).toEqual([Number.NaN, -2, Number.NaN, -4, Number.NaN, Number.NaN]);
  });

  it("reads a logger's positive retard as timing taken away, naming the cylinder", () => {
    // 10 Hz: a pull from 2,000 to 6,000 rpm over 4 s; cylinder 2 retards 3° at 5 s, the average 1.5°.
    const lines = ["TIME,EngineSpeed (rpm),IgnitionRetardCyl1,IgnitionRetardCyl2,AvgIgnitionRetardKnockControl"];
    for (let i = 0; i <= 60; i++) {
      const t = i / 10;
      const r = t < 1 ? 2000 : t <= 5 ? 2000 + (t - 1) * 1000 : 6000 - (t - 5) * 2000;
      const cyl2 = i === 40 ? 3 : 0;
      lines.push(`${t.toFixed(1)},${r},0,${cyl2},${cyl2 / 2}`);
    }
    const log = parseLog(Buffer.from(lines.join("\n")));
    const columns = new Map(log.channels.map((channel, i) => [channel.id, encodeChannel(log.columns[i])]));
    const roles = pullChannels(log.channels, log.format)!;
    expect(roles.corrections.map((c) => [c.cylinder, c.retard])).toEqual([
      [1, true],
      [2, true],
      [undefined, true],
    ]);
    const pulls = pullsOf(encodeTime(log.time), (id) => columns.get(id)!, roles, {});
    expect(pulls).toHaveLength(1);
    expect(pulls[0].largestCorrection).toEqual({ value: -3, time: 4, cylinder: 2 });
  });
});

describe("filterMask", () => {
  const variables = new Map([...encoded].map(([id, column]) => [variableOf(id), column]));

  it("keeps exactly the rows a plain loop over the condition keeps", () => {
    const mask = filterMask("plx_engine_speed > 4000 && plx_manifold_absolute_pressure >= 1.2", variables, rows);
    const plain = Uint8Array.from(rpm, (r, i) => (r > 4000 && map[i] >= 1.2 ? 1 : 0));
    expect(mask).toEqual(plain);
    expect(plain.reduce((a, b) => a + b, 0)).toBeGreaterThan(10);
  });

  it("refuses an unknown channel, naming it", () => {
    expect(() => filterMask("boost > 1", variables, rows)).toThrow(/boost/);
  });
});

describe("maskedStats", () => {
  it("gives the minimum, maximum and mean of the kept samples of the range, as a plain loop does", () => {
    const mask = Uint8Array.from(rpm, (r) => (r > 3000 ? 1 : 0));
    const [i0, i1] = [500, 3000];
    const stats = maskedStats(columnOf(byName(romraider, "PLX Manifold Absolute Pressure").channel.id), i0, i1, mask);
    const kept: number[] = [];
    for (let i = i0; i < i1; i++) if (mask[i] && !Number.isNaN(map[i])) kept.push(map[i]);
    expect(stats.count).toBe(kept.length);
    expect(stats.min).toBeCloseTo(Math.min(...kept), 5);
    expect(stats.max).toBeCloseTo(Math.max(...kept), 5);
    expect(stats.mean).toBeCloseTo(kept.reduce((a, b) => a + b, 0) / kept.length, 5);
  });

  it("answers NaN with a count of 0 when the filter keeps nothing in the range", () => {
    const stats = maskedStats(columnOf(romraider.channels[0].id), 0, 100, new Uint8Array(rows));
    expect(stats).toEqual({ min: NaN, max: NaN, mean: NaN, count: 0 });
  });
});

describe("maskedSpans", () => {
  const t = encodeTime(Float64Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
  const mask = Uint8Array.from([0, 1, 1, 0, 0, 1, 0, 1, 1, 0]);

  it("reaches halfway to the kept samples either side, and to the log's ends", () => {
    expect([...maskedSpans(t, mask, 0, 10, 0)]).toEqual([0, 0.5, 2.5, 4.5, 5.5, 6.5, 8.5, 9]);
  });

  it("joins stretches closer than the join width, and keeps to the range asked", () => {
    expect([...maskedSpans(t, mask, 0, 10, 1)]).toEqual([0, 0.5, 2.5, 6.5, 8.5, 9]);
    expect([...maskedSpans(t, mask, 2, 6, 0)]).toEqual([2.5, 4.5]);
  });
});

describe("rasterRows", () => {
  it("keeps one row per pixel reached, the latest, as a plain map of pixels does", () => {
    const x = Float32Array.from({ length: 5000 }, (_, i) => Math.sin(i / 37) * 100);
    const y = Float32Array.from({ length: 5000 }, (_, i) => (i % 11 === 0 ? NaN : Math.cos(i / 53) * 50));
    const mask = Uint8Array.from(x, (_, i) => (i % 3 === 0 ? 0 : 1));
    const [w, h] = [40, 20];
    const xr = { min: -100, max: 100 };
    const yr = { min: -50, max: 50 };
    const plain = new Map<string, number>();
    for (let i = 0; i < x.length; i++) {
      if (!mask[i] || Number.isNaN(y[i])) continue;
      const px = Math.min(w - 1, Math.floor(((x[i] - xr.min) / 200) * w));
      const py = Math.min(h - 1, Math.floor(((y[i] - yr.min) / 100) * h));
      plain.set(`${px},${py}`, i);
    }
    const ascending = (rows: Iterable<number>) => [...rows].sort((a, b) => a - b);
    expect(ascending(rasterRows(x, y, mask, xr, yr, w, h))).toEqual(ascending(plain.values()));
  });
});

describe("xyPoints", () => {
  it("counts the rows of the range the filter keeps, ranges them, and sends the colour at each point", () => {
    const [rpmId, mapId, lambdaId] = [
      byName(romraider, "PLX Engine Speed").channel.id,
      byName(romraider, "PLX Manifold Absolute Pressure").channel.id,
      byName(romraider, "PLX O2 - Wideband").channel.id,
    ];
    const mask = Uint8Array.from(rpm, (r) => (r > 2500 ? 1 : 0));
    const [i0, i1] = [1000, 2500];
    const points = xyPoints(
      { xId: rpmId, yId: mapId, colourId: lambdaId, i0, i1, width: 200, height: 100 },
      columnOf,
      mask,
    );
    let count = 0;
    let [xMin, xMax] = [Infinity, -Infinity];
    for (let i = i0; i < i1; i++) {
      if (!mask[i] || Number.isNaN(rpm[i]) || Number.isNaN(map[i])) continue;
      count++;
      xMin = Math.min(xMin, rpm[i]);
      xMax = Math.max(xMax, rpm[i]);
    }
    expect(points.count).toBe(count);
    expect(points.xRange).toEqual({ min: xMin, max: xMax });
    expect(points.x.length).toBeGreaterThan(0);
    expect(points.x.length).toBeLessThanOrEqual(Math.min(count, 200 * 100));
    for (let k = 0; k < points.x.length; k++) {
      const row = i0 + rpm.subarray(i0, i1).findIndex((r, j) => r === points.x[k] && map[i0 + j] === points.y[k]);
      expect(row).toBeGreaterThanOrEqual(i0);
      expect(points.x[k]).toBeGreaterThan(2500);
    }
    expect(points.colour).toHaveLength(points.x.length);
    expect(points.colourRange!.min).toBeGreaterThanOrEqual(Math.min(...lambda));
  });

  it("zoomed to a box, plots and counts only the samples inside it, its axes the box", () => {
    const [rpmId, mapId] = [
      byName(romraider, "PLX Engine Speed").channel.id,
      byName(romraider, "PLX Manifold Absolute Pressure").channel.id,
    ];
    const box = { x: { min: 4000, max: 6000 }, y: { min: 1, max: 1.8 } };
    const points = xyPoints(
      { xId: rpmId, yId: mapId, box, i0: 0, i1: rows, width: 100, height: 50 },
      columnOf,
      undefined,
    );
    let count = 0;
    for (let i = 0; i < rows; i++) if (rpm[i] >= 4000 && rpm[i] <= 6000 && map[i] >= 1 && map[i] <= 1.8) count++;
    expect(count).toBeGreaterThan(20);
    expect(points.count).toBe(count);
    expect(points.xRange).toEqual(box.x);
    expect(points.yRange).toEqual(box.y);
    expect(points.x.length).toBeGreaterThan(0);
    for (let k = 0; k < points.x.length; k++) {
      expect(points.x[k]).toBeGreaterThanOrEqual(4000);
      expect(points.x[k]).toBeLessThanOrEqual(6000);
      expect(points.y[k]).toBeGreaterThanOrEqual(1);
      expect(points.y[k]).toBeLessThanOrEqual(1.8);
    }
    // A box no sample reaches: nothing drawn, the empty box still the axes.
    const empty = xyPoints(
      {
        xId: rpmId,
        yId: mapId,
        box: { x: { min: 90_000, max: 91_000 }, y: box.y },
        i0: 0,
        i1: rows,
        width: 100,
        height: 50,
      },
      columnOf,
      undefined,
    );
    expect([empty.count, empty.x.length, empty.xRange]).toEqual([0, 0, { min: 90_000, max: 91_000 }]);
  });

  it("keeps inside a box only rows the filter kept, with both values logged", () => {
    const kept = insideBox(
      Float32Array.from([1, 2, 3, Number.NaN, 2]),
      Float32Array.from([1, 2, 2, 2, Number.NaN]),
      Uint8Array.from([1, 1, 0, 1, 1]),
      { x: { min: 1, max: 2 }, y: { min: 1, max: 2 } },
    );
    expect([...kept]).toEqual([1, 1, 0, 0, 0]);
  });
});
