/**
 * The log chart: stacked uPlot panes on one time axis, a cursor synchronised across them, zoom by
 * dragging or the wheel, pan with shift+wheel; and the overview strip of the whole log.
 *
 * uPlot, not recharts, draws it: recharts renders an SVG element per point, far too slow for a
 * zoom frame over thousands of rows and several channels. uPlot paints a canvas and takes
 * the worker's per-pixel points as they come. (The dyno chart, a few hundred points, uses recharts.)
 */
import { theme } from "antd";
import { type Ref, useCallback, useEffect, useImperativeHandle, useMemo, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import "./log-chart.css";
import { TIME_TICK_STEPS, timeTickLabels } from "../../../lib/axis-ticks";
import { inNextTask } from "../../../lib/idle";
import { joinOnGrid } from "../../../lib/join-on-grid";
import { convert, readingText } from "../../../lib/log-units";
import { followFingers } from "./chart-touch";
import { type ChartMarker, drawMarkers } from "./marker-layer";
import { axisTitle, idsOf, type PaneSeries, paneTitle, samePaneSeries } from "./pane-series";

export type TimeRange = [number, number];

/**
 * Draws without a React render: a wheel or key step redraws the panes inside its event, and a
 * view's points are drawn as they come; React's state for either follows in a transition.
 */
export interface LogChartHandle {
  /** The points already shown, at a new range. */
  showRange(range: TimeRange): void;
  /** New points, at the current range. */
  showPoints(panes: PaneSeries[][]): void;
  /** The times the sample filter leaves out ([from, to] pairs), dimmed from the next drawing on. */
  setMasked(spans: Float64Array | null): void;
  /** The panes' canvases, top to bottom (the PNG export). */
  canvases(): HTMLCanvasElement[];
}

interface LogChartProps {
  ref?: Ref<LogChartHandle>;
  panes: PaneSeries[][];
  /** The range to show: it moves ahead of React's state (see LogChartHandle). */
  getRange: () => TimeRange;
  paneHeight: number;
  onRange: (range: TimeRange) => void;
  onCursor: (time: number | null) => void;
  onWidth: (pixels: number) => void;
  /** Drawn on every pane as lines (a moment) or bands (a stretch). */
  markers?: readonly ChartMarker[];
  /** A click (not a drag) on a pane, at its time. */
  onPick?: (time: number) => void;
}

/** Pointer travel under which a press and release is a click, not a drag to zoom. */
const CLICK_PIXELS = 3;

const SYNC_KEY = "data-log";

/** Joined data per pane: a pan or zoom redraws the same points at a new scale before new ones come. */
const joined = new WeakMap<PaneSeries[], uPlot.AlignedData>();

function paneData(series: PaneSeries[], pixels: number): uPlot.AlignedData {
  let data = joined.get(series);
  if (!data) joined.set(series, (data = joinSeries(series, pixels)));
  return data;
}

/**
 * One table per series (NaN gaps as null, converted to display units), joined on time: on a grid
 * shared by the series where their points are dense (src/lib/join-on-grid.ts), else exactly.
 */
function joinSeries(series: PaneSeries[], pixels = 0): uPlot.AlignedData {
  const tables = series.map((s): uPlot.AlignedData => {
    const points = s.points;
    if (!points) return [[], []];
    const values = new Array<number | null>(points.values.length);
    for (let i = 0; i < values.length; i++) {
      const v = points.values[i];
      values[i] = Number.isNaN(v) ? null : convert(v, s.conversion);
    }
    return [points.time as unknown as number[], values];
  });
  const grid = joinOnGrid(
    tables.map(([time, values]) => ({ time, values: values as Array<number | null> })),
    pixels,
  );
  return (grid as uPlot.AlignedData | null) ?? uPlot.join(tables);
}

function paneOptions(
  series: PaneSeries[],
  width: number,
  height: number,
  textColour: string,
  gridColour: string,
  legendBackground: string,
  handlers: Handlers,
): uPlot.Options {
  const units = [...new Set(series.map((s) => s.conversion.unit))];
  const scaleOf = (unit: string) => `y:${unit}`;
  return {
    width,
    height,
    legend: {
      show: true,
      live: true,
      mount: (u, table) => {
        table.classList.add("log-chart-legend");
        table.setAttribute("aria-label", "Values under the cursor");
        table.style.background = legendBackground;
        table.style.color = textColour;
        u.over.appendChild(table);
      },
    },
    scales: { x: { time: false }, ...Object.fromEntries(units.map((unit) => [scaleOf(unit), { auto: true }])) },
    // One pixel wide: canvas draws such lines as hairlines, several times faster than thicker strokes
    // through the min/max zigzag of a dense view (the bulk of a zoom frame's time was the canvas flush).
    series: [
      { label: "Time" },
      ...series.map((s) => ({
        label: s.label,
        // Under the cursor, the drawn point nearest it: a sample when zoomed in, an extreme of the
        // pixel's samples over a whole log; the readout under the chart reads the exact sample.
        value: (u: uPlot, v: number | null, seriesIndex: number, index: number | null) => {
          const shown = v ?? nearestReading(u, seriesIndex, index);
          return shown === null ? "–" : `${readingText(shown)}${s.conversion.unit ? ` ${s.conversion.unit}` : ""}`;
        },
        stroke: s.colour,
        width: 1,
        ...(s.dash && { dash: s.dash }),
        scale: scaleOf(s.conversion.unit),
        spanGaps: false,
      })),
    ],
    axes: [
      {
        stroke: textColour,
        grid: { stroke: gridColour, width: 1 },
        ticks: { stroke: gridColour },
        incrs: TIME_TICK_STEPS as number[],
        values: (_u, ticks) => timeTickLabels(ticks),
      },
      ...units.map((unit, i) => ({
        scale: scaleOf(unit),
        side: i % 2 === 0 ? 3 : 1,
        stroke: series.find((s) => s.conversion.unit === unit)!.colour,
        grid: { show: i === 0, stroke: gridColour, width: 1 },
        ticks: { stroke: gridColour },
        label: axisTitle(series, unit) || undefined,
        labelSize: 16,
        size: 56,
      })),
    ] as uPlot.Axis[],
    cursor: { sync: { key: SYNC_KEY }, drag: { x: true, y: false, setScale: false }, points: { size: 6 } },
    hooks: {
      setSelect: [handlers.select],
      setCursor: [handlers.cursor],
      draw: [handlers.shade, handlers.draw],
    },
  };
}

/** How far from the cursor a series' own point may be and still be read there. */
const READING_REACH_PX = 8;

/**
 * A series' value nearest the cursor's point when that point is another series' (joined panes hold
 * each series' points at their own times: the channels of two logs, or a channel with gaps): its
 * own closest point within a few pixels, else none.
 */
function nearestReading(u: uPlot, seriesIndex: number, index: number | null): number | null {
  if (index === null || index === undefined) return null;
  const xs = u.data[0];
  const ys = u.data[seriesIndex];
  const reach = Math.abs(u.posToVal(READING_REACH_PX, "x") - u.posToVal(0, "x"));
  const at = xs[index];
  let best: number | null = null;
  let bestDistance = reach;
  for (let i = index - 1; i >= 0 && at - xs[i] <= bestDistance; i--)
    if (ys[i] !== null && ys[i] !== undefined) {
      best = ys[i] as number;
      bestDistance = at - xs[i];
      break;
    }
  for (let i = index + 1; i < xs.length && xs[i] - at <= bestDistance; i++)
    if (ys[i] !== null && ys[i] !== undefined) {
      best = ys[i] as number;
      break;
    }
  return best;
}

interface Handlers {
  select: (u: uPlot) => void;
  cursor: (u: uPlot) => void;
  shade: (u: uPlot) => void;
  draw: (u: uPlot) => void;
}

export function LogChart({
  ref,
  panes,
  getRange,
  paneHeight,
  onRange,
  onCursor,
  onWidth,
  markers,
  onPick,
}: LogChartProps) {
  const { token } = theme.useToken();
  const host = useRef<HTMLDivElement>(null);
  const plots = useRef<uPlot[]>([]);
  /** Per plot, its channels and the series and range it shows: each is redrawn only for a change. */
  const shown = useRef<Array<{ ids: string; series?: PaneSeries[]; range?: TimeRange }>>([]);
  const latest = useRef({ getRange, onRange, onCursor, markers, onPick });
  latest.current = { getRange, onRange, onCursor, markers, onPick };
  // Panes are rebuilt when their series or units change, not when their points do.
  const shape = useMemo(
    () => JSON.stringify(panes.map((pane) => pane.map((s) => [s.id, s.colour, s.conversion.unit, s.label, s.dash]))),
    [panes],
  );
  const panesRef = useRef(panes);
  panesRef.current = panes;
  const masked = useRef<Float64Array | null>(null);

  /** Redraws the panes whose series or range changed (inside the calling event), and marks it. */
  const draw = useCallback((next: Array<PaneSeries[] | undefined>, range: TimeRange) => {
    let redrawn = false;
    let series = 0;
    plots.current.forEach((plot, i) => {
      const was = shown.current[i];
      const pane = next[i];
      // A view asked for before the panes were rebuilt: its channels are not this plot's.
      if (!pane || idsOf(pane) !== was.ids) return;
      series += pane.filter((s) => s.points).length;
      const fresh = !samePaneSeries(was.series, pane);
      if (!fresh && was.range?.[0] === range[0] && was.range[1] === range[1]) return;
      plot.batch(() => {
        if (fresh) plot.setData(paneData(pane, plot.width), true);
        plot.setScale("x", { min: range[0], max: range[1] });
      });
      shown.current[i] = { ids: was.ids, series: pane, range };
      redrawn = true;
    });
    // One mark per drawn view: bench/data-log-view.ts times paint, zoom and pan frames by it.
    if (redrawn && series > 0) performance.mark("data-log:drawn", { detail: { series } });
  }, []);

  useEffect(() => {
    const element = host.current!;
    const width = element.clientWidth;
    const handlers: Handlers = {
      select: (u) => {
        if (u.select.width < 3) return;
        const t0 = u.posToVal(u.select.left, "x");
        const t1 = u.posToVal(u.select.left + u.select.width, "x");
        u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
        latest.current.onRange([t0, t1]);
      },
      cursor: (u) => {
        const left = u.cursor.left ?? -1;
        latest.current.onCursor(left < 0 ? null : u.posToVal(left, "x"));
      },
      shade: (u) => shadeSpans(u, masked.current, token.colorBgContainer),
      // The notes on the first pane only: on every pane they would cover the lines of each.
      draw: (u) =>
        drawMarkers(
          u,
          latest.current.markers ?? [],
          plots.current[0] === u ? { background: token.colorBgElevated } : undefined,
        ),
    };
    // Every pane's place is kept at once; the panes are drawn into them one task each, the first too (on a
    // phone four panes in one task blocked input as a log opened, and
    // the first, in the task that commits the chart with the overview strip's, made that task the load's longest).
    // The panes as they are now: the later tasks build these, whatever a render in between holds.
    const building = panesRef.current;
    const holders = building.map((pane) => {
      const holder = document.createElement("div");
      holder.style.height = `${paneHeight}px`;
      // The axes' titles are drawn on the canvas; the same words name the pane to a screen reader.
      holder.setAttribute("role", "group");
      holder.setAttribute("aria-label", paneTitle(pane));
      element.appendChild(holder);
      return holder;
    });
    const created: uPlot[] = [];
    plots.current = created;
    shown.current = [];
    let cancelNext = () => {};
    const createPane = (i: number) => {
      const pane = building[i];
      const plot = new uPlot(
        paneOptions(
          pane,
          element.clientWidth,
          paneHeight,
          token.colorTextSecondary,
          token.colorBorderSecondary,
          token.colorBgElevated,
          handlers,
        ),
        paneData(pane, element.clientWidth),
        holders[i],
      );
      plot.over.addEventListener(
        "wheel",
        (event) => {
          event.preventDefault();
          const [t0, t1] = latest.current.getRange();
          const span = t1 - t0;
          const pan = event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY);
          const at = plot.posToVal(event.offsetX, "x");
          const factor = event.deltaY > 0 ? 1.25 : 0.8;
          const delta = ((event.shiftKey ? event.deltaY : event.deltaX) / plot.over.clientWidth) * span;
          latest.current.onRange(pan ? [t0 + delta, t1 + delta] : [at - (at - t0) * factor, at + (t1 - at) * factor]);
        },
        { passive: false },
      );
      followFingers(plot.over, {
        getRange: () => latest.current.getRange(),
        onRange: (range) => latest.current.onRange(range),
        // Every pane's cursor under the finger: the legends and the readout follow, as for a pointer.
        onTap: (x) => {
          for (const other of created) other.setCursor({ left: x, top: other.over.clientHeight / 2 });
        },
      });
      let pressedAt = Number.NaN;
      plot.over.addEventListener("mousedown", (event) => (pressedAt = event.clientX));
      plot.over.addEventListener("click", (event) => {
        if (Math.abs(event.clientX - pressedAt) < CLICK_PIXELS)
          latest.current.onPick?.(plot.posToVal(event.offsetX, "x"));
      });
      created.push(plot);
      shown.current.push({ ids: idsOf(pane) });
      // Its points as they are now: views that came before it was created did not draw it.
      draw(panesRef.current, latest.current.getRange());
      if (i === 0) onWidth(plot.over.clientWidth);
      if (i + 1 < holders.length) cancelNext = inNextTask(() => createPane(i + 1));
    };
    if (holders.length > 0) cancelNext = inNextTask(() => createPane(0));
    else onWidth(width);
    const resize = new ResizeObserver(() => {
      const next = element.clientWidth;
      for (const plot of created) plot.setSize({ width: next, height: paneHeight });
      onWidth(created[0]?.over.clientWidth ?? next);
    });
    resize.observe(element);
    return () => {
      cancelNext();
      resize.disconnect();
      for (const plot of created) plot.destroy();
      element.replaceChildren();
      plots.current = [];
      shown.current = [];
    };
    // Rebuilt on shape and size only; the points flow in through the effect below.
  }, [
    shape,
    paneHeight,
    token.colorTextSecondary,
    token.colorBorderSecondary,
    token.colorBgContainer,
    token.colorBgElevated,
  ]);

  useImperativeHandle(
    ref,
    () => ({
      showRange: (range) =>
        draw(
          shown.current.map((pane) => pane.series),
          range,
        ),
      showPoints: (next) => draw(next, latest.current.getRange()),
      setMasked: (spans) => {
        masked.current = spans;
      },
      canvases: () => plots.current.map((plot) => plot.ctx.canvas),
    }),
    [draw],
  );

  // New or changed markers: the panes redraw what they show, with the markers over it. A log with none
  // (the list answering empty while the panes are still being drawn) redraws nothing.
  const drawnMarkers = useRef<readonly ChartMarker[]>([]);
  useEffect(() => {
    const next = markers ?? [];
    if (next.length === 0 && drawnMarkers.current.length === 0) return;
    drawnMarkers.current = next;
    for (const plot of plots.current) plot.redraw(false);
  }, [markers]);

  // React's panes: after a rebuild, or points that came through state (each drawn once).
  useEffect(() => draw(panes, latest.current.getRange()), [panes, draw]);

  // Sized before uPlot draws into it (in an effect, after the paint): what follows the chart is placed once.
  return <div ref={host} data-testid="log-chart" style={{ width: "100%", height: panes.length * paneHeight }} />;
}

