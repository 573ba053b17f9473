import { Alert, Button, Flex, Segmented, Typography, theme } from "antd";
import { type KeyboardEvent, type PointerEvent, type RefObject, useEffect, useMemo, useRef, useState } from "react";
import type { ItemValues } from "../../../domain/tune/maps";
import { axisLabels, axisName, formatValue, valueRange } from "./model";
import {
  axisPositions,
  type ColourScale,
  differenceScale,
  dragView,
  HEIGHT,
  heatScale,
  labelledIndexes,
  nearEdges,
  paintOrder,
  projector,
  RADIANS_PER_PIXEL,
  START_VIEW,
  type SurfaceGrid,
  surfaceQuads,
  type View,
} from "./surface-geometry";

/** Room at the canvas's edges for the axis labels, in CSS pixels. */
const MARGIN = 30;
/** How far outside the base its axis labels stand, in scene units (the base runs from -1 to 1). */
const LABEL_OFFSET = 1.14;
/** The base's corners, in the order that draws its outline. */
const BASE_CORNERS = [
  { x: -1, y: -1 },
  { x: 1, y: -1 },
  { x: 1, y: 1 },
  { x: -1, y: 1 },
] as const;
/** Radians an arrow key turns the surface by. */
const KEY_STEP = Math.PI / 18;

/** The width of a box as it is laid out, followed as it changes (a phone turned, a side panel opened). */
function useWidth(box: RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);
  return width;
}

interface Surface {
  grid: Required<SurfaceGrid>;
  min: number;
  max: number;
  colour: ColourScale;
  /** What the height shows, with its unit. */
  valueName: string;
}

/** An axis's numbers, when it has numbers rather than labels. */
function axisNumbers(axis: ItemValues["x"]): readonly number[] | undefined {
  return axis && "values" in axis ? axis.values : undefined;
}

/** The map as a surface, or its difference from the base (tuned − base) with zero inside the height's range. */
function surfaceOf(values: ItemValues, base: ItemValues | undefined, baseLabel: string): Surface {
  const unit = values.unit ?? "value";
  const placed = {
    rows: values.rows,
    cols: values.cols,
    colPositions: axisPositions(axisNumbers(values.x), values.cols),
    rowPositions: axisPositions(axisNumbers(values.y), values.rows),
  };
  if (!base) {
    const { min, max } = valueRange(values.values);
    return { grid: { ...placed, values: values.values }, min, max, colour: heatScale(min, max), valueName: unit };
  }
  const deltas = values.values.map((value, i) => value - base.values[i]);
  const range = valueRange(deltas);
  return {
    grid: { ...placed, values: deltas },
    min: Math.min(0, range.min),
    max: Math.max(0, range.max),
    colour: differenceScale(range.min, range.max),
    valueName: `${unit}, tune − ${baseLabel}`,
  };
}

interface Ink {
  text: string;
  secondary: string;
  line: string;
  font: string;
}

/** One frame: the base, the quads far to near, then the axes' values and names on the edges nearest the camera. */
function paint(
  context: CanvasRenderingContext2D,
  size: { width: number; height: number },
  surface: Surface,
  values: ItemValues,
  view: View,
  ink: Ink,
) {
  const { width, height } = size;
  context.clearRect(0, 0, width, height);
  const project = projector(view, width, height, MARGIN);
  const floor = -HEIGHT / 2;
  const path = (points: Array<{ x: number; y: number }>) => {
    context.beginPath();
    context.moveTo(points[0].x, points[0].y);
    for (const p of points.slice(1)) context.lineTo(p.x, p.y);
    context.closePath();
  };

  context.lineWidth = 1;
  context.strokeStyle = ink.line;
  path(BASE_CORNERS.map((corner) => project({ ...corner, z: floor })));
  context.stroke();

  const { rows, cols } = surface.grid;
  context.lineWidth = 0.5;
  context.strokeStyle = "rgba(0, 0, 0, 0.35)";
  for (const { quad, corners } of paintOrder(
    surfaceQuads(surface.grid, surface.min, surface.max, surface.colour),
    project,
  )) {
    path(corners);
    context.fillStyle = quad.colour;
    context.fill();
    context.stroke();
  }

  context.font = ink.font;
  context.fillStyle = ink.secondary;
  context.textBaseline = "middle";
  context.textAlign = "center";
  const { rowEdge, colEdge } = nearEdges(view);
  const most = Math.max(2, Math.floor(width / 70));
  const xs = axisLabels(values.x, cols);
  const ys = axisLabels(values.y, rows);
  for (const col of labelledIndexes(cols, most)) {
    const at = project({ x: surface.grid.colPositions[col], y: rowEdge * LABEL_OFFSET, z: floor });
    context.fillText(xs[col], at.x, at.y);
  }
  for (const row of labelledIndexes(rows, most)) {
    const at = project({ x: colEdge * LABEL_OFFSET, y: surface.grid.rowPositions[row], z: floor });
    context.fillText(ys[row], at.x, at.y);
  }
  context.fillStyle = ink.text;
  const xName = project({ x: 0, y: rowEdge * (LABEL_OFFSET + 0.22), z: floor });
  context.fillText(`→ ${axisName(values.x, "column")}`, xName.x, xName.y);
  const yName = project({ x: colEdge * (LABEL_OFFSET + 0.22), y: 0, z: floor });
  context.fillText(`→ ${axisName(values.y, "row")}`, yName.x, yName.y);

  // The height's scale stands on the base's corner farthest to the left, where the surface hides it least.
  const onFloor = BASE_CORNERS.map((corner) => project({ ...corner, z: floor }));
  const leftmost = onFloor.reduce((best, p, i) => (p.x < onFloor[best].x ? i : best), 0);
  const left = BASE_CORNERS[leftmost];
  const bottom = onFloor[leftmost];
  const top = project({ ...left, z: -floor });
  context.strokeStyle = ink.line;
  context.lineWidth = 1;
  context.beginPath();
  context.moveTo(bottom.x, bottom.y);
  context.lineTo(top.x, top.y);
  context.stroke();
  context.textAlign = "right";
  context.fillStyle = ink.secondary;
  context.fillText(formatValue(surface.min), bottom.x - 4, bottom.y);
  if (surface.max > surface.min) context.fillText(formatValue(surface.max), top.x - 4, top.y);
  context.textAlign = "left";
  context.fillStyle = ink.text;
  context.fillText(`↑ ${surface.valueName}`, Math.max(2, top.x - 20), Math.max(8, top.y - 14));
}

