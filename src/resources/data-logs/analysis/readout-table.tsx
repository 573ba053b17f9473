import { Table, Typography } from "antd";
import type { RangeStats } from "../../../lib/downsample";
import { type Conversion, convert } from "../../../lib/log-units";
import type { ChartChannel } from "./channels";

export interface ReadoutRow {
  channel: ChartChannel;
  colour: string;
  conversion: Conversion;
  charted: boolean;
  stats?: RangeStats;
}

const show = (value: number | undefined, conversion: Conversion) => {
  if (value === undefined || Number.isNaN(value)) return "–";
  const v = convert(value, conversion);
  const digits = Math.abs(v) >= 100 ? 1 : Math.abs(v) >= 1 ? 2 : 3;
  return v.toFixed(digits);
};

/**
 * Every channel's value at the cursor, and for the charted ones the minimum, maximum and mean
 * over the visible range.
 */
export function ReadoutTable({ rows, values, cursorTime }: { rows: ReadoutRow[]; values?: Record<string, number>; cursorTime: number | null }) {
  return (
    <div>
      <Typography.Text type="secondary" data-testid="cursor-time">
        {cursorTime === null ? "Move over the chart to read values" : `At ${cursorTime.toFixed(3)} s`}
      </Typography.Text>
      <Table<ReadoutRow>
        size="small"
        pagination={false}
        rowKey={(row) => row.channel.id}
        dataSource={rows}
        aria-label="Channel values"
        columns={[
          {
            title: "Channel",
            key: "name",
            ellipsis: true,
            render: (_, row) => <span style={{ borderLeft: `3px solid ${row.colour}`, paddingLeft: 6 }}>{row.channel.name}</span>,
          },
          { title: "Value", key: "value", align: "right", render: (_, row) => <span data-testid={`value-${row.channel.id}`}>{show(values?.[row.channel.id], row.conversion)}</span> },
          { title: "Min", key: "min", align: "right", render: (_, row) => (row.charted ? show(row.stats?.min, row.conversion) : "") },
          { title: "Max", key: "max", align: "right", render: (_, row) => (row.charted ? show(row.stats?.max, row.conversion) : "") },
          { title: "Mean", key: "mean", align: "right", render: (_, row) => (row.charted ? <span data-testid={`mean-${row.channel.id}`}>{show(row.stats?.mean, row.conversion)}</span> : "") },
          { title: "Unit", key: "unit", render: (_, row) => row.conversion.unit },
        ]}
      />
    </div>
  );
}
