import { Button, Flex, Select, Typography, theme } from "antd";
import { type PointerEvent, useEffect, useMemo, useRef, useState } from "react";
import { type Conversion, convert } from "../../../lib/log-units";
import type { ChartChannel } from "./channels";
import type { TimeRange } from "./log-chart";
import type { AxisRange, XyBox, XyPoints } from "./log-worker-analysis";
import { paintXy, unionRange, XY_DOT, XY_MARGIN, type XyOverlay, type XyPicture, xyScale } from "./xy-canvas";

export interface XyChoice {
  xId: string;
  yId: string;
  colourId?: string;
}

/** A box dragged on the plot zooms it; the box belongs to the channels it was drawn over. */
interface XyZoom {
  xId: string;
  yId: string;
  box: XyBox;
}

/** A compared log's points for the same choice, in display units, with their ranges. */
export interface ComparedXy extends XyOverlay {
  xRange: AxisRange | null;
  yRange: AxisRange | null;
}

/** Pointer travel under which a press is a click, not a box to zoom to. */
const BOX_PIXELS = 4;

interface XyViewProps {
  channels: ChartChannel[];
  /** The first choice: engine speed on X when the log has it. */
  initial: XyChoice;
  /** Asks the worker for the points of the range (the filter applied there). */
  request: (
    body: XyChoice & { box?: XyBox; t0: number; t1: number; width: number; height: number },
  ) => Promise<XyPoints>;
  range: TimeRange;
  /** Changes when the filter does, so the points are asked again. */
  filterKey: string;
  height: number;
  conversionOf: (id: string) => Conversion;
  /** Compared logs' points for the same channels (their own matched ones) and range. */
  compared?: (body: XyChoice & { t0: number; t1: number; width: number; height: number }) => Promise<ComparedXy[]>;
  /** Changes when the compared logs or their places do, so their points are asked again. */
  comparedKey?: string;
}

/** Values in the units shown. */
export const converted = (values: Float32Array, conversion: Conversion) =>
  conversion.scale === 1 && conversion.offset === 0 ? values : values.map((v) => convert(v, conversion));
/** A range in the units shown, in order (a conversion may turn it round). */
export const convertedRange = (range: AxisRange, conversion: Conversion) => {
  const [a, b] = [convert(range.min, conversion), convert(range.max, conversion)];
  return { min: Math.min(a, b), max: Math.max(a, b) };
};
/** A range in display units back in the channel's stored units (the conversions are linear). */
const storedRange = (range: AxisRange, conversion: Conversion): AxisRange => {
  const back = (v: number) => (v - conversion.offset) / conversion.scale;
  const [a, b] = [back(range.min), back(range.max)];
  return { min: Math.min(a, b), max: Math.max(a, b) };
};