/**
 * A 2-D map's surface on a canvas: columns across, rows in depth, the value as height, quads in the
 * grid's heat colours; a drag (mouse, pen or finger) or the arrow keys turn it. With a base, the
 * difference (tune − base) can be shown instead.
 */
export default function SurfaceView({
  values,
  base,
  baseLabel = "Stock",
}: {
  values: ItemValues;
  /** What the map is compared with: offers the difference surface. */
  base?: ItemValues;
  baseLabel?: string;
}) {
  const { token } = theme.useToken();
  const [view, setView] = useState<View>(START_VIEW);
  const comparable = base !== undefined && base.values.length === values.values.length;
  const [difference, setDifference] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const drag = useRef<{ pointer: number; x: number; y: number } | null>(null);
  const width = useWidth(box);
  // Wider than tall, as the surface is, and never so tall that it pushes the grid off a phone's screen.
  const height = Math.round(Math.min(440, Math.max(240, width * 0.66)));
  const surface = useMemo(
    () => surfaceOf(values, comparable && difference ? base : undefined, baseLabel),
    [values, base, baseLabel, comparable, difference],
  );

  useEffect(() => {
    const element = canvas.current;
    const context = element?.getContext("2d");
    if (!element || !context || width === 0) return;
    const ratio = window.devicePixelRatio || 1;
    element.width = Math.round(width * ratio);
    element.height = Math.round(height * ratio);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    paint(context, { width, height }, surface, values, view, {
      text: token.colorText,
      secondary: token.colorTextSecondary,
      line: token.colorBorder,
      font: `12px ${token.fontFamily}`,
    });
  }, [width, height, surface, values, view, token]);

  if (values.rows < 2 || values.cols < 2)
    return <Alert type="info" showIcon message="A surface needs at least two rows and two columns." />;

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointer: event.pointerId, x: event.clientX, y: event.clientY };
  };
  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    const last = drag.current;
    if (!last || last.pointer !== event.pointerId) return;
    drag.current = { ...last, x: event.clientX, y: event.clientY };
    setView((current) => dragView(current, event.clientX - last.x, event.clientY - last.y));
  };
  const onPointerEnd = () => {
    drag.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>) => {
    const step = event.key === "ArrowLeft" ? [-1, 0] : event.key === "ArrowRight" ? [1, 0] : null;
    const tilt = event.key === "ArrowUp" ? [0, -1] : event.key === "ArrowDown" ? [0, 1] : null;
    const [dx, dy] = step ?? tilt ?? [0, 0];
    if (dx === 0 && dy === 0) return;
    event.preventDefault();
    setView((current) => dragView(current, (dx * KEY_STEP) / RADIANS_PER_PIXEL, (dy * KEY_STEP) / RADIANS_PER_PIXEL));
  };

  return (
    <Flex vertical gap={8} data-testid="map-surface">
      <Flex gap={8} wrap align="center">
        {comparable && (
          <Segmented
            aria-label="Surface"
            value={difference ? "difference" : "tune"}
            onChange={(value) => setDifference(value === "difference")}
            options={[
              { label: "Tune", value: "tune" },
              { label: `Tune − ${baseLabel}`, value: "difference" },
            ]}
          />
        )}
        <Button size="small" onClick={() => setView(START_VIEW)}>
          Reset view
        </Button>
        <Typography.Text type="secondary">Drag to turn</Typography.Text>
      </Flex>
      <div ref={box} style={{ width: "100%" }}>
        <canvas
          ref={canvas}
          role="img"
          aria-label={`Surface of the map: ${surface.valueName} as height`}
          tabIndex={0}
          style={{ width, height, display: "block", touchAction: "none", cursor: "grab" }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerEnd}
          onPointerCancel={onPointerEnd}
          onKeyDown={onKeyDown}
        />
      </div>
      <Typography.Text type="secondary" data-testid="surface-range">
        height and colour: {surface.valueName}, {formatValue(surface.min)} to {formatValue(surface.max)}
      </Typography.Text>
    </Flex>
  );
}
