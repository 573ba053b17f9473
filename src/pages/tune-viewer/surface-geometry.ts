/**
 * The 3-D surface of a 2-D map, as geometry: the map laid out in a scene, an orthographic camera
 * turned by a drag, the projection onto a canvas, the far-to-near order the painter's algorithm
 * draws quads in, and their colours. No DOM: the canvas component draws what this computes.
 *
 * Scene: columns run along x and rows along y over [-1, 1], placed by their axis values where those
 * are numbers that rise or fall throughout (so 500, 1000, 2000, 4000 rpm stand at their distances,
 * as a tuner reads the shape), else spread evenly as the grid shows them (labels, or an axis that
 * turns back); the value is the height z, over [-HEIGHT/2, HEIGHT/2]
 * from the range's minimum to its maximum. The camera turns about the vertical axis (yaw) and
 * looks down by `pitch` (0: from the side, π/2: from straight above).
 */
import { deltaColour, heatColour } from "./model";

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

export interface View {
  /** Turn about the vertical axis, radians. */
  yaw: number;
  /** How far the camera looks down, radians, from 0 (side on) to π/2 (from above). */
  pitch: number;
}

/** Where a scene point lands: canvas pixels (y down) and its distance from the camera (larger is farther). */
export interface Projected {
  x: number;
  y: number;
  depth: number;
}

/** The surface's height in scene units against the base's side of 2: tall enough to read, low enough to fit. */
export const HEIGHT = 1.2;

/** A three-quarter view from the front left, a little from above, as tuning tools open a map's surface. */
export const START_VIEW: View = { yaw: -Math.PI / 6, pitch: Math.PI / 6 };

/** Radians turned per pixel dragged: a drag across a phone's canvas turns the map about once round. */
export const RADIANS_PER_PIXEL = 0.01;

const MIN_PITCH = 0;
const MAX_PITCH = Math.PI / 2;

/** The view after a drag by (dx, dy) pixels: sideways turns, up and down tilts, never past side-on or top-down. */
export function dragView(view: View, dx: number, dy: number): View {
  const pitch = Math.min(MAX_PITCH, Math.max(MIN_PITCH, view.pitch + dy * RADIANS_PER_PIXEL));
  return { yaw: view.yaw + dx * RADIANS_PER_PIXEL, pitch };
}

/** The bounding sphere's radius of the scene, so the surface fits the canvas at every angle without zooming as it turns. */
const SCENE_RADIUS = Math.sqrt(1 + 1 + (HEIGHT / 2) ** 2);

/**
 * A projection for a view and a canvas of `width` × `height` pixels: the scene's centre at the
 * canvas's centre, scaled so the scene's bounding sphere fits the smaller side less `margin` pixels.
 */
export function projector(view: View, width: number, height: number, margin = 0): (point: Vec3) => Projected {
  const cosYaw = Math.cos(view.yaw);
  const sinYaw = Math.sin(view.yaw);
  const cosPitch = Math.cos(view.pitch);
  const sinPitch = Math.sin(view.pitch);
  const scale = Math.max(0, Math.min(width, height) / 2 - margin) / SCENE_RADIUS;
  const cx = width / 2;
  const cy = height / 2;
  return ({ x, y, z }) => {
    // Turned about z, then seen from the front (-y), tilted down: farther points (larger y) rise on screen.
    const across = x * cosYaw - y * sinYaw;
    const away = x * sinYaw + y * cosYaw;
    const up = z * cosPitch + away * sinPitch;
    return { x: cx + scale * across, y: cy - scale * up, depth: away * cosPitch - z * sinPitch };
  };
}

/** A cell's x (column) or y (row) in the scene: spread evenly over [-1, 1]. */
export function gridPosition(index: number, count: number): number {
  return count > 1 ? -1 + (2 * index) / (count - 1) : 0;
}

/**
 * Where each of an axis's `count` cells stands over [-1, 1]: by its value when the axis gives
 * `count` finite numbers that rise or fall throughout, the first at -1 and the last at 1; else
 * evenly, as gridPosition.
 */
export function axisPositions(values: readonly number[] | undefined, count: number): number[] {
  const even = () => Array.from({ length: count }, (_, i) => gridPosition(i, count));
  if (!values || values.length !== count || count < 2 || !values.every(Number.isFinite)) return even();
  const first = values[0];
  const span = values[count - 1] - first;
  for (let i = 1; i < count; i++) {
    const step = values[i] - values[i - 1];
    if (step === 0 || Math.sign(step) !== Math.sign(span)) return even();
  }
  return values.map((value) => -1 + (2 * (value - first)) / span);
}

/** A value's height in the scene: the range's minimum at the bottom, its maximum at the top; a flat map lies mid-way. */
export function heightOf(value: number, min: number, max: number): number {
  return max > min ? ((value - min) / (max - min) - 0.5) * HEIGHT : 0;
}

