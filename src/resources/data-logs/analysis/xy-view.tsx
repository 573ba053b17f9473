import { Flex, Select, Typography, theme } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { type Conversion, convert } from "../../../lib/log-units";
import type { ChartChannel } from "./channels";
import type { TimeRange } from "./log-chart";
import type { XyPoints } from "./log-worker-analysis";
import { paintXy, XY_DOT, XY_MARGIN, type XyPicture } from "./xy-canvas";

export interface XyChoice {
  xId: string;
  yId: string;
  colourId?: string;
}

interface XyViewProps {
  channels: ChartChannel[];
  /** The first choice: engine speed on X when the log has it. */
  initial: XyChoice;
  /** Asks the worker for the points of the range (the filter applied there). */
  request: (body: XyChoice & { t0: number; t1: number; width: number; height: number }) => Promise<XyPoints>;
  range: TimeRange;
  /** Changes when the filter does, so the points are asked again. */
  filterKey: string;
  height: number;
  conversionOf: (id: string) => Conversion;
}

const converted = (values: Float32Array, conversion: Conversion) =>
  conversion.scale === 1 && conversion.offset === 0 ? values : values.map((v) => convert(v, conversion));
const convertedRange = (range: { min: number; max: number }, conversion: Conversion) => {
  const [a, b] = [convert(range.min, conversion), convert(range.max, conversion)];
  return { min: Math.min(a, b), max: Math.max(a, b) };
};

/** Any channel against any other over the chart's range, coloured by a third, drawn on a canvas. */
export function XyView({ channels, initial, request, range, filterKey, height, conversionOf }: XyViewProps) {
  const { token } = theme.useToken();
  const [choice, setChoice] = useState<XyChoice>(initial);
  const [points, setPoints] = useState<XyPoints | null>(null);
  const [error, setError] = useState<string | null>(null);
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
    request({
      ...choice,
      t0: range[0],
      t1: range[1],
      // A cell per point's 2 × 2 pixels: a point a pixel wide is too small to see its colour.
      width: (width - XY_MARGIN.left - XY_MARGIN.right) / XY_DOT,
      height: (height - XY_MARGIN.top - XY_MARGIN.bottom) / XY_DOT,
    }).then(
      (answer) => ask === asked.current && (setPoints(answer), setError(null)),
      (failure: Error) => ask === asked.current && setError(failure.message),
    );
  }, [choice, range, filterKey, width, height, request, byId]);

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
    if (!points?.xRange || !points.yRange) return ctx.clearRect(0, 0, width, height);
    const [xc, yc] = [conversionOf(choice.xId), conversionOf(choice.yId)];
    const cc = choice.colourId ? conversionOf(choice.colourId) : null;
    const picture: XyPicture = {
      x: converted(points.x, xc),
      y: converted(points.y, yc),
      colour: points.colour && cc ? converted(points.colour, cc) : null,
      xRange: convertedRange(points.xRange, xc),
      yRange: convertedRange(points.yRange, yc),
      colourRange: points.colourRange && cc ? convertedRange(points.colourRange, cc) : null,
      xTitle: title(choice.xId),
      yTitle: title(choice.yId),
      colourTitle: choice.colourId ? (byId.get(choice.colourId)?.name ?? null) : null,
    };
    paintXy(ctx, width, height, picture, {
      text: token.colorTextSecondary,
      grid: token.colorBorderSecondary,
      point: token.colorPrimary,
    });
    // bench/data-log-view.ts times the X–Y plot by this mark.
    performance.mark("data-log:xy-drawn", { detail: { points: points.x.length } });
  }, [points, width, height, token, conversionOf]);

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
      <div ref={host} style={{ width: "100%", height }}>
        <canvas
          ref={canvas}
          data-testid="xy-canvas"
          role="img"
          aria-label={`${title(choice.yId)} against ${title(choice.xId)}`}
          style={{ width: "100%", height }}
        />
      </div>
      <Typography.Text type="secondary" data-testid="xy-count">
        {error ??
          (points
            ? `${points.count.toLocaleString()} samples, ${points.x.length.toLocaleString()} points drawn${
                points.correlation === null ? "" : `, r = ${points.correlation.toFixed(2)}`
              }`
            : "Reading the points…")}
      </Typography.Text>
    </Flex>
  );
}
