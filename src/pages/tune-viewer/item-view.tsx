import { Button, Descriptions, Flex, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import type { TuneItem } from "../../../contracts/tune-definition";
import type { ItemValues } from "../../../domain/tune/maps";
import { lineColour } from "./chart-lines";
import { MapLineChart } from "./line-chart";
import { LogsOnThisMap } from "./logs-on-map";
import { MapCharts, useChartLines } from "./map-charts";
import { MapGrid, type MapGridProps } from "./map-grid";
import { axisLabels, cellDelta, formatDelta, formatValue } from "./model";
import { ScalarEditor } from "./scalar-editor";

/** A 1-D table's base: grey beside the tune's colour, as it has no colour of its own to share. */
const BASE_GREY = "#8c8c8c";

/** A scalar item's value as read: enums by their label, flags as on/off. */
function scalarText(item: TuneItem, values: ItemValues): string {
  const value = values.values[0];
  if (item.kind === "flag") return value ? "on" : "off";
  if (item.kind === "enum") return values.labels?.[0] ?? `raw ${value} (not in the definition)`;
  return `${formatValue(value)}${values.unit ? ` ${values.unit}` : ""}`;
}

/** One definition item: a grid and row chart for 2-D tables, a chart for 1-D tables, a labelled value otherwise. */
export function ItemView({
  item,
  values,
  stock,
  baseLabel = "Stock",
  editing,
  toolbar,
  onShowBytes,
}: {
  item: TuneItem;
  values: ItemValues;
  /** The same item in what it is compared with (stock or another tune): cells then show their delta and percentage. */
  stock?: ItemValues;
  baseLabel?: string;
  /** Cell selection for the editor (1-D tables are selected along their one shown row), and setting a constant, flag or enum. */
  editing?: Pick<MapGridProps, "selection" | "onCellClick"> & { onSetScalar: (value: number) => void };
  /** The editor's tools, shown above the grid. */
  toolbar?: ReactNode;
  /** Opens the hex view on this item's bytes (offered to whoever may download the image). */
  onShowBytes?: () => void;
}) {
  const selection = editing?.selection;
  const lines = useChartLines(values, selection ? { row: selection.row0, col: selection.col0 } : undefined);
  const head = (
    <Flex vertical gap={4}>
      <Typography.Title level={4} style={{ margin: 0 }} data-testid="item-title">
        {item.title} <Tag>{item.kind}</Tag>
      </Typography.Title>
      {item.description && <Typography.Text type="secondary">{item.description}</Typography.Text>}
      {toolbar}
      <Typography.Text type="secondary" copyable={{ text: `0x${item.z.address.toString(16).toUpperCase()}` }}>
        {item.id} at 0x{item.z.address.toString(16).toUpperCase()}
        {onShowBytes && (
          <Button type="link" size="small" onClick={onShowBytes}>
            Show bytes
          </Button>
        )}
      </Typography.Text>
    </Flex>
  );

  if (item.kind === "constant" || item.kind === "flag" || item.kind === "enum") {
    const change = stock ? cellDelta(values.values[0], stock.values[0]) : null;
    return (
      <Flex vertical gap={12} data-shown-item={item.id}>
        {head}
        <Descriptions bordered size="small" column={1}>
          <Descriptions.Item label="Value">
            <Flex gap={12} align="center" wrap>
              <span data-testid="item-value">{scalarText(item, values)}</span>
              {editing && (
                <ScalarEditor key={values.values[0]} item={item} value={values.values[0]} onSet={editing.onSetScalar} />
              )}
            </Flex>
          </Descriptions.Item>
          {stock && change && (
            <Descriptions.Item label={baseLabel}>
              {scalarText(item, stock)}
              {change.delta !== 0 && item.kind === "constant" && (
                <Typography.Text type="warning"> {formatDelta(change, values.unit)}</Typography.Text>
              )}
            </Descriptions.Item>
          )}
          {item.kind === "enum" && (
            <Descriptions.Item label="Choices">
              {item.values.map((v) => `${v.raw}: ${v.label}`).join(", ")}
            </Descriptions.Item>
          )}
        </Descriptions>
      </Flex>
    );
  }

  // A 1-D table is stored as one row or one column; either way it is one line against its axis.
  if (item.kind === "table1d") {
    const axis = axisLabels(values.x, values.values.length);
    return (
      <Flex vertical gap={12} data-shown-item={item.id}>
        {head}
        <MapGrid
          values={{ ...values, rows: 1, cols: values.values.length, y: undefined }}
          stock={stock && { ...stock, rows: 1, cols: stock.values.length }}
          selection={editing?.selection}
          onCellClick={editing?.onCellClick}
        />
        <MapLineChart
          axis={axis}
          axisUnit={values.x?.unit}
          unit={values.unit}
          series={[
            { key: "tune", name: "Tune", values: values.values, colour: lineColour(0), dashed: false },
            ...(stock ? [{ key: "base", name: baseLabel, values: stock.values, colour: BASE_GREY, dashed: true }] : []),
          ]}
        />
        <LogsOnThisMap values={values} />
      </Flex>
    );
  }

  const byRows = lines.direction === "rows";
  return (
    <Flex vertical gap={12} data-shown-item={item.id}>
      {head}
      <MapGrid
        values={values}
        stock={stock}
        chartedRows={byRows ? lines.colours : undefined}
        chartedCols={byRows ? undefined : lines.colours}
        onToggleRow={lines.toggleRow}
        onToggleColumn={lines.toggleColumn}
        selection={editing?.selection}
        onCellClick={editing?.onCellClick}
      />
      <MapCharts values={values} base={stock} baseLabel={baseLabel} lines={lines} />
      <LogsOnThisMap values={values} />
    </Flex>
  );
}