export interface SurfaceGrid {
  rows: number;
  cols: number;
  /** Row-major, rows × cols. */
  values: readonly number[];
  /** Each column's x and each row's y in the scene (axisPositions); evenly spread when absent. */
  colPositions?: readonly number[];
  rowPositions?: readonly number[];
}

/** The patch between four neighbouring cells (row, col) to (row + 1, col + 1), corners in drawing order, with its colour. */
export interface Quad {
  row: number;
  col: number;
  corners: [Vec3, Vec3, Vec3, Vec3];
  /** The mean of its four cells, which its colour shows. */
  value: number;
  colour: string;
}

/** How a quad's value becomes its colour. */
export type ColourScale = (value: number) => string;

/** The grid's heat map over the surface's range: blue at the minimum through green to red at the maximum. */
export function heatScale(min: number, max: number): ColourScale {
  return (value) => heatColour(value, min, max);
}

/** Neither more nor less than the base: the grid's unchanged cells have no colour, and a surface needs one. */
export const UNCHANGED_COLOUR = "hsl(0, 0%, 82%)";

/**
 * A difference surface's colours, as the grid shows changes: red for more, blue for less, strongest
 * at the largest change either way, grey where nothing changed.
 */
export function differenceScale(min: number, max: number): ColourScale {
  const largest = Math.max(Math.abs(min), Math.abs(max));
  // deltaColour is full strength at 20 %: the largest change here is made that.
  return (delta) => (largest === 0 ? undefined : deltaColour(delta, (delta / largest) * 20)) ?? UNCHANGED_COLOUR;
}

/**
 * The quads of a map's surface, one per four neighbouring cells, heights over [min, max]. A quad
 * with a cell that is no number (NaN or ±Infinity in a float map) is left out: it has no place.
 */
export function surfaceQuads(grid: SurfaceGrid, min: number, max: number, colour: ColourScale): Quad[] {
  const { rows, cols, values } = grid;
  if (values.length !== rows * cols) {
    throw new Error(`a surface of ${rows} × ${cols} cells needs ${rows * cols} values, not ${values.length}`);
  }
  const xs = grid.colPositions ?? axisPositions(undefined, cols);
  const ys = grid.rowPositions ?? axisPositions(undefined, rows);
  const point = (row: number, col: number): Vec3 => ({
    x: xs[col],
    y: ys[row],
    z: heightOf(values[row * cols + col], min, max),
  });
  const quads: Quad[] = [];
  for (let row = 0; row + 1 < rows; row++) {
    for (let col = 0; col + 1 < cols; col++) {
      const cells = [
        values[row * cols + col],
        values[row * cols + col + 1],
        values[(row + 1) * cols + col + 1],
        values[(row + 1) * cols + col],
      ];
      if (!cells.every(Number.isFinite)) continue;
      const value = (cells[0] + cells[1] + cells[2] + cells[3]) / 4;
      quads.push({
        row,
        col,
        corners: [point(row, col), point(row, col + 1), point(row + 1, col + 1), point(row + 1, col)],
        value,
        colour: colour(value),
      });
    }
  }
  return quads;
}

export interface ProjectedQuad {
  quad: Quad;
  corners: [Projected, Projected, Projected, Projected];
  depth: number;
}

/**
 * The painter's algorithm: quads projected and sorted farthest first by their centres' depth, so
 * each drawn over those behind it hides them. Exact for a height field seen from above its base,
 * where no two quads cross.
 */
export function paintOrder(quads: readonly Quad[], project: (point: Vec3) => Projected): ProjectedQuad[] {
  return quads
    .map((quad) => {
      const corners = quad.corners.map(project) as ProjectedQuad["corners"];
      const depth = (corners[0].depth + corners[1].depth + corners[2].depth + corners[3].depth) / 4;
      return { quad, corners, depth };
    })
    .sort((a, b) => b.depth - a.depth);
}

/**
 * The base's edges nearest the camera, where axis labels go so the surface does not hide them:
 * which row edge (y = -1 or 1) carries the column axis's labels, and which column edge (x = -1 or 1)
 * the row axis's.
 */
export function nearEdges(view: View): { rowEdge: -1 | 1; colEdge: -1 | 1 } {
  // Depth grows with y·cos(yaw) and with x·sin(yaw) (projector): the near edge is on the side where it falls.
  return { rowEdge: Math.cos(view.yaw) >= 0 ? -1 : 1, colEdge: Math.sin(view.yaw) >= 0 ? -1 : 1 };
}

/** Every step-th index of an axis of `count` cells, the last always among them, so at most about `most` labels show. */
export function labelledIndexes(count: number, most: number): number[] {
  if (count <= 0) return [];
  const step = Math.max(1, Math.ceil(count / Math.max(1, most)));
  const indexes: number[] = [];
  for (let i = 0; i < count; i += step) indexes.push(i);
  if (indexes[indexes.length - 1] !== count - 1) {
    // The last label replaces one too close to it to read apart.
    if (count - 1 - indexes[indexes.length - 1] < step / 2 && indexes.length > 1) indexes.pop();
    indexes.push(count - 1);
  }
  return indexes;
}
