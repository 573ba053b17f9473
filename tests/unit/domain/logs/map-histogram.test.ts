import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TuneItem } from "../../../../contracts/tune-definition";
import { parseLog } from "../../../../domain/logs";
import { LogAnalysisError } from "../../../../domain/logs/analysis-error";
import { mapHistogram } from "../../../../domain/logs/map-histogram";
import { readItem } from "../../../../domain/tune/maps";
import { importXdf } from "../../../../domain/tune/xdf";
import { thrownBy } from "../../support/thrown";

const FIXTURES = new URL("../../../../../shared/fixtures/", import.meta.url);

/** Nearest breakpoint by distance, a tie going to the later one in axis order. */
function nearest(breakpoints: readonly number[], value: number): number {
  const distances = breakpoints.map((b) => Math.abs(value - b));
  return distances.lastIndexOf(Math.min(...distances));
}

/** The textbook computation: every cell filtered from the rows one by one. */
function plain(
  x: number[],
  y: number[] | undefined,
  z: number[],
  mask: number[] | undefined,
  xs: readonly number[],
  ys: readonly number[] | undefined,
  minSamples: number,
) {
  const kept = x.flatMap((xi, i) =>
    (mask && !mask[i]) || Number.isNaN(xi) || Number.isNaN(z[i]) || (y && Number.isNaN(y[i]))
      ? []
      : [{ c: nearest(xs, xi), r: y && ys ? nearest(ys, y[i]) : 0, z: z[i] }],
  );
  const cells = (ys ?? [0]).map((_, r) =>
    xs.map((_, c) => {
      const values = kept.filter((k) => k.r === r && k.c === c).map((k) => k.z);
      const n = values.length;
      return {
        count: n,
        mean: n ? values.reduce((s, v) => s + v, 0) / n : null,
        min: n ? Math.min(...values) : null,
        max: n ? Math.max(...values) : null,
        enough: n >= minSamples,
      };
    }),
  );
  return { count: kept.length, cells };
}

function expectClose(actual: ReturnType<typeof mapHistogram>, expected: ReturnType<typeof plain>) {
  expect(actual.count).toBe(expected.count);
  actual.cells.forEach((row, r) => {
    row.forEach((cell, c) => {
      const want = expected.cells[r][c];
      expect({ ...cell, mean: null }, `cell [${r}][${c}]`).toEqual({ ...want, mean: null });
      if (want.mean === null) expect(cell.mean).toBeNull();
      else expect(cell.mean).toBeCloseTo(want.mean, 6);
    });
  });
}

