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
  selectedRow?: number;
  onSelectRow?: (row: number) => void;
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

/** A table as a grid: x axis across, y axis down, unit in the corner, cells coloured by value (or by change from stock). */
export const MapGrid = memo(function MapGrid({
  values,
  stock,
  selectedRow,
  onSelectRow,
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
                <th key={col} style={header} scope="col">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ys.map((label, row) => (
              <tr key={row} aria-selected={row === selectedRow}>
                <th
                  style={{
                    ...header,
                    cursor: onSelectRow ? "pointer" : undefined,
                    outline: row === selectedRow ? "2px solid #1677ff" : undefined,
                  }}
                  scope="row"
                  onClick={() => onSelectRow?.(row)}
                  title="Chart this row"
                >
                  {label}
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
