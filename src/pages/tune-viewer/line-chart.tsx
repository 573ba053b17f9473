import { useEffect, useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
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

export interface LineSeries {
  name: string;
  values: readonly number[];
}

/** A 1-D table or one row of a 2-D table against its axis; stock drawn dashed beside the tune when comparing. */
export function MapLineChart({
  axis,
  axisUnit,
  unit,
  series,
}: {
  axis: readonly string[];
  axisUnit?: string;
  unit?: string;
  series: LineSeries[];
}) {
  // Drawn after the frame that shows the grid: recharts takes tens of milliseconds to mount, and the grid
  // is what a switch of maps must show first. The box keeps its height so nothing moves.
  const ready = useAfterPaint();
  const data = axis.map((x, i) => Object.fromEntries([["x", x], ...series.map((s) => [s.name, s.values[i]])]));
  return (
    <div style={{ width: "100%", height: 260 }} data-testid="map-chart">
      {ready && (
        <ResponsiveContainer>
          <LineChart data={data} margin={{ top: 8, right: 16, bottom: 16, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis
              dataKey="x"
              label={axisUnit ? { value: axisUnit, position: "insideBottom", offset: -8 } : undefined}
            />
            <YAxis
              label={unit ? { value: unit, angle: -90, position: "insideLeft" } : undefined}
              tickFormatter={formatValue}
            />
            <Tooltip formatter={(value) => formatValue(Number(value))} />
            {series.length > 1 && <Legend verticalAlign="top" />}
            {series.map((s, i) => (
              <Line
                key={s.name}
                dataKey={s.name}
                stroke={i === 0 ? "#1677ff" : "#8c8c8c"}
                strokeDasharray={i === 0 ? undefined : "4 3"}
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
