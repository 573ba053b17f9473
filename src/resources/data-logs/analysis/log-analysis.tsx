/**
 * The analysis view of one log, shared by the owner's page and the signed-out share page: the
 * columns go to a worker, and the page only ever holds the points of the current view.
 */
import { FunctionOutlined, ThunderboltOutlined } from "@ant-design/icons";
import { Alert, Button, Drawer, Flex, Segmented, Select, Space, Spin, Tooltip, Typography, theme } from "antd";
import { type ReactNode, memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { DataLogChannel, DynoProfile } from "../../../../contracts/data-logs";
import type { RangeStats, SeriesPoints } from "../../../lib/downsample";
import type { DynoPull } from "../../../lib/dyno";
import { DEFAULT_DISPLAY_UNITS, DISPLAY_UNITS, type DisplayUnits, conversionFor } from "../../../lib/log-units";
import { type ChartChannel, MAX_PANES, colourOf, formatPanes, parsePanes, variableOf } from "./channels";
import { ChannelPicker } from "./channel-picker";
import { type ComputedDefinition, ComputedChannels } from "./computed-channels";
import { DynoPanel, type DynoRequest } from "./dyno-panel";
import { LogChart, OverviewStrip, type PaneSeries, type TimeRange } from "./log-chart";
import { type LoadedLog, LogWorker } from "./log-worker-client";
import { CursorReadout, ReadoutTable } from "./readout-table";

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
  dyno?: { profile: DynoProfile | null; save: (profile: DynoProfile) => void; saving: boolean };
  descriptors?: Array<ComputedDefinition & { id: string }>;
  /** Read-only views cannot add computed channels or run the dyno. */
  readOnly?: boolean;
  toolbar?: ReactNode;
}

const DEFAULT_CHANNELS = 4;
/** The first request: the columnar form's preamble and JSON header fit in this for logs of a few hundred channels. */
const HEAD_BYTES = 64 * 1024;
const OVERVIEW_PIXELS = 1200;

/** Keeps a range inside the log and at least a few samples wide. */
function clampRange([t0, t1]: TimeRange, duration: number, minSpan: number): TimeRange {
  let span = Math.min(Math.max(t1 - t0, minSpan), duration);
  if (!(span > 0)) span = duration || 1;
  const start = Math.min(Math.max(t0, 0), Math.max(0, duration - span));
  return [start, start + span];
}

type Panel = "dyno" | "computed";

const SHORTCUTS = "← → pan · + − zoom · wheel zoom, shift+wheel pan · drag to zoom · 0 or Esc reset · o overlay/stack";

