import { theme } from "antd";
import { useEffect, useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { LineSeries } from "./chart-lines";
import { formatValue } from "./model";

/**
 * False until the frame after the first render has been painted. A deferred render (useDeferredValue)
 * is not enough: React runs it in a task that often comes before the browser's next frame.
 */
function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A frame callback runs just before that frame's paint; a task queued from it runs after the paint.
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setPainted(true))));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}

/** Lines of a map against one of its axes: a 1-D table, or rows or columns of a 2-D table; a base's lines dashed. */
export function MapLineChart({
  axis,
  axisUnit,
  unit,
  series,
  legend = series.length > 1,
}: {
  axis: readonly string[];
  axisUnit?: string;
  unit?: string;
  series: LineSeries[];
  /** Whether a legend names the lines: by default when there are several. */
  legend?: boolean;
}) {
  // Drawn after the frame that shows the grid: recharts takes tens of milliseconds to mount, and the grid
  // is what a switch of maps must show first. The box keeps its height so nothing moves.
  const ready = useAfterPaint();
  // recharts draws in its own greys; the theme's keep axes and tooltip readable in the dark theme.
  const { token } = theme.useToken();
  const tick = { fill: token.colorTextSecondary };
  const order = new Map(series.map((s, i) => [s.key, i]));
  const data = axis.map((x, i) => Object.fromEntries([["x", x], ...series.map((s) => [s.key, s.values[i]])]));
  return (
    // Taller with many lines, whose legend wraps over several lines on a phone.
    <div style={{ width: "100%", height: series.length > 4 ? 320 : 260 }} data-testid="map-chart">
      {ready && (
        <ResponsiveContainer>
          <LineChart data={data} margin={{ top: 8, right: 16, bottom: 16, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke={token.colorBorderSecondary} />
            <XAxis
              dataKey="x"
              tick={tick}
              label={axisUnit ? { value: axisUnit, position: "insideBottom", offset: -8 } : undefined}
            />
            <YAxis
              tick={tick}
              label={unit ? { value: unit, angle: -90, position: "insideLeft" } : undefined}
              tickFormatter={formatValue}
            />
            <Tooltip
              formatter={(value) => formatValue(Number(value))}
              contentStyle={{ background: token.colorBgElevated, borderColor: token.colorBorder }}
              labelStyle={{ color: token.colorText }}
            />
            {/* In the series' order (axis order, each line before its base); recharts sorts by name ("1700" before "800"). */}
            {legend && <Legend verticalAlign="top" itemSorter={(item) => order.get(String(item.dataKey)) ?? 0} />}
            {series.map((s) => (
              <Line
                key={s.key}
                dataKey={s.key}
                name={s.name}
                stroke={s.colour}
                // Left out, not undefined, for a solid line: the legend would write "undefined" as its icon's dashes.
                {...(s.dashed && { strokeDasharray: "4 3" })}
                legendType="plainline"
                dot={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      )}
    </div>
  );
}
