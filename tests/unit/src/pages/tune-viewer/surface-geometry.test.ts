import { describe, expect, it } from "vitest";
import {
  axisPositions,
  differenceScale,
  dragView,
  gridPosition,
  HEIGHT,
  heatScale,
  heightOf,
  labelledIndexes,
  nearEdges,
  paintOrder,
  projector,
  START_VIEW,
  surfaceQuads,
  UNCHANGED_COLOUR,
} from "../../../../../src/pages/tune-viewer/surface-geometry";

/** The scene's bounding sphere: corners (±1, ±1, ±HEIGHT/2). */
const RADIUS = Math.sqrt(2 + (HEIGHT / 2) ** 2);
const flat = (rows: number, cols: number, value = 1) => ({ rows, cols, values: Array(rows * cols).fill(value) });
const grey = () => "grey";

describe("surface projection", () => {
  it("projects a point seen from straight above where the hand computation puts it", () => {
    // yaw 0, pitch 90°: x goes right, y goes up the screen, z comes at the camera.
    const project = projector({ yaw: 0, pitch: Math.PI / 2 }, 300, 300);
    const scale = 150 / RADIUS;
    const p = project({ x: 0.5, y: 0.5, z: 0.3 });
    expect(p.x).toBeCloseTo(150 + 0.5 * scale, 9);
    expect(p.y).toBeCloseTo(150 - 0.5 * scale, 9);
    expect(p.depth).toBeCloseTo(-0.3, 9);
  });

  it("projects a point turned a quarter round, side on, onto the canvas's centre line at the depth of its distance", () => {
    // yaw 90°: the +x axis turns away from the camera; the +y axis turns to the left.
    const project = projector({ yaw: Math.PI / 2, pitch: 0 }, 200, 100, 10);
    const scale = 40 / RADIUS;
    const away = project({ x: 1, y: 0, z: 0 });
    expect(away.x).toBeCloseTo(100, 9);
    expect(away.y).toBeCloseTo(50, 9);
    expect(away.depth).toBeCloseTo(1, 9);
    const left = project({ x: 0, y: 1, z: HEIGHT / 2 });
    expect(left.x).toBeCloseTo(100 - scale, 9);
    expect(left.y).toBeCloseTo(50 - (HEIGHT / 2) * scale, 9);
  });

  it("fits every corner of the scene inside the canvas at any angle", () => {
    for (const yaw of [0, 0.4, 1.3, 2.9, -2]) {
      for (const pitch of [0, 0.5, Math.PI / 2]) {
        const project = projector({ yaw, pitch }, 390, 280, 12);
        for (const x of [-1, 1])
          for (const y of [-1, 1])
            for (const z of [-HEIGHT / 2, HEIGHT / 2]) {
              const p = project({ x, y, z });
              expect(p.x).toBeGreaterThanOrEqual(12 - 1e-9);
              expect(p.x).toBeLessThanOrEqual(390 - 12 + 1e-9);
              expect(p.y).toBeGreaterThanOrEqual(0);
              expect(p.y).toBeLessThanOrEqual(280);
            }
      }
    }
  });

  it("turns with a sideways drag and tilts with a vertical one, never past side-on or top-down", () => {
    expect(dragView({ yaw: 0, pitch: 0.5 }, 100, -20)).toEqual({ yaw: 1, pitch: 0.3 });
    expect(dragView(START_VIEW, 0, -10_000).pitch).toBe(0);
    expect(dragView(START_VIEW, 0, 10_000).pitch).toBe(Math.PI / 2);
  });
});