export function LogAnalysis({ fetchColumns, panesParam, onPanesParam, dyno, descriptors = [], readOnly, toolbar }: LogAnalysisProps) {
  const { token } = theme.useToken();
  const worker = useRef<LogWorker | null>(null);
  const [loaded, setLoaded] = useState<LoadedLog | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // From the columnar form's header: the chart needs nothing else to start.
  const [channels, setChannels] = useState<DataLogChannel[]>([]);
  const [computed, setComputed] = useState<ChartChannel[]>([]);
  const [range, setRange] = useState<TimeRange>([0, 1]);
  const [width, setWidth] = useState(0);
  const [units, setUnits] = useState<DisplayUnits>(DEFAULT_DISPLAY_UNITS);
  const [view, setView] = useState<{ points: Map<string, SeriesPoints>; stats: Map<string, RangeStats> }>({ points: new Map(), stats: new Map() });
  const [overview, setOverview] = useState<SeriesPoints | undefined>();
  const [readout] = useState(() => new CursorReadout());
  /** The URL's panes when loading starts: their channels come first. */
  const firstPanes = useRef(panesParam);
  const [panel, setPanel] = useState<Panel | null>(null);
  const closePanel = useCallback(() => setPanel(null), []);

  const allChannels = useMemo<ChartChannel[]>(() => [...channels, ...computed], [channels, computed]);
  const index = useMemo(() => new Map(allChannels.map((channel, i) => [channel.id, i])), [allChannels]);
  const colour = useCallback((id: string) => colourOf(index.get(id) ?? 0), [index]);
  const known = useMemo(() => new Set(allChannels.map((channel) => channel.id)), [allChannels]);
  const panes = useMemo(() => {
    const fromUrl = parsePanes(panesParam, known);
    return fromUrl.length ? fromUrl : channels.slice(0, DEFAULT_CHANNELS).map((channel) => [channel.id]);
  }, [panesParam, known, channels]);
  const charted = useMemo(() => new Set(panes.flat()), [panes]);
  const duration = loaded?.durationSeconds ?? 0;
  const minSpan = loaded && loaded.rowCount > 1 ? (duration / (loaded.rowCount - 1)) * 4 : 0.01;
  const overlaid = panes.length === 1 && panes[0].length > 1;

  const setPanes = useCallback((next: string[][]) => onPanesParam(formatPanes(next.filter((pane) => pane.length))), [onPanesParam]);
  const moveTo = useCallback((next: TimeRange) => setRange(clampRange(next, duration, minSpan)), [duration, minSpan]);

  useEffect(() => {
    const created = new LogWorker();
    worker.current = created;
    return () => {
      created.terminate();
      worker.current = null;
    };
  }, []);

  useEffect(() => {
    const log = worker.current;
    if (!log) return;
    let live = true;
    const ready = (summary: LoadedLog, first: boolean) => {
      if (!live) return;
      setLoaded(summary);
      if (first) setRange([0, summary.durationSeconds || 1]);
    };
    (async () => {
      let head = await fetchColumns({ start: 0, end: HEAD_BYTES - 1 });
      let layout = await log.layout({ blob: head });
      if ("headerBytes" in layout) {
        head = await fetchColumns({ start: 0, end: layout.headerBytes - 1 });
        layout = await log.layout({ blob: head });
      }
      if ("headerBytes" in layout) throw new Error("The log's header did not arrive whole");
      if (live) setChannels(layout.channels);
      // A small log, or a server that sent the whole form instead of the range.
      if (head.size >= layout.byteLength) return ready(await log.load({ blob: head }), true);
      const { timeAt, rows, channelsAt, columnBytes, byteLength } = layout;
      const channelIds = layout.channels.map((channel) => channel.id);
      const range = (start: number, bytes: number) => fetchColumns({ start, end: start + bytes - 1 });
      const fromUrl = parsePanes(firstPanes.current, new Set(channelIds)).flat();
      const first = (fromUrl.length ? [...new Set(fromUrl)] : channelIds.slice(0, DEFAULT_CHANNELS)).map((id) => channelIds.indexOf(id));
      const parts = await Promise.all([
        range(timeAt, rows * 8).then((blob) => log.time({ blob })),
        ...first.map((index) => range(channelsAt + index * columnBytes, rows * 4).then((blob) => log.channel({ index, blob }))),
      ]);
      // Each answer counts what the worker held when it came; the fullest is the last.
      ready(parts.reduce((a, b) => (b.bytesHeld > a.bytesHeld ? b : a)), true);
      ready(await log.channels({ blob: await range(channelsAt, byteLength - channelsAt) }), false);
    })().catch((error: Error) => live && setFailure(error.message));
    return () => {
      live = false;
    };
  }, [fetchColumns]);

  // One view request in flight at a time; a newer wish replaces any that waits (wheel bursts).
  const inFlight = useRef(false);
  const wanted = useRef<{ t0: number; t1: number; pixels: number; ids: string[] } | null>(null);
  const pump = useCallback(() => {
    const next = wanted.current;
    if (inFlight.current || !next || !worker.current) return;
    wanted.current = null;
    inFlight.current = true;
    worker.current
      .view(next)
      .then((result) => {
        setView({
          points: new Map(result.ids.map((id, i) => [id, result.series[i]])),
          stats: new Map(result.ids.map((id, i) => [id, result.stats[i]])),
        });
      })
      .catch((error: Error) => setFailure(error.message))
      .finally(() => {
        inFlight.current = false;
        pump();
      });
  }, []);

  useEffect(() => {
    if (!loaded || width <= 0) return;
    wanted.current = { t0: range[0], t1: range[1], pixels: width, ids: [...charted] };
    pump();
  }, [loaded, range, width, charted, pump]);

  const overviewId = panes[0]?.[0];
  useEffect(() => {
    if (!loaded || !overviewId || !worker.current) return;
    worker.current.view({ t0: 0, t1: loaded.durationSeconds, pixels: OVERVIEW_PIXELS, ids: [overviewId] }).then((result) => setOverview(result.series[0]));
  }, [loaded, overviewId]);

  // The readout follows the cursor: one question to the worker at a time, always for the latest position.
  const cursorWanted = useRef<number | null>(null);
  const cursorBusy = useRef(false);
  const askValues = useCallback(() => {
    const time = cursorWanted.current;
    if (time === null || !worker.current) {
      cursorBusy.current = false;
      return;
    }
    cursorWanted.current = null;
    cursorBusy.current = true;
    worker.current.valuesAt({ t: time }).then(
      (answer) => {
        readout.set({ time, values: answer.values });
        askValues();
      },
      () => (cursorBusy.current = false),
    );
  }, [readout]);
  const onCursor = useCallback(
    (time: number | null) => {
      if (time === null) return readout.set({ ...readout.get(), time: null });
      cursorWanted.current = time;
      if (!cursorBusy.current) askValues();
    },
    [readout, askValues],
  );

  const toggle = useCallback(
    (id: string) => {
      if (charted.has(id)) return setPanes(panes.map((pane) => pane.filter((other) => other !== id)));
      if (overlaid) return setPanes([[...panes[0], id]]);
      if (panes.length < MAX_PANES) return setPanes([...panes, [id]]);
      setPanes(panes.map((pane, i) => (i === panes.length - 1 ? [...pane, id] : pane)));
    },
    [charted, overlaid, panes, setPanes],
  );
  const arrange = useCallback(
    (mode: "stacked" | "overlaid") => {
      const ids = panes.flat();
      if (mode === "overlaid") return setPanes([ids]);
      setPanes([...ids.slice(0, MAX_PANES - 1).map((id) => [id]), ...(ids.length >= MAX_PANES ? [ids.slice(MAX_PANES - 1)] : [])]);
    },
    [panes, setPanes],
  );

  // Through a ref, so the toolbar's buttons keep their identity while the range moves.
  const rangeRef = useRef(range);
  rangeRef.current = range;
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
  const reset = useCallback(() => moveTo([0, duration]), [moveTo, duration]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable=true], .ant-select, .ant-drawer, .ant-modal") || event.ctrlKey || event.metaKey || event.altKey) return;
      const actions: Record<string, () => void> = {
        ArrowLeft: () => pan(-0.2),
        ArrowRight: () => pan(0.2),
        "+": () => zoom(0.5),
        "=": () => zoom(0.5),
        "-": () => zoom(2),
        "0": reset,
        Escape: reset,
        o: () => arrange(overlaid ? "stacked" : "overlaid"),
      };
      const action = actions[event.key];
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
      const result = await worker.current!.compute({ channelId: id, expression: definition.expression, unit: definition.unit });
      if (!result.ok) return `${result.message} (at character ${result.position + 1})`;
      setComputed((list) => [...list, { id, name: definition.name.trim(), unit: definition.unit.trim(), min: result.min, max: result.max, mean: result.mean, expression: definition.expression }]);
      if (overlaid) setPanes([[...panes[0], id]]);
      else setPanes(panes.length < MAX_PANES ? [...panes, [id]] : panes);
      setPanel(null);
      return null;
    },
    [known, overlaid, panes, setPanes],
  );
  const runDyno = useCallback((request: DynoRequest) => worker.current!.dyno(request), []);
  const variables = useMemo(() => allChannels.map((channel) => variableOf(channel.id)), [allChannels]);

  const paneSeries: PaneSeries[][] = useMemo(
    () =>
      panes.map((pane) =>
        pane.map((id) => {
          const channel = allChannels[index.get(id)!];
          const conversion = conversionFor(channel.unit, units);
          return { id, label: channel.name, colour: colour(id), conversion, points: view.points.get(id) };
        }),
      ),
    [panes, allChannels, index, units, colour, view],
  );
  const overviewSeries = useMemo(() => (paneSeries[0]?.[0] ? { ...paneSeries[0][0], points: overview } : undefined), [paneSeries, overview]);

  const rows = useMemo(
    () =>
      [...allChannels]
        .sort((a, b) => Number(charted.has(b.id)) - Number(charted.has(a.id)))
        .map((channel) => ({ channel, colour: colour(channel.id), conversion: conversionFor(channel.unit, units), charted: charted.has(channel.id), stats: view.stats.get(channel.id) })),
    [allChannels, charted, colour, units, view],
  );

  const chartHeight = Math.max(360, (typeof window === "undefined" ? 800 : window.innerHeight) - 48 - 56 - 56 - 48);
  const paneHeight = Math.max(110, Math.floor(chartHeight / Math.max(1, panes.length)));

  if (failure) return <Alert type="error" showIcon message="The log could not be shown" description={failure} />;

  return (
    // What the worker holds, for the bench's bytes-per-sample figure.
    <Flex gap={16} style={{ minHeight: 0, flex: 1 }} data-bytes-held={loaded?.bytesHeld} data-samples={loaded?.samples}>
      <Flex vertical gap={8} style={{ width: 260, flexShrink: 0, maxHeight: "calc(100vh - 96px)" }}>
        <ChannelPicker channels={allChannels} charted={charted} colourOf={colour} onToggle={toggle} />
      </Flex>
      <Flex vertical gap={8} style={{ flex: 1, minWidth: 0 }}>
        <ViewToolbar
          overlaid={overlaid}
          onArrange={arrange}
          zoom={zoom}
          pan={pan}
          reset={reset}
          units={units}
          onUnits={setUnits}
          onPanel={readOnly ? undefined : setPanel}
          hasDyno={Boolean(dyno)}
          extra={toolbar}
        />
        <Typography.Text type="secondary" data-testid="visible-range">
          {loaded ? `${range[0].toFixed(2)}–${range[1].toFixed(2)} s of ${duration.toFixed(2)} s · ${loaded.rowCount.toLocaleString()} rows` : "Loading the log…"}
        </Typography.Text>
        {!loaded ? (
          <Flex justify="center" style={{ padding: 48 }}>
            <Spin size="large" />
          </Flex>
        ) : panes.length === 0 ? (
          <Alert type="info" message="Pick channels on the left to chart them." />
        ) : (
          <div style={{ background: token.colorBgContainer, borderRadius: token.borderRadius, padding: 8 }}>
            <LogChart panes={paneSeries} range={range} paneHeight={paneHeight} onRange={moveTo} onCursor={onCursor} onWidth={setWidth} />
            <OverviewStrip series={overviewSeries} duration={duration} range={range} onRange={moveTo} />
          </div>
        )}
        <ReadoutTable rows={rows} readout={readout} />
      </Flex>
      <SidePanels
        panel={panel}
        onClose={closePanel}
        channels={allChannels}
        variables={variables}
        descriptors={descriptors}
        onAddComputed={addComputed}
        dyno={dyno}
        runDyno={runDyno}
      />
    </Flex>
  );
}

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
  extra?: ReactNode;
}