describe("mapHistogram", () => {
  it("puts each row in the cell of its nearest breakpoints, rows along y and columns along x", () => {
    const h = mapHistogram(
      { x: [1000, 2900, 3100, 9000, 1000], y: [0.5, 0.5, 1.6, 2.5, Number.NaN], z: [10, 20, 30, 40, 50] },
      { xBreakpoints: [1000, 2000, 4000], yBreakpoints: [0.5, 1.5], minSamples: 1 },
    );
    expect(h.count).toBe(4);
    const counts = h.cells.map((row) => row.map((c) => c.count));
    expect(counts).toEqual([
      [1, 1, 0],
      [0, 0, 2],
    ]);
    expect(h.cells[1][2]).toEqual({ count: 2, mean: 35, min: 30, max: 40, enough: true });
    expect(h.cells[0][2]).toEqual({ count: 0, mean: null, min: null, max: null, enough: false });
  });

  it("bins descending axes as they are laid out, a halfway value going to the later breakpoint", () => {
    const h = mapHistogram({ x: [3000, 2500, 100], z: [1, 2, 3] }, { xBreakpoints: [4000, 3000, 2000], minSamples: 2 });
    expect(h.cells).toHaveLength(1);
    expect(h.cells[0].map((c) => c.count)).toEqual([0, 1, 2]);
    expect(h.cells[0].map((c) => c.enough)).toEqual([false, false, true]);
  });

  it("skips the rows the mask drops", () => {
    const h = mapHistogram(
      { x: [1, 1, 2], z: [5, 7, 9], mask: Uint8Array.from([1, 0, 1]) },
      { xBreakpoints: [1, 2], minSamples: 1 },
    );
    expect(h.cells[0].map((c) => c.mean)).toEqual([5, 9]);
  });

  it("matches the plain computation on any log, axis and mask", () => {
    // Halves: exact in binary, so the plain distances tie exactly where the midpoints do.
    const value = fc.oneof(
      fc.integer({ min: -200, max: 200 }).map((v) => v / 2),
      fc.constant(Number.NaN),
    );
    const axis = fc
      .uniqueArray(fc.integer({ min: -90, max: 90 }), { minLength: 1, maxLength: 6 })
      .chain((a) => fc.boolean().map((down) => [...a].sort((p, q) => (down ? q - p : p - q))));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(value, value, value, fc.integer({ min: 0, max: 1 })), { maxLength: 60 }),
        axis,
        fc.option(axis, { nil: undefined }),
        fc.boolean(),
        fc.integer({ min: 0, max: 4 }),
        (rows, xs, ys, masked, minSamples) => {
          const x = rows.map((r) => r[0]);
          const y = ys ? rows.map((r) => r[1]) : undefined;
          const z = rows.map((r) => r[2]);
          const mask = masked ? rows.map((r) => r[3]) : undefined;
          const h = mapHistogram(
            { x, y, z, mask: mask && Uint8Array.from(mask) },
            { xBreakpoints: xs, yBreakpoints: ys, minSamples },
          );
          expectClose(h, plain(x, y, z, mask, xs, ys, minSamples));
        },
      ),
    );
  });

  it("refuses axes that are not monotonic, channels of other lengths and a y without its axis, naming them", () => {
    const bad = thrownBy(LogAnalysisError, () =>
      mapHistogram({ x: [1], z: [1] }, { xBreakpoints: [1, 3, 2], minSamples: 1 }),
    );
    expect(bad.field).toBe("xBreakpoints");
    expect(bad.message).toBe(
      "xBreakpoints must increase or decrease throughout: xBreakpoints[2] (2) is not above xBreakpoints[1] (3)",
    );
    const short = thrownBy(LogAnalysisError, () =>
      mapHistogram({ x: [1, 2], z: [1] }, { xBreakpoints: [1], minSamples: 1 }),
    );
    expect(short.field).toBe("z");
    const noAxis = thrownBy(LogAnalysisError, () =>
      mapHistogram({ x: [1], y: [1], z: [1] }, { xBreakpoints: [1], minSamples: 1 }),
    );
    expect(noAxis.field).toBe("yBreakpoints");
    const minSamples = thrownBy(LogAnalysisError, () =>
      mapHistogram({ x: [1], z: [1] }, { xBreakpoints: [1], minSamples: 1.5 }),
    );
    expect(minSamples.field).toBe("minSamples");
  });

  it("ME7 (Audi 2.7T): the ME7Logger log's engine speed × load binned on KFLF's own axes matches the plain computation", () => {
    const image = new Uint8Array(readFileSync(new URL("images/me7-8D0907551M.bin", FIXTURES)));
    const xdf = readFileSync(new URL("definitions/me7-8D0907551M.xdf", FIXTURES), "latin1");
    const { definition } = importXdf(xdf, { firmwareId: "FIXTURE", imageSize: image.length });
    const kflf = readItem(image, definition.items.find((i: TuneItem) => i.id === "KFLF")!);
    // KFLF: relative load (%) along x, engine speed along y.
    expect(kflf.x?.unit).toBe("%");
    expect(kflf.y?.unit).toBe("Upm");
    const xs = (kflf.x as { values: number[] }).values;
    const ys = (kflf.y as { values: number[] }).values;
    const log = parseLog(new Uint8Array(readFileSync(new URL("logs/ecuxplot-me7l.csv", FIXTURES))));
    const column = (name: string) => Array.from(log.columns[log.channels.findIndex((c) => c.name === name)]);
    const [load, rpm, lambda] = [column("EngineLoad"), column("EngineSpeed"), column("LambdaControl")];
    const h = mapHistogram({ x: load, y: rpm, z: lambda }, { xBreakpoints: xs, yBreakpoints: ys, minSamples: 2 });
    expect(h.cells).toHaveLength(kflf.rows);
    expect(h.cells[0]).toHaveLength(kflf.cols);
    expect(h.count).toBe(log.rowCount);
    expectClose(h, plain(load, rpm, lambda, undefined, xs, ys, 2));
  });
});
