import { Typography } from "antd";
import { memo } from "react";
import type { ItemValues } from "../../../domain/tune/maps";
import { type CellRange, inRange } from "./editing";
import {
  axisLabels,
  cellDelta,
  cornerLabel,
  deltaColour,
  formatDelta,
  formatValue,
  heatColour,
  valueRange,
} from "./model";

export interface MapGridProps {
  values: ItemValues;
  /** Stock values of the same item: cells then show their delta and percentage. */
  stock?: ItemValues;
  /** The rows and columns the chart draws, each with its line's colour: their headers are marked in it. */
  chartedRows?: ReadonlyMap<number, string>;
  chartedCols?: ReadonlyMap<number, string>;
  /** A click on a row's or a column's header: charts it, or stops charting it. */
  onToggleRow?: (row: number) => void;
  onToggleColumn?: (col: number) => void;
  /** Editing: the selected cells, and a click on a cell (with shift held, extending the selection). */
  selection?: CellRange | null;
  onCellClick?: (row: number, col: number, extend: boolean) => void;
}

const cell = {
  padding: "2px 6px",
  textAlign: "right",
  fontVariantNumeric: "tabular-nums",
  whiteSpace: "nowrap",
  border: "1px solid rgba(128,128,128,0.25)",
} as const;
const header = { ...cell, fontWeight: 600, background: "rgba(128,128,128,0.12)" } as const;

/** An axis header, with a bar in its line's colour while the chart draws it. */
function chartedHeader(colour: string | undefined, side: "left" | "bottom") {
  return colour ? { ...header, [side === "left" ? "borderLeft" : "borderBottom"]: `4px solid ${colour}` } : header;
}

const headerButton = {
  background: "none",
  border: 0,
  padding: 0,
  font: "inherit",
  color: "inherit",
  cursor: "pointer",
} as const;

/** An axis value; a button that charts its row or column, or stops charting it, where the chart lets one pick. */
function AxisHeader({
  label,
  charted,
  what,
  onToggle,
}: {
  label: string;
  charted: boolean;
  what: "row" | "column";
  onToggle?: () => void;
}) {
  if (!onToggle) return label;
  return (
    <button
      type="button"
      style={headerButton}
      aria-pressed={charted}
      onClick={onToggle}
      title={charted ? `Stop charting this ${what}` : `Chart this ${what}`}
    >
      {label}
    </button>
  );
}

/** A table as a grid: x axis across, y axis down, unit in the corner, cells coloured by value (or by change from stock). */
export const MapGrid = memo(function MapGrid({
  values,
  stock,
  chartedRows,
  chartedCols,
  onToggleRow,
  onToggleColumn,
  selection,
  onCellClick,
}: MapGridProps) {
  const { rows, cols } = values;
  const { min, max } = valueRange(values.values);
  const xs = axisLabels(values.x, cols);
  const ys = axisLabels(values.y, rows);
  const corner = cornerLabel(values);
  return (
    <div>
      <div style={{ overflow: "auto", maxHeight: "60vh" }}>
        <table style={{ borderCollapse: "collapse", fontSize: 12 }} aria-label="Map values" data-testid="map-grid">
          <thead>
            <tr>
              <th style={header} title="Unit of the values, and of the axes">
                {values.unit ?? ""}
                {corner && <div style={{ fontWeight: 400 }}>{corner}</div>}
              </th>
              {xs.map((label, col) => (
                <th key={col} style={chartedHeader(chartedCols?.get(col), "bottom")} scope="col">
                  <AxisHeader
                    label={label}
                    charted={chartedCols?.has(col) ?? false}
                    what="column"
                    onToggle={onToggleColumn && (() => onToggleColumn(col))}
                  />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ys.map((label, row) => (
              <tr key={row}>
                <th style={chartedHeader(chartedRows?.get(row), "left")} scope="row">
                  <AxisHeader
                    label={label}
                    charted={chartedRows?.has(row) ?? false}
                    what="row"
                    onToggle={onToggleRow && (() => onToggleRow(row))}
                  />
                </th>
                {xs.map((_, col) => {
                  const value = values.values[row * cols + col];
                  const before = stock?.values[row * cols + col];
                  const change = before === undefined ? null : cellDelta(value, before);
                  const background = change
                    ? deltaColour(change.delta, change.percent ?? 100)
                    : heatColour(value, min, max);
                  return (
                    <td
                      key={col}
                      style={{
                        ...cell,
                        background,
                        color: "#000",
                        cursor: onCellClick ? "cell" : undefined,
                        outline: inRange(selection ?? null, row, col) ? "2px solid #1677ff" : undefined,
                        outlineOffset: -2,
                      }}
                      aria-selected={onCellClick ? inRange(selection ?? null, row, col) : undefined}
                      onClick={onCellClick && ((event) => onCellClick(row, col, event.shiftKey))}
                      title={
                        change && change.delta !== 0
                          ? `stock ${formatValue(before!)}, ${formatDelta(change, values.unit)}`
                          : undefined
                      }
                    >
                      {formatValue(value)}
                      {change && change.delta !== 0 && (
                        <div style={{ fontSize: 10 }}>{formatDelta(change, values.unit)}</div>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Typography.Text type="secondary" data-testid="map-range">
        min {formatValue(min)} · max {formatValue(max)}
        {values.unit ? ` ${values.unit}` : ""}
      </Typography.Text>
    </div>
  );
});