describe("surface quads", () => {
  it("lays cells evenly over [-1, 1] and values over the height, the minimum at the bottom", () => {
    expect([0, 1, 2].map((i) => gridPosition(i, 3))).toEqual([-1, 0, 1]);
    expect(heightOf(10, 10, 20)).toBeCloseTo(-HEIGHT / 2, 9);
    expect(heightOf(20, 10, 20)).toBeCloseTo(HEIGHT / 2, 9);
    expect(heightOf(5, 5, 5)).toBe(0);
  });

  it("makes one quad per four neighbouring cells, valued at their mean, and leaves out those touching a NaN", () => {
    const quads = surfaceQuads({ rows: 2, cols: 3, values: [0, 4, Number.NaN, 8, 4, 0] }, 0, 8, grey);
    expect(quads.map((q) => [q.row, q.col, q.value])).toEqual([[0, 0, 4]]);
    expect(quads[0].corners.map((c) => [c.x, c.y])).toEqual([
      [-1, -1],
      [0, -1],
      [0, 1],
      [-1, 1],
    ]);
  });

  it("places cells by their axis values when those rise or fall throughout, else evenly", () => {
    // Each at -1 + 2 · (rpm − 500) / 3,500: the first at -1, the last at 1.
    const rpm = axisPositions([500, 1000, 2000, 4000], 4);
    for (const [i, expected] of [-1, -1 + 1000 / 3500, -1 + 3000 / 3500, 1].entries())
      expect(rpm[i]).toBeCloseTo(expected, 12);
    // A falling axis keeps its first cell at -1, as the grid shows it.
    const falling = axisPositions([4, 2, 1], 3);
    for (const [i, expected] of [-1, 1 / 3, 1].entries()) expect(falling[i]).toBeCloseTo(expected, 12);
    const even = [-1, 0, 1];
    expect(axisPositions([1, 3, 2], 3)).toEqual(even);
    expect(axisPositions([1, 1, 2], 3)).toEqual(even);
    expect(axisPositions([1, Number.NaN, 2], 3)).toEqual(even);
    expect(axisPositions([1, 2], 3)).toEqual(even);
    expect(axisPositions(undefined, 3)).toEqual(even);
    expect(axisPositions([7], 1)).toEqual([0]);
  });

  it("puts a quad's corners where its cells' axis values place them", () => {
    const grid = { ...flat(2, 3), colPositions: [-1, -0.5, 1], rowPositions: [-1, 1] };
    expect(surfaceQuads(grid, 0, 2, grey).map((q) => q.corners.map((c) => c.x))).toEqual([
      [-1, -0.5, -0.5, -1],
      [-0.5, 1, 1, -0.5],
    ]);
  });

  it("refuses values that do not fill the grid, naming both counts", () => {
    expect(() => surfaceQuads({ rows: 2, cols: 2, values: [1, 2, 3] }, 0, 3, grey)).toThrow(
      "a surface of 2 × 2 cells needs 4 values, not 3",
    );
  });

  it("paints the rows far from the camera first, and the other way round once turned half round", () => {
    const quads = surfaceQuads(flat(4, 2), 1, 1, grey);
    const fromFront = paintOrder(quads, projector({ yaw: 0, pitch: 0.3 }, 100, 100));
    expect(fromFront.map((q) => q.quad.row)).toEqual([2, 1, 0]);
    const fromBehind = paintOrder(quads, projector({ yaw: Math.PI, pitch: 0.3 }, 100, 100));
    expect(fromBehind.map((q) => q.quad.row)).toEqual([0, 1, 2]);
  });

  it("paints a raised quad after the lower ones around it when seen from above", () => {
    // The right quad's cells stand higher (mean 4.5 against 2.25): from above it is the nearer.
    const quads = surfaceQuads({ rows: 2, cols: 3, values: [0, 0, 0, 0, 9, 9] }, 0, 9, grey);
    const order = paintOrder(quads, projector({ yaw: 0, pitch: Math.PI / 2 }, 100, 100));
    expect(order.map((q) => q.quad.col)).toEqual([0, 1]);
  });

  it("labels the base's edges nearest the camera", () => {
    expect(nearEdges({ yaw: 0.1, pitch: 0.5 })).toEqual({ rowEdge: -1, colEdge: -1 });
    expect(nearEdges({ yaw: -0.1, pitch: 0.5 })).toEqual({ rowEdge: -1, colEdge: 1 });
    expect(nearEdges({ yaw: Math.PI - 0.1, pitch: 0.5 })).toEqual({ rowEdge: 1, colEdge: -1 });
  });

  it("labels about as many axis values as there is room for, always the first and the last", () => {
    expect(labelledIndexes(16, 6)).toEqual([0, 3, 6, 9, 12, 15]);
    expect(labelledIndexes(5, 8)).toEqual([0, 1, 2, 3, 4]);
    expect(labelledIndexes(10, 3)).toEqual([0, 4, 9]);
    expect(labelledIndexes(0, 4)).toEqual([]);
  });
});

describe("surface colours", () => {
  it("runs the heat scale from the grid's blue at the minimum to its red at the maximum, clamped beyond", () => {
    const scale = heatScale(10, 20);
    expect(scale(10)).toBe("hsl(240, 70%, 80%)");
    expect(scale(20)).toBe("hsl(0, 70%, 80%)");
    expect(scale(15)).toBe("hsl(120, 70%, 80%)");
    expect(scale(-100)).toBe(scale(10));
    expect(scale(100)).toBe(scale(20));
  });

  it("colours a difference red for more and blue for less, strongest at the largest change, grey for none", () => {
    const scale = differenceScale(-2, 4);
    expect(scale(4)).toBe("hsl(0, 75%, 62%)");
    expect(scale(-4)).toBe("hsl(215, 75%, 62%)");
    expect(scale(-2)).toBe("hsl(215, 75%, 77%)");
    expect(scale(0)).toBe(UNCHANGED_COLOUR);
    expect(differenceScale(0, 0)(0)).toBe(UNCHANGED_COLOUR);
  });
});