/** Memoised: the range changes every frame while zooming, the toolbar does not. */
const ViewToolbar = memo(function ViewToolbar({ overlaid, onArrange, zoom, pan, reset, units, onUnits, onPanel, hasDyno, extra }: ViewToolbarProps) {
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
        <Button onClick={() => pan(-0.2)} aria-label="Pan left">←</Button>
        <Button onClick={() => zoom(0.5)} aria-label="Zoom in">+</Button>
        <Button onClick={() => zoom(2)} aria-label="Zoom out">−</Button>
        <Button onClick={() => pan(0.2)} aria-label="Pan right">→</Button>
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
          <Button icon={<FunctionOutlined />} onClick={() => onPanel("computed")}>Computed</Button>
          {hasDyno && <Button icon={<ThunderboltOutlined />} onClick={() => onPanel("dyno")}>Virtual dyno</Button>}
        </>
      )}
      <Tooltip title={SHORTCUTS}>
        <Typography.Text type="secondary" style={{ cursor: "help" }}>Keys</Typography.Text>
      </Tooltip>
      <Flex flex={1} justify="flex-end" gap={8}>{extra}</Flex>
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
}

const SidePanels = memo(function SidePanels({ panel, onClose, channels, variables, descriptors = [], onAddComputed, dyno, runDyno }: SidePanelsProps) {
  return (
    <>
      <Drawer title="Computed channels" open={panel === "computed"} onClose={onClose} width={480}>
        <ComputedChannels descriptors={descriptors} variables={variables} onAdd={onAddComputed} />
      </Drawer>
      {dyno && (
        <Drawer title="Virtual dyno" open={panel === "dyno"} onClose={onClose} width={720}>
          <DynoPanel channels={channels} profile={dyno.profile} run={runDyno} onSave={dyno.save} saving={dyno.saving} />
        </Drawer>
      )}
    </>
  );
});
