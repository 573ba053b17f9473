/**
 * The analysis view of one log, shared by the owner's page and the signed-out share page: the
 * columns go to a worker, and the page only ever holds the points of the current view.
 */
import { DiffOutlined, DownloadOutlined, FunctionOutlined, ThunderboltOutlined } from "@ant-design/icons";
import {
  Alert,
  Button,
  Collapse,
  Drawer,
  Flex,
  Segmented,
  Select,
  Space,
  Spin,
  Tooltip,
  Typography,
  theme,
} from "antd";
import {
  lazy,
  memo,
  type ReactNode,
  Suspense,
  startTransition,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { MAX_PANES } from "../../../../contracts/data-log-layout-limits";
import type { SharedLayout } from "../../../../contracts/data-log-layouts";
import type { DataLogMarker } from "../../../../contracts/data-log-markers";
import type { DataLogChannel, DynoProfile, LogComputedDescriptor } from "../../../../contracts/data-logs";
import type { FormatId } from "../../../../domain/logs";
import { comparedUnit } from "../../../../domain/logs/compare";
import type { Pull, PullThresholds } from "../../../../domain/logs/pulls";
import { useNarrowScreen } from "../../../components/layouts/snapshot-screen";
import { useViewportHeight } from "../../../components/layouts/viewport-height";
import { useStableCallback } from "../../../components/stable-callback";
import { Text } from "../../../components/text";
import type { RangeStats, SeriesPoints } from "../../../lib/downsample";
import type { DynoPull } from "../../../lib/dyno";
import { conversionFor, DEFAULT_DISPLAY_UNITS, DISPLAY_UNITS, type DisplayUnits } from "../../../lib/log-units";
import { ChannelPicker } from "./channel-picker";
import { type ChartChannel, colourOf, formatPanes, openingPanes, parsePanes, variableOf } from "./channels";
import { chartHeight, paneHeight } from "./chart-height";
import type { CompareCandidate } from "./compare-panel";
import { comparedKey, comparedViews, comparedXy } from "./compared-views";
import { ComputedChannels, type ComputedDefinition } from "./computed-channels";
import { type CursorGrid, readGrid } from "./cursor-grid";
import type { DynoRequest } from "./dyno-panel";
import { LayoutMenu } from "./layout-menu";
import { layoutShown, useLayoutChoices, useOwnLayouts } from "./layouts";
import { loadColumns } from "./load-columns";
import { LogChart, type LogChartHandle, OVERVIEW_HEIGHT, OverviewStrip, type TimeRange } from "./log-chart";
import { type LoadedLog, LogWorker, parkWorker, unparkWorker } from "./log-worker-client";
import type { PaneSeries } from "./pane-series";
import { type PhoneDrawer, PhoneDrawers } from "./phone-drawers";
import { type PullChannels, pullChannels } from "./pull-channels";
import { CursorReadout, ReadoutTable } from "./readout-table";
import { roleFilters } from "./role-filters";
import { SampleFilterInput } from "./sample-filter-input";
import { useChartExport } from "./use-chart-export";
import { type ComparedLog, type ComparisonState, useComparedLogs } from "./use-compared-logs";
import { type MarkerSource, useMarkers } from "./use-markers";
import { xyDefaults } from "./xy-defaults";
import { type XyChoice, XyView } from "./xy-view";

// The virtual dyno's panel (recharts, antd's form and number inputs: ~100 KiB compressed) loads when
// its drawer first opens, not with every log page.
const DynoPanel = lazy(() => import("./dyno-panel").then((module) => ({ default: module.DynoPanel })));
// The pull list (antd's table) and the marker panel load once the whole log is in, after the chart
// has drawn: in the first load their code delayed the log's first paint.
const PullList = lazy(() => import("./pull-list").then((module) => ({ default: module.PullList })));
const MarkerPanel = lazy(() => import("./marker-panel").then((module) => ({ default: module.MarkerPanel })));
const ComparePanel = lazy(() => import("./compare-panel").then((module) => ({ default: module.ComparePanel })));

/**
 * Other logs overlaid on this one, and the comparison the URL keeps: on the owner's page chosen in
 * the compare drawer (`onState`); on a shared comparison fixed, with the offsets it was shared with.
 */
export interface CompareSource {
  candidates: CompareCandidate[];
  fetchFor: (id: string) => LogAnalysisProps["fetchColumns"];
  state: ComparisonState;
  onState?: (next: ComparisonState) => void;
  /** Told of the logs overlaid and where each sits, for sharing the comparison. */
  onCompared?: (logs: Array<{ id: string; title: string; offset: number }>) => void;
}

export interface LogAnalysisProps {
  /**
   * Fetches the columnar form (serializeColumns), or a byte range of it: the view asks for the
   * header, then time and the charted channels (first paint), then every channel.
   */
  fetchColumns: (range?: { start: number; end: number }) => Promise<Blob>;
  /** The pane layout from the URL (`a,b;c`), and how to write it back. */
  panesParam: string | null;
  onPanesParam: (value: string) => void;
  /** Owner only: the vehicle profile and how to keep it. */
  dyno?: { profile: DynoProfile | null; save: (profile: DynoProfile) => void; saving: boolean; keptWith: string };
  /** The catalogue's computed descriptors offered in the computed-channels panel. */
  descriptors?: LogComputedDescriptor[];
  /** Read-only views cannot add computed channels or run the dyno. */
  readOnly?: boolean;
  toolbar?: ReactNode;
  /** Where the log's markers are read (and, for the owner's log, kept). */
  markers?: MarkerSource;
  /** The log's title: the exported files are named after it. */
  title?: string;
  /** Other logs to overlay on this one (the owner's page). */
  compare?: CompareSource;
  /** The layout a share link carries: offered in the layout menu beside the built-in ones. */
  sharedLayout?: SharedLayout | null;
  /** Told the panes on screen and the layout they are, if any: a share link can open with them. */
  onLayout?: (layout: SharedLayout) => void;
}

/** Panes kept for the chart while the header is read, when the URL names none. */
const DEFAULT_CHANNELS = 4;
const NO_DESCRIPTORS: LogComputedDescriptor[] = [];
const NO_COMPARISON: ComparisonState = { ids: [], align: "time" };
const NO_FETCH = () => async () => new Blob();
const OVERVIEW_PIXELS = 1200;

/** Keeps a range inside the log and at least a few samples wide. */
function clampRange([t0, t1]: TimeRange, duration: number, minSpan: number): TimeRange {
  let span = Math.min(Math.max(t1 - t0, minSpan), duration);
  if (!(span > 0)) span = duration || 1;
  const start = Math.min(Math.max(t0, 0), Math.max(0, duration - span));
  return [start, start + span];
}

type Panel = "dyno" | "computed" | "compare";

const SHORTCUTS = "← → pan · + − zoom · wheel zoom, shift+wheel pan · drag to zoom · 0 or Esc reset · o overlay/stack";

/**
 * Memoised: its page renders again as each of its queries answers (the log's record, the vehicles,
 * the computed descriptors), synchronously, as React renders query answers; the view renders only
 * when what it is given changes.
 */
export const LogAnalysis = memo(function LogAnalysis({
  fetchColumns,
  panesParam,
  onPanesParam,
  dyno,
  descriptors = NO_DESCRIPTORS,
  readOnly,
  toolbar,
  markers: markerSource,
  title = "data-log",
  compare,
  sharedLayout,
  onLayout,
}: LogAnalysisProps) {
  const { token } = theme.useToken();
  const worker = useRef<LogWorker | null>(null);
  const [loaded, setLoaded] = useState<LoadedLog | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // From the columnar form's header: the chart needs nothing else to start.
  const [channels, setChannels] = useState<DataLogChannel[]>([]);
  const [format, setFormat] = useState<FormatId | undefined>();
  const [computed, setComputed] = useState<ChartChannel[]>([]);
  const [range, setRange] = useState<TimeRange>([0, 1]);
  const [width, setWidth] = useState(0);
  // The chart's width, reported as its first pane is drawn and on resizes: a transition too (the
  // panes resize themselves; the width only sets how many points the next view asks for).
  const onWidth = useCallback((pixels: number) => startTransition(() => setWidth(pixels)), []);
  // The chart has drawn its first pane (it reports its width then). The panels under it wait for it:
  // they are loaded apart, and one arriving first would have antd write its styles before the chart.
  const chartDrawn = width > 0;
  const [units, setUnits] = useState<DisplayUnits>(DEFAULT_DISPLAY_UNITS);
  const displayUnitOf = useCallback((unit: string) => conversionFor(unit, units).unit, [units]);
  const [view, setView] = useState<{ points: Map<string, SeriesPoints>; stats: Map<string, RangeStats> }>({
    points: new Map(),
    stats: new Map(),
  });
  const [overview, setOverview] = useState<SeriesPoints | undefined>();
  const [readout] = useState(() => new CursorReadout());
  /** The URL's panes when loading starts: their channels come first. */
  const firstPanes = useRef(panesParam);
  const [panel, setPanel] = useState<Panel | null>(null);
  /** On a phone, the drawer open over the chart: the channel list or the tools. */
  const [drawer, setDrawer] = useState<PhoneDrawer | null>(null);
  const closePanel = useCallback(() => setPanel(null), []);
  const [mode, setMode] = useState<"time" | "xy">("time");
  /** The condition the worker's filter applies ("" for none): the X–Y plot is asked again when it changes. */
  const [filterKey, setFilterKey] = useState("");
  const [chosenPull, setChosenPull] = useState<Pull | null>(null);
  /** The latest view's spans the filter leaves out: a chart built again (back from X–Y) dims them at once. */
  const masked = useRef<Float64Array | null>(null);
  useEffect(() => {
    if (mode === "time") chart.current?.setMasked(masked.current);
  }, [mode]);

  const allChannels = useMemo<ChartChannel[]>(() => [...channels, ...computed], [channels, computed]);
  const index = useMemo(() => new Map(allChannels.map((channel, i) => [channel.id, i])), [allChannels]);
  const colour = useCallback((id: string) => colourOf(index.get(id) ?? 0), [index]);
  const known = useMemo(() => new Set(allChannels.map((channel) => channel.id)), [allChannels]);
  const panes = useMemo(() => {
    const fromUrl = parsePanes(panesParam, known);
    return fromUrl.length ? fromUrl : openingPanes(channels, format);
  }, [panesParam, known, channels, format]);
  const charted = useMemo(() => new Set(panes.flat()), [panes]);
  const ownLayouts = useOwnLayouts(format, !readOnly);
  const layoutChoices = useLayoutChoices(channels, format, ownLayouts.layouts, sharedLayout);
  const shownLayout = useMemo(() => layoutShown(panes, layoutChoices, known), [panes, layoutChoices, known]);
  useEffect(() => {
    if (panes.length) onLayout?.({ name: shownLayout?.name ?? "Shared view", panes });
  }, [onLayout, panes, shownLayout]);
  const duration = loaded?.durationSeconds ?? 0;
  const minSpan = loaded && loaded.rowCount > 1 ? (duration / (loaded.rowCount - 1)) * 4 : 0.01;
  const overlaid = panes.length === 1 && panes[0].length > 1;

  const setPanes = useCallback(
    (next: string[][]) => onPanesParam(formatPanes(next.filter((pane) => pane.length))),
    [onPanesParam],
  );
  /** The range shown: ahead of `range`, which follows it in a transition (the panes move without a render). */
  const rangeRef = useRef<TimeRange>(range);
  const getRange = useCallback(() => rangeRef.current, []);
  const chart = useRef<LogChartHandle>(null);

  // Shown again after being kept alive, the view takes its worker back, columns and all.
  const kept = useRef<LogWorker | null>(null);
  useEffect(() => {
    const current = kept.current && unparkWorker(kept.current) ? kept.current : new LogWorker();
    kept.current = current;
    worker.current = current;
    return () => {
      parkWorker(current);
      worker.current = null;
    };
  }, []);

  /** What the worker was loaded with: a view shown again does not fetch what its worker holds. */
  const loadedInto = useRef<{ worker: LogWorker; from: LogAnalysisProps["fetchColumns"] } | null>(null);
  useEffect(() => {
    const log = worker.current;
    if (!log || (loadedInto.current?.worker === log && loadedInto.current.from === fetchColumns)) return;
    loadedInto.current = { worker: log, from: fetchColumns };
    // A worker that replaces an ended one starts empty: so does the view. (Left as they are when
    // already empty: a new empty list rendered the whole view again as it first showed.)
    setLoaded((was) => (was === null ? was : null));
    setComputed((was) => (was.length === 0 ? was : []));
    // Updates keep coming while the page is hidden; they stop only when its worker has ended.
    // What arrives renders as a transition, in slices: as ordinary updates, the channel list, the
    // readout and the chart's panes rendered in one long task each time on a phone.
    const ready = (summary: LoadedLog, first: boolean) => {
      if (log.terminated) return;
      if (first) rangeRef.current = [0, summary.durationSeconds || 1];
      const whole = rangeRef.current;
      startTransition(() => {
        setLoaded(summary);
        if (first) setRange(whole);
      });
    };
    (async () => {
      await loadColumns(log, fetchColumns, {
        onLayout: (layout) =>
          !log.terminated &&
          startTransition(() => {
            setFormat(layout.format);
            setChannels(layout.channels);
          }),
        // The URL's panes, else the tuner's default ones.
        first: (layout) => {
          const fromUrl = parsePanes(firstPanes.current, new Set(layout.channels.map((channel) => channel.id))).flat();
          return fromUrl.length ? fromUrl : openingPanes(layout.channels, layout.format).flat();
        },
        onReady: ready,
      });
    })().catch((error: Error) => !log.terminated && setFailure(error.message));
  }, [fetchColumns]);

  /** The logs overlaid on this one, for views asked between renders. */
  const comparedRef = useRef<ComparedLog[]>([]);
  // One view request in flight at a time; a newer wish replaces any that waits (wheel bursts).
  const inFlight = useRef(false);
  const wanted = useRef<{ t0: number; t1: number; pixels: number; ids: string[] } | null>(null);
  const pump = useCallback(() => {
    const next = wanted.current;
    const log = worker.current;
    if (inFlight.current || !next || !log) return;
    wanted.current = null;
    inFlight.current = true;
    Promise.all([log.view(next), comparedViews(comparedRef.current, next).catch(() => [])])
      .then(([result, others]) => {
        const points = new Map([
          ...result.ids.map((id, i): [string, SeriesPoints] => [id, result.series[i]]),
          ...others,
        ]);
        grid.current = result.grid;
        masked.current = result.masked;
        chart.current?.setMasked(result.masked);
        // Drawn now; the statistics and React's copy of the points follow without holding up a frame.
        chart.current?.showPoints(seriesOf.current(points));
        startTransition(() => setView({ points, stats: new Map(result.ids.map((id, i) => [id, result.stats[i]])) }));
      })
      // A worker ended while its page was hidden is replaced when the page is shown again.
      .catch((error: Error) => !log.terminated && setFailure(error.message))
      .finally(() => {
        inFlight.current = false;
        pump();
      });
  }, []);

  // Views are asked again when the rest of the log arrives only for charted channels that were not in:
  // the first zoom steps after the first paint should not wait behind views already drawn.
  const ready = loaded !== null;
  const chartedLoading = useMemo(
    () => (loaded?.loading ?? []).filter((id) => charted.has(id)).join(),
    [loaded, charted],
  );
  /** What a view is asked for besides its range; none until the log is ready and the chart sized. */
  const viewOf = useRef<{ pixels: number; ids: string[] } | null>(null);
  const askView = useCallback(() => {
    if (!viewOf.current) return;
    wanted.current = { t0: rangeRef.current[0], t1: rangeRef.current[1], ...viewOf.current };
    pump();
  }, [pump]);
  useEffect(() => {
    viewOf.current = ready && width > 0 ? { pixels: width, ids: [...charted] } : null;
    askView();
  }, [ready, width, charted, chartedLoading, askView]);

  /**
   * A new range: the panes redraw inside the calling event, its view is asked for, and the page follows.
   * This and the toolbar's actions keep their identity as the log arrives (its duration, its channels):
   * the memoised toolbar and chart do not render again for them.
   */
  const moveTo = useStableCallback((next: TimeRange) => {
    const clamped = clampRange(next, duration, minSpan);
    rangeRef.current = clamped;
    chart.current?.showRange(clamped);
    askView();
    startTransition(() => setRange(clamped));
  });

  const overviewId = panes[0]?.[0];
  const overviewLoading = Boolean(overviewId && loaded?.loading.includes(overviewId));
  useEffect(() => {
    if (!ready || !overviewId || !worker.current) return;
    worker.current
      .view({ t0: 0, t1: duration, pixels: OVERVIEW_PIXELS, ids: [overviewId] })
      .then((result) => startTransition(() => setOverview(result.series[0])));
  }, [ready, duration, overviewId, overviewLoading]);

  // The readout follows the cursor from the view's grid; for a range whose view has not come yet, it
  // asks the worker: one question at a time, always for the latest position.
  const grid = useRef<CursorGrid | null>(null);
  /** Moves counted, and the latest one shown: an answer from the worker never replaces a later move's. */
  const moves = useRef({ made: 0, shown: 0 });
  const cursorWanted = useRef<number | null>(null);
  const cursorAsked = useRef<number | null>(null);
  const cursorBusy = useRef(false);
  const askValues = useCallback(() => {
    const time = cursorWanted.current;
    if (time === null || !worker.current) {
      cursorBusy.current = false;
      return;
    }
    cursorWanted.current = null;
    cursorAsked.current = time;
    cursorBusy.current = true;
    const move = moves.current.made;
    worker.current.valuesAt({ t: time }).then(
      (answer) => {
        if (move > moves.current.shown) {
          moves.current.shown = move;
          readout.set({ time, values: answer.values });
        }
        askValues();
      },
      () => (cursorBusy.current = false),
    );
  }, [readout]);
  const onCursor = useCallback(
    (time: number | null) => {
      if (time === null) {
        cursorAsked.current = null;
        return readout.set({ ...readout.get(), time: null });
      }
      // Every synchronised pane reports the same move: one answer is enough.
      if (time === cursorAsked.current) return;
      const move = ++moves.current.made;
      const values = readGrid(grid.current, rangeRef.current, time);
      if (values) {
        cursorAsked.current = time;
        cursorWanted.current = null;
        moves.current.shown = move;
        return readout.set({ time, values });
      }
      cursorWanted.current = time;
      if (!cursorBusy.current) askValues();
    },
    [readout, askValues],
  );

  // Stable: each channel's checkbox renders again only when its own state changes.
  const toggle = useStableCallback((id: string) => {
    if (charted.has(id)) return setPanes(panes.map((pane) => pane.filter((other) => other !== id)));
    if (overlaid) return setPanes([[...panes[0], id]]);
    if (panes.length < MAX_PANES) return setPanes([...panes, [id]]);
    setPanes(panes.map((pane, i) => (i === panes.length - 1 ? [...pane, id] : pane)));
  });
  const arrange = useStableCallback((mode: "stacked" | "overlaid") => {
    const ids = panes.flat();
    if (mode === "overlaid") return setPanes([ids]);
    setPanes([
      ...ids.slice(0, MAX_PANES - 1).map((id) => [id]),
      ...(ids.length >= MAX_PANES ? [ids.slice(MAX_PANES - 1)] : []),
    ]);
  });

  // From the ref: the range moves between renders.
  const zoom = useCallback(
    (factor: number) => {
      const [t0, t1] = rangeRef.current;
      const centre = (t0 + t1) / 2;
      const half = ((t1 - t0) * factor) / 2;
      moveTo([centre - half, centre + half]);
    },
    [moveTo],
  );
  const pan = useCallback(
    (fraction: number) => {
      const [t0, t1] = rangeRef.current;
      moveTo([t0 + (t1 - t0) * fraction, t1 + (t1 - t0) * fraction]);
    },
    [moveTo],
  );
  const reset = useStableCallback(() => moveTo([0, duration]));

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (
        target?.closest("input, textarea, select, [contenteditable=true], .ant-select, .ant-drawer, .ant-modal") ||
        event.ctrlKey ||
        event.metaKey ||
        event.altKey
      )
        return;
      const actions = new Map<string, () => void>([
        ["ArrowLeft", () => pan(-0.2)],
        ["ArrowRight", () => pan(0.2)],
        ["+", () => zoom(0.5)],
        ["=", () => zoom(0.5)],
        ["-", () => zoom(2)],
        ["0", reset],
        ["Escape", reset],
        ["o", () => arrange(overlaid ? "stacked" : "overlaid")],
      ]);
      const action = actions.get(event.key);
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const addComputed = useCallback(
    async (definition: ComputedDefinition): Promise<string | null> => {
      const id = `computed-${variableOf(definition.name.trim().toLowerCase()).replace(/_+/g, "-")}`;
      if (known.has(id)) return `A channel named “${definition.name}” exists already.`;
      const result = await worker.current!.compute({
        channelId: id,
        expression: definition.expression,
        unit: definition.unit,
      });
      if (!result.ok) return `${result.message} (at character ${result.position + 1})`;
      setComputed((list) => [
        ...list,
        {
          id,
          name: definition.name.trim(),
          unit: definition.unit.trim(),
          min: result.min,
          max: result.max,
          mean: result.mean,
          expression: definition.expression,
        },
      ]);
      if (overlaid) setPanes([[...panes[0], id]]);
      else setPanes(panes.length < MAX_PANES ? [...panes, [id]] : panes);
      setPanel(null);
      return null;
    },
    [known, overlaid, panes, setPanes],
  );
  const runDyno = useCallback((request: DynoRequest) => worker.current!.dyno(request), []);
  // A page shown again after being kept alive runs its panels' effects before its own takes the
  // worker back: they ask the parked worker, which still holds the columns (or refuses, if ended).
  const analysisWorker = useCallback(() => (worker.current ?? kept.current)!, []);
  const applyFilter = useCallback(
    async (condition: string) => {
      const answer = await analysisWorker().filter({ condition });
      if (answer.ok) {
        setFilterKey(condition);
        askView();
      }
      return answer;
    },
    [askView],
  );
  const detectPulls = useCallback(
    (roles: PullChannels, thresholds: Partial<PullThresholds>) =>
      analysisWorker().pulls({ channels: roles, thresholds }),
    [],
  );
  const askXy = useCallback(
    (body: XyChoice & { t0: number; t1: number; width: number; height: number }) => analysisWorker().xy(body),
    [],
  );
  const pickPull = useStableCallback((pull: Pull) => {
    setChosenPull(pull);
    // Picked in the phone's tools drawer, the pull is shown.
    setDrawer(null);
    const margin = Math.max(pull.duration * 0.1, minSpan);
    moveTo([pull.startTime - margin, pull.endTime + margin]);
  });
  const pullRoles = useMemo(() => pullChannels(channels, format), [channels, format]);

  // Compared logs aligned at a pull meet this log's chosen pull, else its first with the default thresholds.
  const comparing = (compare?.state.ids.length ?? 0) > 0;
  const alignAtPull = comparing && compare?.state.align === "pull";
  const [basePulls, setBasePulls] = useState<Pull[]>([]);
  useEffect(() => {
    if (!alignAtPull || !loaded?.complete || !pullRoles) return;
    analysisWorker()
      .pulls({ channels: pullRoles, thresholds: {} })
      .then(setBasePulls, () => setBasePulls([]));
  }, [alignAtPull, loaded?.complete, pullRoles]);
  // The pull the URL keeps (chosen before a reload), else the one chosen now, else the first.
  const basePullStart = chosenPull?.startTime ?? compare?.state.at ?? basePulls[0]?.startTime ?? null;
  const candidateTitles = useMemo(
    () => new Map((compare?.candidates ?? []).map((candidate) => [candidate.id, candidate.title])),
    [compare?.candidates],
  );
  const titleOf = useCallback((id: string) => candidateTitles.get(id) ?? "Compared log", [candidateTitles]);
  const baseSide = useMemo(() => ({ channels, format }), [channels, format]);
  const compared = useComparedLogs({
    state: compare?.state ?? NO_COMPARISON,
    titleOf,
    fetchFor: compare?.fetchFor ?? NO_FETCH,
    base: baseSide,
    charted: panes.flat(),
    basePullStart,
  });
  // A pull chosen in the list while aligned at a pull becomes the URL's, so a reload keeps the alignment.
  const onCompareState = compare?.onState;
  const compareState = compare?.state;
  useEffect(() => {
    if (onCompareState && compareState?.align === "pull" && chosenPull && compareState.at !== chosenPull.startTime)
      onCompareState({ ...compareState, at: chosenPull.startTime });
  }, [chosenPull, compareState, onCompareState]);
  /** How a compared log's channel matched to this log's `baseId` is shown: in the units of this log's. */
  const comparedConversion = useCallback(
    (baseId: string, theirs: DataLogChannel) =>
      conversionFor(comparedUnit(allChannels[index.get(baseId)!], format, theirs), units),
    [allChannels, index, format, units],
  );
  const askComparedXy = useCallback(
    (body: XyChoice & { t0: number; t1: number; width: number; height: number }) =>
      comparedXy(comparedRef.current, body, comparedConversion),
    [comparedConversion],
  );
  const choosePull = useCallback(
    (id: string, pull: number) =>
      compareState &&
      onCompareState?.({
        ...compareState,
        pulls: compareState.ids.map((other, k) => (other === id ? pull : (compareState.pulls?.[k] ?? 0))),
      }),
    [compareState, onCompareState],
  );
  comparedRef.current = compared;
  // A compared log that came, went or moved: the view is asked again, and the page told.
  const comparedShape = compared.map((log) => `${log.id}:${log.status}:${log.complete}:${log.offset}`).join();
  const onCompared = compare?.onCompared;
  useEffect(() => {
    askView();
    onCompared?.(
      comparedRef.current
        .filter((log) => log.status === "ready")
        .map(({ id, title, offset }) => ({ id, title, offset })),
    );
  }, [comparedShape, askView, onCompared]);
  const xyInitial = useMemo(() => xyDefaults(allChannels, format), [allChannels, format]);
  const filterPresets = useMemo(() => roleFilters(channels, format), [channels, format]);
  const unitOf = useCallback((id: string) => allChannels[index.get(id) ?? -1]?.unit ?? "", [allChannels, index]);
  const conversionOf = useCallback((id: string) => conversionFor(unitOf(id), units), [unitOf, units]);
  const variables = useMemo(() => allChannels.map((channel) => variableOf(channel.id)), [allChannels]);

  const seriesFor = useCallback(
    (points: Map<string, SeriesPoints>): PaneSeries[][] =>
      panes.map((pane) => [
        ...pane.map((id) => {
          const channel = allChannels[index.get(id)!];
          const conversion = conversionFor(channel.unit, units);
          // Beside other logs, each line says whose it is.
          const label = compared.length ? `${title} · ${channel.name}` : channel.name;
          return { id, label, channelName: channel.name, colour: colour(id), conversion, points: points.get(id) };
        }),
        // Each compared log's matching channels, in this channel's colour and the log's line style.
        ...compared.flatMap((log) =>
          pane.flatMap((id): PaneSeries[] => {
            const theirs = log.matches.get(id);
            if (!theirs) return [];
            const key = comparedKey(log.id, theirs.id);
            return [
              {
                id: key,
                label: `${log.title} · ${theirs.name}`,
                channelName: theirs.name,
                colour: colour(id),
                dash: log.dash,
                conversion: comparedConversion(id, theirs),
                points: points.get(key),
              },
            ];
          }),
        ),
      ]),
    [panes, allChannels, index, units, colour, compared, title, comparedConversion],
  );
  // For views that come between renders.
  const seriesOf = useRef(seriesFor);
  seriesOf.current = seriesFor;
  const paneSeries = useMemo(() => seriesFor(view.points), [seriesFor, view]);
  // Not derived from paneSeries, which changes with every view: the overview redraws only for its own points.
  const overviewChannel = overviewId === undefined ? undefined : allChannels[index.get(overviewId)!];
  const overviewConversion = useMemo(
    () => overviewChannel && conversionFor(overviewChannel.unit, units),
    [overviewChannel, units],
  );
  const overviewSeries = useMemo(
    () =>
      overviewChannel && overviewConversion
        ? {
            id: overviewChannel.id,
            label: overviewChannel.name,
            colour: colour(overviewChannel.id),
            conversion: overviewConversion,
            points: overview,
          }
        : undefined,
    [overviewChannel, overviewConversion, colour, overview],
  );

  const markers = useMarkers(markerSource);
  const markerColour = useCallback(
    (marker: DataLogMarker) => (marker.source === "file" ? token.colorInfo : token.colorWarning),
    [token.colorInfo, token.colorWarning],
  );
  const chartMarkers = useMemo(
    () =>
      markers.list.map((m) => ({ start: m.startSeconds, end: m.endSeconds, colour: markerColour(m), note: m.note })),
    [markers.list, markerColour],
  );
  const [picked, setPicked] = useState<{ time: number; at: number } | null>(null);
  const onPick = useCallback((time: number) => setPicked((was) => ({ time, at: (was?.at ?? 0) + 1 })), []);
  const exports = useChartExport({
    worker,
    chart,
    getRange,
    title,
    channels: () =>
      panes.flat().map((id) => {
        const channel = allChannels[index.get(id)!];
        return { id, name: channel.name, conversion: conversionFor(channel.unit, units) };
      }),
  });

  const rows = useMemo(
    () =>
      [...allChannels]
        .sort((a, b) => Number(charted.has(b.id)) - Number(charted.has(a.id)))
        .map((channel) => ({
          channel,
          colour: colour(channel.id),
          conversion: conversionFor(channel.unit, units),
          charted: charted.has(channel.id),
          stats: view.stats.get(channel.id),
        })),
    [allChannels, charted, colour, units, view],
  );

  const narrow = useNarrowScreen();
  // A side panel opened from the phone's tools drawer takes its place, not a drawer over a drawer.
  const openPanel = useCallback((next: Panel) => {
    setDrawer(null);
    setPanel(next);
  }, []);
  // Zoomed to a marker from the phone's tools drawer, the chart is shown.
  const showMarker = useStableCallback((next: TimeRange) => {
    setDrawer(null);
    moveTo(next);
  });
  const height = chartHeight(useViewportHeight(), narrow);
  // Until the header names the channels, the panes the view will open with: the URL's, or the default
  // channels. The chart's place is kept at their height while the log loads, so nothing under it moves
  // when it draws (the readout jumped a screen down on a phone).
  const paneCount =
    channels.length > 0
      ? panes.length
      : Math.min(MAX_PANES, panesParam?.split(";").filter(Boolean).length || DEFAULT_CHANNELS);
  const eachPane = paneHeight(height, paneCount);

  if (failure) return <Alert type="error" showIcon message="The log could not be shown" description={failure} />;

  // Each part is rendered once, and placed beside and under the chart on a desktop, in drawers on a phone.
  const channelPicker = (
    <ChannelPicker
      channels={allChannels}
      charted={charted}
      colourOf={colour}
      onToggle={toggle}
      loading={channels.length === 0}
      displayUnitOf={displayUnitOf}
    />
  );
  const viewToolbar = (
    <ViewToolbar
      overlaid={overlaid}
      onArrange={arrange}
      zoom={zoom}
      pan={pan}
      reset={reset}
      units={units}
      onUnits={setUnits}
      onPanel={readOnly ? undefined : openPanel}
      hasDyno={Boolean(dyno)}
      compared={compare?.onState ? compared.length : undefined}
      keys={!narrow}
      extra={
        <>
          {toolbar}
          <Button icon={<DownloadOutlined />} onClick={exports.csv} disabled={!loaded} aria-label="Export CSV">
            CSV
          </Button>
          <Button icon={<DownloadOutlined />} onClick={exports.png} disabled={!loaded} aria-label="Export PNG">
            PNG
          </Button>
        </>
      }
    />
  );
  const viewChoices = (
    <Flex wrap gap={8} align="flex-start">
      <Segmented<"time" | "xy">
        aria-label="View"
        value={mode}
        onChange={setMode}
        options={[
          { value: "time", label: "Time" },
          { value: "xy", label: "X–Y" },
        ]}
      />
      <LayoutMenu
        choices={layoutChoices}
        shown={shownLayout}
        panes={panes}
        known={known}
        onPanes={setPanes}
        format={readOnly ? undefined : format}
        own={ownLayouts.layouts}
        onChanged={ownLayouts.refetch}
      />
      <SampleFilterInput
        variables={variables}
        disabled={!loaded?.complete}
        apply={applyFilter}
        presets={filterPresets}
      />
    </Flex>
  );
  const visibleRange = (
    <Text type="secondary" data-testid="visible-range">
      {loaded
        ? `${range[0].toFixed(2)}–${range[1].toFixed(2)} s of ${duration.toFixed(2)} s · ${loaded.rowCount.toLocaleString()} rows`
        : "Loading the log…"}
    </Text>
  );
  // The chart's card, the same for the time chart and the X–Y plot.
  const chartBox = { background: token.colorBgContainer, borderRadius: token.borderRadius, padding: 8 };
  const chartCard =
    mode === "xy" && loaded && xyInitial ? (
      <div style={chartBox}>
        <XyView
          channels={allChannels}
          initial={xyInitial}
          request={askXy}
          range={range}
          filterKey={filterKey}
          height={height}
          conversionOf={conversionOf}
          compared={compared.length ? askComparedXy : undefined}
          comparedKey={comparedShape}
        />
        <OverviewStrip series={overviewSeries} duration={duration} range={range} onRange={moveTo} />
      </div>
    ) : paneCount === 0 ? (
      <Alert
        type="info"
        message={narrow ? "Pick channels under Channels to chart them." : "Pick channels on the left to chart them."}
      />
    ) : (
      <div style={chartBox} data-testid="log-chart-card">
        {loaded ? (
          <>
            <LogChart
              ref={chart}
              panes={paneSeries}
              getRange={getRange}
              paneHeight={eachPane}
              onRange={moveTo}
              onCursor={onCursor}
              onWidth={onWidth}
              markers={chartMarkers}
              onPick={markers.writable ? onPick : undefined}
            />
            <OverviewStrip series={overviewSeries} duration={duration} range={range} onRange={moveTo} />
          </>
        ) : (
          <Flex
            justify="center"
            align="center"
            style={{ height: paneCount * eachPane + OVERVIEW_HEIGHT }}
            data-testid="log-chart-loading"
          >
            <Spin size="large" aria-label="Loading the log" />
          </Flex>
        )}
      </div>
    );
  const panels = (
    <>
      <ReadoutTable rows={rows} readout={readout} />
      {/* Under the readout, which keeps its place under the chart when the panel comes in. */}
      {markerSource && loaded?.complete && chartDrawn && (
        <Suspense fallback={null}>
          <MarkerPanel
            markers={markers}
            picked={picked}
            getRange={getRange}
            onShow={showMarker}
            colourOf={markerColour}
          />
        </Suspense>
      )}
      <Collapse
        size="small"
        defaultActiveKey={["pulls"]}
        items={[
          {
            key: "pulls",
            label: "Pulls",
            children:
              loaded?.complete && chartDrawn ? (
                <Suspense fallback={<Spin size="small" aria-label="Loading the pulls" />}>
                  <PullList
                    channels={pullRoles}
                    ready
                    find={detectPulls}
                    unitOf={unitOf}
                    conversionOf={conversionOf}
                    chosen={chosenPull}
                    onPick={pickPull}
                  />
                </Suspense>
              ) : (
                <Spin size="small" aria-label="Loading the pulls" />
              ),
          },
        ]}
      />
    </>
  );
  const drawers = (
    <>
      <SidePanels
        panel={panel}
        onClose={closePanel}
        channels={allChannels}
        variables={variables}
        descriptors={descriptors}
        onAddComputed={addComputed}
        dyno={dyno}
        runDyno={runDyno}
        chosenPull={chosenPull}
        narrow={narrow}
      />
      {compare?.onState && (
        <Drawer title="Compare logs" open={panel === "compare"} onClose={closePanel} width={narrow ? "100%" : 480}>
          {panel === "compare" && (
            <Suspense fallback={<Spin aria-label="Loading the comparison" />}>
              <ComparePanel
                candidates={compare.candidates}
                state={compare.state}
                onChange={compare.onState}
                compared={compared}
                onPull={choosePull}
                basePull={
                  basePullStart === null
                    ? null
                    : { startTime: basePullStart, chosen: Boolean(chosenPull) || compare.state.at !== undefined }
                }
              />
            </Suspense>
          )}
        </Drawer>
      )}
    </>
  );
  // What the worker holds, for the bench's bytes-per-sample figure; how many compared logs are all in, for its zoom.
  const figures = {
    "data-bytes-held": loaded?.bytesHeld,
    "data-samples": loaded?.samples,
    "data-compared-complete": compared.filter((log) => log.complete).length,
  };

  if (narrow)
    return (
      <Flex vertical gap={8} style={{ minHeight: 0, flex: 1 }} {...figures}>
        <PhoneDrawers
          open={drawer}
          onOpen={setDrawer}
          charted={charted.size}
          channels={channelPicker}
          tools={
            <>
              {viewChoices}
              {viewToolbar}
              {panels}
            </>
          }
        />
        {visibleRange}
        {chartCard}
        {drawers}
      </Flex>
    );
  return (
    <Flex gap={16} style={{ minHeight: 0, flex: 1 }} {...figures}>
      <Flex vertical gap={8} style={{ width: 260, flexShrink: 0, maxHeight: "calc(100vh - 96px)" }}>
        {channelPicker}
      </Flex>
      <Flex vertical gap={8} style={{ flex: 1, minWidth: 0 }}>
        {viewToolbar}
        {viewChoices}
        {visibleRange}
        {chartCard}
        {panels}
      </Flex>
      {drawers}
    </Flex>
  );
});

interface ViewToolbarProps {
  overlaid: boolean;
  onArrange: (mode: "stacked" | "overlaid") => void;
  zoom: (factor: number) => void;
  pan: (fraction: number) => void;
  reset: () => void;
  units: DisplayUnits;
  onUnits: (units: DisplayUnits) => void;
  /** Absent in read-only views. */
  onPanel?: (panel: Panel) => void;
  hasDyno: boolean;
  /** How many logs are overlaid; absent where logs cannot be compared. */
  compared?: number;
  /** The keyboard's shortcuts are named: not on a phone, which has no keyboard to press them on. */
  keys: boolean;
  extra?: ReactNode;
}

/** Memoised: the range changes every frame while zooming, the toolbar does not. */
const ViewToolbar = memo(function ViewToolbar({
  overlaid,
  onArrange,
  zoom,
  pan,
  reset,
  units,
  onUnits,
  onPanel,
  hasDyno,
  compared,
  keys,
  extra,
}: ViewToolbarProps) {
  return (
    <Flex wrap gap={8} align="center">
      <Segmented<"stacked" | "overlaid">
        value={overlaid ? "overlaid" : "stacked"}
        onChange={onArrange}
        options={[
          { value: "stacked", label: "Stacked" },
          { value: "overlaid", label: "Overlaid" },
        ]}
      />
      <Space.Compact>
        <Button onClick={() => pan(-0.2)} aria-label="Pan left">
          ←
        </Button>
        <Button onClick={() => zoom(0.5)} aria-label="Zoom in">
          +
        </Button>
        <Button onClick={() => zoom(2)} aria-label="Zoom out">
          −
        </Button>
        <Button onClick={() => pan(0.2)} aria-label="Pan right">
          →
        </Button>
      </Space.Compact>
      <Button onClick={reset}>Reset zoom</Button>
      {(Object.keys(DISPLAY_UNITS) as Array<keyof DisplayUnits>).map((family) => (
        <Select
          key={family}
          aria-label={`${family} unit`}
          value={units[family]}
          onChange={(value) => onUnits({ ...units, [family]: value })}
          options={DISPLAY_UNITS[family].map((unit) => ({ value: unit, label: unit }))}
          style={{ width: 80 }}
        />
      ))}
      {onPanel && (
        <>
          <Button icon={<FunctionOutlined />} onClick={() => onPanel("computed")}>
            Computed
          </Button>
          {hasDyno && (
            <Button icon={<ThunderboltOutlined />} onClick={() => onPanel("dyno")}>
              Virtual dyno
            </Button>
          )}
          {compared !== undefined && (
            <Button icon={<DiffOutlined />} onClick={() => onPanel("compare")}>
              {compared ? `Compare (${compared})` : "Compare"}
            </Button>
          )}
        </>
      )}
      {keys && (
        <Tooltip title={SHORTCUTS}>
          <Typography.Text type="secondary" style={{ cursor: "help" }}>
            Keys
          </Typography.Text>
        </Tooltip>
      )}
      <Flex flex={1} justify="flex-end" gap={8}>
        {extra}
      </Flex>
    </Flex>
  );
});

interface SidePanelsProps {
  panel: Panel | null;
  onClose: () => void;
  channels: ChartChannel[];
  variables: string[];
  descriptors: LogAnalysisProps["descriptors"];
  onAddComputed: (definition: ComputedDefinition) => Promise<string | null>;
  dyno: LogAnalysisProps["dyno"];
  runDyno: (request: DynoRequest) => Promise<DynoPull[]>;
  chosenPull: Pull | null;
  /** On a phone each panel takes the screen's width: wider, its close button was off the screen. */
  narrow: boolean;
}

const SidePanels = memo(function SidePanels({
  panel,
  onClose,
  channels,
  variables,
  descriptors = [],
  onAddComputed,
  dyno,
  runDyno,
  chosenPull,
  narrow,
}: SidePanelsProps) {
  return (
    <>
      <Drawer title="Computed channels" open={panel === "computed"} onClose={onClose} width={narrow ? "100%" : 480}>
        <ComputedChannels descriptors={descriptors} variables={variables} onAdd={onAddComputed} />
      </Drawer>
      {dyno && (
        <Drawer title="Virtual dyno" open={panel === "dyno"} onClose={onClose} width={narrow ? "100%" : 720}>
          <Suspense fallback={<Spin aria-label="Loading the virtual dyno" />}>
            <DynoPanel
              channels={channels}
              profile={dyno.profile}
              run={runDyno}
              onSave={dyno.save}
              saving={dyno.saving}
              keptWith={dyno.keptWith}
              chosen={chosenPull}
            />
          </Suspense>
        </Drawer>
      )}
    </>
  );
});