/**
 * Dims the lines over the times the sample filter leaves out: the pane's background laid over
 * them, mostly opaque, so what the filter keeps stands out and what it drops still shows faintly.
 */
function shadeSpans(u: uPlot, spans: Float64Array | null, background: string): void {
  if (!spans || spans.length === 0) return;
  const { ctx, bbox } = u;
  ctx.save();
  ctx.globalAlpha = 0.75;
  ctx.fillStyle = background;
  for (let k = 0; k < spans.length; k += 2) {
    const left = Math.max(bbox.left, u.valToPos(spans[k], "x", true));
    const right = Math.min(bbox.left + bbox.width, u.valToPos(spans[k + 1], "x", true));
    if (right >= left) ctx.fillRect(left, bbox.top, Math.max(1, right - left), bbox.height);
  }
  ctx.restore();
}

/** The overview strip's height in CSS pixels: the page keeps its place while the log loads. */
export const OVERVIEW_HEIGHT = 56;

interface OverviewProps {
  series?: PaneSeries;
  duration: number;
  range: TimeRange;
  onRange: (range: TimeRange) => void;
}

/** The whole log in a strip, the visible window left clear; click or drag to move the window. */
export function OverviewStrip({ series, duration, range, onRange }: OverviewProps) {
  const { token } = theme.useToken();
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  // Shades outside the window, as elements over the canvas: moving the window repaints no line.
  const shades = useRef<[HTMLDivElement, HTMLDivElement] | null>(null);
  const latest = useRef({ range, onRange, series });
  latest.current = { range, onRange, series };

  const placeShades = useCallback(() => {
    const u = plot.current;
    if (!u || !shades.current) return;
    const [t0, t1] = latest.current.range;
    const width = u.over.clientWidth;
    const left = Math.max(0, Math.min(width, u.valToPos(t0, "x")));
    const right = Math.max(left, Math.min(width, u.valToPos(t1, "x")));
    const [before, after] = shades.current;
    before.style.width = `${left}px`;
    after.style.left = `${right}px`;
    after.style.width = `${width - right}px`;
  }, []);

  useEffect(() => {
    const element = host.current!;
    const created = new uPlot(
      {
        width: element.clientWidth,
        height: OVERVIEW_HEIGHT,
        legend: { show: false },
        cursor: { show: false, drag: { x: false, y: false } },
        scales: { x: { time: false, auto: false, range: () => [0, duration] }, y: { auto: true } },
        series: [{}, { stroke: series?.colour ?? token.colorPrimary, width: 1 }],
        axes: [{ show: false }, { show: false }],
        // uPlot applies a new size after setSize returns: the shades are placed once it has, or a
        // phone turned or a window narrowed kept them at the old width (the page scrolled sideways).
        hooks: { setSize: [() => placeShades()] },
      },
      latest.current.series?.points ? joinSeries([latest.current.series]) : [[], []],
      element,
    );
    const shade = () => {
      const div = document.createElement("div");
      Object.assign(div.style, {
        position: "absolute",
        top: "0",
        bottom: "0",
        left: "0",
        background: token.colorFillSecondary,
        pointerEvents: "none",
      });
      created.over.appendChild(div);
      return div;
    };
    shades.current = [shade(), shade()];
    const moveTo = (event: MouseEvent) => {
      const [t0, t1] = latest.current.range;
      const centre = created.posToVal(event.offsetX, "x");
      latest.current.onRange([centre - (t1 - t0) / 2, centre + (t1 - t0) / 2]);
    };
    created.over.addEventListener("mousedown", moveTo);
    created.over.addEventListener("mousemove", (event) => event.buttons === 1 && moveTo(event));
    created.over.style.cursor = "pointer";
    // A picture of the whole log to the screen reader (a bare div may not carry a label); the
    // keyboard moves the view with the arrow keys on the main chart.
    created.over.setAttribute("role", "img");
    created.over.setAttribute("aria-label", "Overview of the whole log");
    plot.current = created;
    placeShades();
    const resize = new ResizeObserver(() => created.setSize({ width: element.clientWidth, height: OVERVIEW_HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      created.destroy();
      plot.current = null;
      shades.current = null;
    };
  }, [duration, series?.colour, token.colorFillSecondary, token.colorPrimary, placeShades]);

  useEffect(() => {
    if (series?.points) plot.current?.setData(joinSeries([series]), true);
  }, [series]);

  useEffect(placeShades, [range, placeShades]);

  return <div ref={host} data-testid="log-overview" style={{ width: "100%", height: OVERVIEW_HEIGHT }} />;
}
