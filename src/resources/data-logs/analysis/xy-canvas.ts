/**
 * Paints an X–Y plot on a canvas: axes with round ticks, one small square per point the worker
 * sent (at most one per pixel), coloured along a ramp by a third channel, and the ramp's legend;
 * compared logs' points over them, each log in a colour of its own, named in a key.
 */
import { axisTicks, tickLabel } from "../../../lib/axis-ticks";
import type { AxisRange } from "./log-worker-analysis";

export interface XyPicture {
  x: Float32Array;
  y: Float32Array;
  colour: Float32Array | null;
  xRange: { min: number; max: number };
  yRange: { min: number; max: number };
  colourRange: { min: number; max: number } | null;
  xTitle: string;
  yTitle: string;
  colourTitle: string | null;
  /** Compared logs' points, in display units, drawn over this log's in their own colours. */
  overlays?: XyOverlay[];
}

export interface XyOverlay {
  title: string;
  colour: string;
  x: Float32Array;
  y: Float32Array;
}

/** The compared logs' colours in turn: apart from the ramp's blues, greens and reds. */
export const XY_OVERLAY_COLOURS = ["#111111", "#b000b5", "#8a5a00"];

export interface XyStyle {
  text: string;
  grid: string;
  /** The points' colour without a colour channel. */
  point: string;
}

/** A point's size in CSS pixels: the worker sends one point per cell of this size. */
export const XY_DOT = 2;

/** The plot area's margins in CSS pixels: room for the tick labels, the titles and the colour legend. */
export const XY_MARGIN = { left: 64, right: 88, top: 12, bottom: 44 };

/** From blue through green to red (low to high), as tuners' scatter plots colour them. */
const RAMP = ["#313695", "#4575b4", "#74add1", "#abd9e9", "#a6d96a", "#fee08b", "#fdae61", "#f46d43", "#d73027"];
const SHADES = RAMP.length;

const shadeOf = (v: number, range: { min: number; max: number }) => {
  const span = range.max - range.min;
  if (Number.isNaN(v)) return -1;
  return span > 0 ? Math.min(SHADES - 1, Math.floor(((v - range.min) / span) * SHADES)) : 0;
};

/**
 * Where a value lies on the plot (CSS pixels from the canvas's top left) and back. The worker's
 * pixel cells span the ranges exactly; a flat channel sits on the axis's middle.
 */
export function xyScale(width: number, height: number, xRange: AxisRange, yRange: AxisRange) {
  const { left, right, top, bottom } = XY_MARGIN;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const xSpan = xRange.max - xRange.min;
  const ySpan = yRange.max - yRange.min;
  return {
    px: (v: number) => left + (xSpan > 0 ? ((v - xRange.min) / xSpan) * (plotWidth - 1) : plotWidth / 2),
    py: (v: number) =>
      top + plotHeight - 1 - (ySpan > 0 ? ((v - yRange.min) / ySpan) * (plotHeight - 1) : plotHeight / 2),
    /** The X value at a pixel column, held to the axis's range. */
    xAt: (pixel: number) => xRange.min + Math.min(1, Math.max(0, (pixel - left) / Math.max(1, plotWidth - 1))) * xSpan,
    /** The Y value at a pixel row, held to the axis's range. */
    yAt: (pixel: number) =>
      yRange.min + Math.min(1, Math.max(0, (top + plotHeight - 1 - pixel) / Math.max(1, plotHeight - 1))) * ySpan,
  };
}

