import { theme } from "antd";
import { memo, useLayoutEffect, useSyncExternalStore } from "react";
import { Text } from "../../../components/text";
import type { RangeStats } from "../../../lib/downsample";
import { type Conversion, convert, readingText } from "../../../lib/log-units";
import type { ChartChannel } from "./channels";

export interface ReadoutRow {
  channel: ChartChannel;
  colour: string;
  conversion: Conversion;
  charted: boolean;
  stats?: RangeStats;
}

interface Reading {
  time: number | null;
  values?: Record<string, number>;
}

/**
 * The values under the cursor, kept outside React state: the cursor moves every frame, and only
 * the readout (not the chart, the picker or the toolbar) should render again when it does.
 */
export class CursorReadout {
  private reading: Reading = { time: null };
  private readonly listeners = new Set<() => void>();

  get = () => this.reading;

  set(next: Reading) {
    this.reading = next;
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

const show = (value: number | undefined, conversion: Conversion) =>
  value === undefined || Number.isNaN(value) ? "–" : readingText(convert(value, conversion));

/**
 * Every channel's value at the cursor and, for the charted ones, minimum, maximum and mean over
 * the visible range. A plain table: it renders on every cursor move and must fit in a frame.
 */
export const ReadoutTable = memo(function ReadoutTable({
  rows,
  readout,
}: {
  rows: ReadoutRow[];
  readout: CursorReadout;
}) {
  const { token } = theme.useToken();
  const { time, values } = useSyncExternalStore(readout.subscribe, readout.get);
  // Marked for bench/data-log-view.ts: the readout is in the DOM, before the frame is painted.
  useLayoutEffect(() => {
    if (values) performance.mark("data-log:readout");
  }, [values]);
  const cell = { padding: "2px 8px", borderBottom: `1px solid ${token.colorBorderSecondary}` };
  const number = { ...cell, textAlign: "right" as const, fontVariantNumeric: "tabular-nums" };
  return (
    <div>
      <Text type="secondary" data-testid="cursor-time">
        {time === null ? "Move over the chart to read values" : `At ${time.toFixed(3)} s`}
      </Text>
      {/* On a phone a wide table scrolls by itself, never the page. */}
      <div style={{ overflowX: "auto" }}>
        <table
          aria-label="Channel values"
          style={{ width: "100%", borderCollapse: "collapse", fontSize: 13, color: token.colorText }}
        >
          <thead>
            <tr style={{ color: token.colorTextSecondary }}>
              <th style={{ ...cell, textAlign: "left" }}>Channel</th>
              <th style={number}>Value</th>
              <th style={number}>Min</th>
              <th style={number}>Max</th>
              <th style={number}>Mean</th>
              <th style={{ ...cell, textAlign: "left" }}>Unit</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.channel.id}>
                <td style={cell}>
                  {/* Loggers name channels by path ("drivetrain/torqueEstimation/dsgEngineTorquePercent"): they wrap anywhere rather than widen the table. */}
                  <span
                    style={{
                      display: "block",
                      borderLeft: `3px solid ${row.colour}`,
                      paddingLeft: 6,
                      overflowWrap: "anywhere",
                    }}
                  >
                    {row.channel.name}
                  </span>
                </td>
                <td style={number} data-testid={`value-${row.channel.id}`}>
                  {show(values?.[row.channel.id], row.conversion)}
                </td>
                <td style={number}>{row.charted ? show(row.stats?.min, row.conversion) : ""}</td>
                <td style={number}>{row.charted ? show(row.stats?.max, row.conversion) : ""}</td>
                <td style={number} data-testid={`mean-${row.channel.id}`}>
                  {row.charted ? show(row.stats?.mean, row.conversion) : ""}
                </td>
                <td style={cell}>{row.conversion.unit}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
});