/** Any channel against any other over the chart's range, coloured by a third, drawn on a canvas. */
export function XyView({
  channels,
  initial,
  request,
  range,
  filterKey,
  height,
  conversionOf,
  compared,
  comparedKey,
}: XyViewProps) {
  const { token } = theme.useToken();
  const [choice, setChoice] = useState<XyChoice>(initial);
  const [zoom, setZoom] = useState<XyZoom | null>(null);
  const box = zoom && zoom.xId === choice.xId && zoom.yId === choice.yId ? zoom.box : undefined;
  /** The box being dragged, in CSS pixels of the canvas. */
  const [drag, setDrag] = useState<{ x0: number; y0: number; x1: number; y1: number } | null>(null);
  /** The axes' ranges as last painted (display units): a dragged box is read against them. */
  const painted = useRef<{ xRange: AxisRange; yRange: AxisRange } | null>(null);
  /** The last answer, and whether it was for a box (the words under the plot follow the answer, not the wish). */
  const [points, setPoints] = useState<(XyPoints & { boxed: boolean }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [overlays, setOverlays] = useState<ComparedXy[]>([]);
  const [width, setWidth] = useState(0);
  const host = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const byId = useMemo(() => new Map(channels.map((channel) => [channel.id, channel])), [channels]);
  // In the units the plot shows, as its axes are titled.
  const options = useMemo(
    () =>
      channels.map((c) => {
        const unit = conversionOf(c.id).unit;
        return { value: c.id, label: `${c.name}${unit ? ` (${unit})` : ""}` };
      }),
    [channels, conversionOf],
  );

  useEffect(() => {
    const element = host.current!;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, []);

  // The latest wish wins: an answer to an older one is dropped.
  const asked = useRef(0);
  useEffect(() => {
    if (width <= 0 || !byId.has(choice.xId) || !byId.has(choice.yId)) return;
    const ask = ++asked.current;
    const body = {
      ...choice,
      t0: range[0],
      t1: range[1],
      // A cell per point's 2 × 2 pixels: a point a pixel wide is too small to see its colour.
      width: (width - XY_MARGIN.left - XY_MARGIN.right) / XY_DOT,
      height: (height - XY_MARGIN.top - XY_MARGIN.bottom) / XY_DOT,
    };
    Promise.all([request({ ...body, box }), compared ? compared(body) : []]).then(
      ([answer, others]) => {
        if (ask !== asked.current) return;
        setPoints({ ...answer, boxed: box !== undefined });
        setOverlays(others);
        setError(null);
      },
      (failure: Error) => ask === asked.current && setError(failure.message),
    );
  }, [choice, box, range, filterKey, width, height, request, byId, compared, comparedKey]);

  const title = (id: string) => {
    const channel = byId.get(id);
    const unit = conversionOf(id).unit;
    return channel ? `${channel.name}${unit ? ` (${unit})` : ""}` : id;
  };

  useEffect(() => {
    const element = canvas.current;
    if (!element || width <= 0) return;
    const ratio = window.devicePixelRatio || 1;
    element.width = Math.round(width * ratio);
    element.height = Math.round(height * ratio);
    const ctx = element.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    painted.current = null;
    if (!points?.xRange || !points.yRange) return ctx.clearRect(0, 0, width, height);
    const [xc, yc] = [conversionOf(choice.xId), conversionOf(choice.yId)];
    const cc = choice.colourId ? conversionOf(choice.colourId) : null;
    // The axes hold every log's points, or only the box zoomed to on this log's.
    const [ownX, ownY] = [convertedRange(points.xRange, xc), convertedRange(points.yRange, yc)];
    const picture: XyPicture = {
      x: converted(points.x, xc),
      y: converted(points.y, yc),
      colour: points.colour && cc ? converted(points.colour, cc) : null,
      xRange: points.boxed ? ownX : unionRange([ownX, ...overlays.map((o) => o.xRange)])!,
      yRange: points.boxed ? ownY : unionRange([ownY, ...overlays.map((o) => o.yRange)])!,
      overlays,
      colourRange: points.colourRange && cc ? convertedRange(points.colourRange, cc) : null,
      xTitle: title(choice.xId),
      yTitle: title(choice.yId),
      colourTitle: choice.colourId ? (byId.get(choice.colourId)?.name ?? null) : null,
    };
    painted.current = { xRange: picture.xRange, yRange: picture.yRange };
    paintXy(ctx, width, height, picture, {
      text: token.colorTextSecondary,
      grid: token.colorBorderSecondary,
      point: token.colorPrimary,
    });
    // bench/data-log-view.ts times the X–Y plot by this mark.
    performance.mark("data-log:xy-drawn", { detail: { points: points.x.length } });
  }, [points, overlays, width, height, token, conversionOf]);

  const at = (event: PointerEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };
  const startBox = (event: PointerEvent<HTMLCanvasElement>) => {
    if (event.button !== 0 || !painted.current) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    const { x, y } = at(event);
    setDrag({ x0: x, y0: y, x1: x, y1: y });
  };
  const moveBox = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!drag) return;
    const { x, y } = at(event);
    setDrag({ ...drag, x1: x, y1: y });
  };
  /** A box dragged wide and tall enough zooms to what it covers, in the channels' stored units. */
  const endBox = () => {
    const axes = painted.current;
    setDrag(null);
    if (!drag || !axes) return;
    if (Math.abs(drag.x1 - drag.x0) < BOX_PIXELS || Math.abs(drag.y1 - drag.y0) < BOX_PIXELS) return;
    const { xAt, yAt } = xyScale(width, height, axes.xRange, axes.yRange);
    // storedRange puts each pair in order, whichever way the box was dragged.
    const x = storedRange({ min: xAt(drag.x0), max: xAt(drag.x1) }, conversionOf(choice.xId));
    const y = storedRange({ min: yAt(drag.y0), max: yAt(drag.y1) }, conversionOf(choice.yId));
    if (x.max > x.min && y.max > y.min) setZoom({ xId: choice.xId, yId: choice.yId, box: { x, y } });
  };

  const pick = (label: string, key: keyof XyChoice, optional = false) => (
    <Select
      aria-label={label}
      value={choice[key]}
      onChange={(value?: string) => setChoice((was) => ({ ...was, [key]: value }))}
      options={options}
      allowClear={optional}
      placeholder={optional ? "None" : undefined}
      showSearch
      optionFilterProp="label"
      style={{ minWidth: 180, flex: 1 }}
      prefix={<Typography.Text type="secondary">{label}</Typography.Text>}
    />
  );

  return (
    <Flex vertical gap={8}>
      <Flex wrap gap={8}>
        {pick("X", "xId")}
        {pick("Y", "yId")}
        {pick("Colour", "colourId", true)}
      </Flex>
      <div ref={host} style={{ width: "100%", height, position: "relative" }}>
        <canvas
          ref={canvas}
          data-testid="xy-canvas"
          role="img"
          aria-label={`${title(choice.yId)} against ${title(choice.xId)}`}
          style={{ width: "100%", height, touchAction: "none", cursor: "crosshair" }}
          onPointerDown={startBox}
          onPointerMove={moveBox}
          onPointerUp={endBox}
          onPointerCancel={() => setDrag(null)}
          onDoubleClick={() => setZoom(null)}
        />
        {drag && (
          <div
            data-testid="xy-box"
            style={{
              position: "absolute",
              left: Math.min(drag.x0, drag.x1),
              top: Math.min(drag.y0, drag.y1),
              width: Math.abs(drag.x1 - drag.x0),
              height: Math.abs(drag.y1 - drag.y0),
              background: token.colorPrimaryBg,
              border: `1px solid ${token.colorPrimary}`,
              opacity: 0.6,
              pointerEvents: "none",
            }}
          />
        )}
      </div>
      <Flex wrap gap={8} align="center" justify="space-between">
        <Typography.Text type="secondary" data-testid="xy-count">
          {error ??
            (points
              ? `${points.count.toLocaleString()} samples${points.boxed ? " in the box" : ""}, ${points.x.length.toLocaleString()} points drawn${
                  points.correlation === null ? "" : `, r = ${points.correlation.toFixed(2)}`
                }${overlays.map((o) => ` · ${o.title}: ${o.x.length.toLocaleString()} points`).join("")}`
              : "Reading the points…")}
        </Typography.Text>
        {box ? (
          <Button size="small" onClick={() => setZoom(null)}>
            Show every point
          </Button>
        ) : (
          <Typography.Text type="secondary">Drag a box on the plot to zoom to it</Typography.Text>
        )}
      </Flex>
    </Flex>
  );
}