/** Draws the picture into a canvas of `width` × `height` CSS pixels (the canvas already scaled for the device). */
export function paintXy(
  ctx: CanvasRenderingContext2D,
  width: number,
  height: number,
  picture: XyPicture,
  style: XyStyle,
): void {
  const { left, right, top, bottom } = XY_MARGIN;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  ctx.clearRect(0, 0, width, height);
  if (plotWidth <= 0 || plotHeight <= 0) return;
  const { xRange, yRange } = picture;
  const { px, py } = xyScale(width, height, xRange, yRange);

  ctx.font = "12px sans-serif";
  ctx.lineWidth = 1;
  ctx.strokeStyle = style.grid;
  ctx.fillStyle = style.text;
  const xTicks = axisTicks(xRange.min, xRange.max, Math.max(2, Math.floor(plotWidth / 90)));
  const yTicks = axisTicks(yRange.min, yRange.max, Math.max(2, Math.floor(plotHeight / 50)));
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (const tick of xTicks) {
    const x = Math.round(px(tick)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, top + plotHeight);
    ctx.stroke();
    ctx.fillText(tickLabel(tick, xTicks), x, top + plotHeight + 4);
  }
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (const tick of yTicks) {
    const y = Math.round(py(tick)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(left, y);
    ctx.lineTo(left + plotWidth, y);
    ctx.stroke();
    ctx.fillText(tickLabel(tick, yTicks), left - 6, y);
  }
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText(picture.xTitle, left + plotWidth / 2, height - 2);
  ctx.save();
  ctx.translate(12, top + plotHeight / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = "middle";
  ctx.fillText(picture.yTitle, 0, 0);
  ctx.restore();

  // Points grouped by shade: one fill colour set per shade, not per point.
  const { x, y, colour, colourRange } = picture;
  const groups: number[][] = Array.from({ length: SHADES }, () => []);
  const plain: number[] = [];
  for (let k = 0; k < x.length; k++) {
    const shade = colour && colourRange ? shadeOf(colour[k], colourRange) : -1;
    (shade < 0 ? plain : groups[shade]).push(k);
  }
  const dot = (k: number) => ctx.fillRect(px(x[k]) - XY_DOT / 2, py(y[k]) - XY_DOT / 2, XY_DOT, XY_DOT);
  ctx.fillStyle = colour ? style.grid : style.point;
  plain.forEach(dot);
  groups.forEach((members, shade) => {
    ctx.fillStyle = RAMP[shade];
    members.forEach(dot);
  });

  const overlays = picture.overlays ?? [];
  for (const overlay of overlays) {
    ctx.fillStyle = overlay.colour;
    for (let k = 0; k < overlay.x.length; k++) {
      const [vx, vy] = [overlay.x[k], overlay.y[k]];
      // Outside the axes (a box zoomed on this log's points): not drawn.
      if (vx < xRange.min || vx > xRange.max || vy < yRange.min || vy > yRange.max) continue;
      ctx.fillRect(px(vx) - XY_DOT / 2, py(vy) - XY_DOT / 2, XY_DOT, XY_DOT);
    }
  }
  if (overlays.length) paintKey(ctx, left + 8, top + 6, overlays, style);

  if (colourRange && picture.colourTitle)
    paintLegend(ctx, width, top, plotHeight, colourRange, picture.colourTitle, style);
}

/** The compared logs' colours with their names, at the plot's top left. */
function paintKey(ctx: CanvasRenderingContext2D, x: number, y: number, overlays: XyOverlay[], style: XyStyle) {
  ctx.font = "12px sans-serif";
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  overlays.forEach((overlay, k) => {
    const row = y + 8 + k * 16;
    ctx.fillStyle = overlay.colour;
    ctx.fillRect(x, row - 4, 8, 8);
    ctx.fillStyle = style.text;
    ctx.fillText(overlay.title, x + 12, row);
  });
}

/** The smallest range holding all of them (null ones skipped). */
export function unionRange(ranges: ReadonlyArray<AxisRange | null>): AxisRange | null {
  const given = ranges.filter((range): range is AxisRange => range !== null);
  if (!given.length) return null;
  return { min: Math.min(...given.map((r) => r.min)), max: Math.max(...given.map((r) => r.max)) };
}

function paintLegend(
  ctx: CanvasRenderingContext2D,
  width: number,
  top: number,
  plotHeight: number,
  range: { min: number; max: number },
  title: string,
  style: XyStyle,
): void {
  const barLeft = width - XY_MARGIN.right + 16;
  const barHeight = Math.min(plotHeight - 24, 240);
  const step = barHeight / SHADES;
  RAMP.forEach((shade, k) => {
    ctx.fillStyle = shade;
    ctx.fillRect(barLeft, top + 20 + barHeight - (k + 1) * step, 14, Math.ceil(step));
  });
  ctx.fillStyle = style.text;
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  const ticks = [range.min, range.max];
  const label = (v: number) => tickLabel(v, axisTicks(range.min, range.max, 4));
  ctx.fillText(title.length > 12 ? `${title.slice(0, 11)}…` : title, barLeft - 10, top);
  ctx.textBaseline = "middle";
  ctx.fillText(label(ticks[1]), barLeft + 18, top + 20);
  ctx.fillText(label(ticks[0]), barLeft + 18, top + 20 + barHeight);
}
