import { Flex, Segmented, Select, Skeleton, Typography } from "antd";
import { lazy, Suspense, useCallback, useMemo, useState } from "react";
import type { ItemValues } from "../../../domain/tune/maps";
import { readAddressParam, writeAddressParam } from "../../lib/address-param";
import {
  chartAxis,
  defaultLines,
  type LineDirection,
  lineChoices,
  lineColour,
  pickedSeries,
  toggleLine,
} from "./chart-lines";
import { MapLineChart } from "./line-chart";

// The canvas surface and its geometry load when someone first asks for it, so the viewer opens no heavier.
const SurfaceView = lazy(() => import("./surface-view"));

export interface ChartLines {
  direction: LineDirection;
  picked: number[];
  /** Each charted line's colour by its index, for the grid's headers. */
  colours: ReadonlyMap<number, string>;
  setDirection: (direction: LineDirection) => void;
  setPicked: (picked: number[]) => void;
  /** A row's or a column's header clicked: charts or drops it, switching to its direction (then it is the one line). */
  toggleRow: (row: number) => void;
  toggleColumn: (col: number) => void;
}

/** Which rows or columns of a 2-D map the chart draws; the rows at first, as tuners read a map along its load axis. */
export function useChartLines(values: ItemValues, focus?: { row: number; col: number }): ChartLines {
  // The direction lives in the address with the chart's kind (MapCharts).
  const [direction, setDirectionState] = useState<LineDirection>(() =>
    readAddressParam("lines") === "columns" ? "columns" : "rows",
  );
  const setDirection = useCallback((next: LineDirection) => {
    setDirectionState(next);
    writeAddressParam("lines", next === "columns" ? next : null);
  }, []);
  const [rows, setRows] = useState(() => defaultLines(values.rows, focus?.row));
  const [cols, setCols] = useState(() => defaultLines(values.cols, focus?.col));
  const picked = direction === "rows" ? rows : cols;
  // Stable while the lines stay, so the memoised grid is not drawn again for nothing.
  const colours = useMemo(() => new Map(picked.map((index) => [index, lineColour(index)])), [picked]);
  const toggle = useCallback(
    (along: LineDirection, index: number) => {
      const set = along === "rows" ? setRows : setCols;
      if (along !== direction) {
        setDirection(along);
        set([index]);
      } else set((current) => toggleLine(current, index));
    },
    [direction, setDirection],
  );
  const toggleRow = useCallback((row: number) => toggle("rows", row), [toggle]);
  const toggleColumn = useCallback((col: number) => toggle("columns", col), [toggle]);
  return {
    direction,
    picked,
    colours,
    setDirection,
    setPicked: (next) => (direction === "rows" ? setRows : setCols)(next.toSorted((a, b) => a - b)),
    toggleRow,
    toggleColumn,
  };
}

/**
 * A 2-D map's charts under its grid: the picked rows (or columns) as lines, the tune's solid and the
 * base's dashed in the same colour, or the map as a 3-D surface.
 */
export function MapCharts({
  values,
  base,
  baseLabel,
  lines,
}: {
  values: ItemValues;
  base?: ItemValues;
  baseLabel: string;
  lines: ChartLines;
}) {
  // How the map is charted lives in the address, so a reload or a shared link opens the same view.
  const [shows, setShowsState] = useState<"lines" | "surface">(() =>
    readAddressParam("chart") === "surface" ? "surface" : "lines",
  );
  const setShows = (next: "lines" | "surface") => {
    setShowsState(next);
    writeAddressParam("chart", next === "surface" ? next : null);
  };
  const { direction, picked } = lines;
  const what = direction === "rows" ? "rows" : "columns";
  const axis = chartAxis(values, direction);
  return (
    <Flex vertical gap={8}>
      <Flex gap={8} wrap align="center">
        <Segmented
          aria-label="Chart"
          value={shows}
          onChange={(value) => setShows(value === "surface" ? "surface" : "lines")}
          options={[
            { label: "Lines", value: "lines" },
            { label: "3-D surface", value: "surface" },
          ]}
        />
        {shows === "lines" && (
          <Segmented
            aria-label="Lines along"
            value={direction}
            onChange={(value) => lines.setDirection(value === "columns" ? "columns" : "rows")}
            options={[
              { label: "Rows", value: "rows" },
              { label: "Columns", value: "columns" },
            ]}
          />
        )}
      </Flex>
      {shows === "lines" ? (
        <>
          <Select
            mode="multiple"
            aria-label={`Charted ${what}`}
            placeholder={`Pick ${what} to chart, or click their headers in the grid`}
            allowClear
            optionFilterProp="label"
            maxTagCount="responsive"
            style={{ width: "100%" }}
            value={picked}
            onChange={(next: number[]) => lines.setPicked(next)}
            options={lineChoices(values, direction).map((choice) => ({ value: choice.index, label: choice.label }))}
          />
          {picked.length > 0 ? (
            <MapLineChart
              axis={axis.labels}
              axisUnit={axis.unit}
              unit={values.unit}
              legend
              series={pickedSeries(values, direction, picked, base && { values: base, label: baseLabel })}
            />
          ) : (
            <Typography.Text type="secondary">
              No {what} charted: pick some above, or click their headers in the grid.
            </Typography.Text>
          )}
        </>
      ) : (
        <Suspense fallback={<Skeleton active />}>
          <SurfaceView values={values} base={base} baseLabel={baseLabel} />
        </Suspense>
      )}
    </Flex>
  );
}
