import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatValue } from "./model";

export interface LineSeries {
  name: string;
  values: readonly number[];
}

/** A 1-D table or one row of a 2-D table against its axis; stock drawn dashed beside the tune when comparing. */
export function MapLineChart({ axis, axisUnit, unit, series }: { axis: readonly string[]; axisUnit?: string; unit?: string; series: LineSeries[] }) {
  const data = axis.map((x, i) => Object.fromEntries([["x", x], ...series.map((s) => [s.name, s.values[i]])]));
  return (
    <div style={{ width: "100%", height: 260 }} data-testid="map-chart">
      <ResponsiveContainer>
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 16, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="x" label={axisUnit ? { value: axisUnit, position: "insideBottom", offset: -8 } : undefined} />
          <YAxis label={unit ? { value: unit, angle: -90, position: "insideLeft" } : undefined} tickFormatter={formatValue} />
          <Tooltip formatter={(value) => formatValue(Number(value))} />
          {series.length > 1 && <Legend verticalAlign="top" />}
          {series.map((s, i) => (
            <Line key={s.name} dataKey={s.name} stroke={i === 0 ? "#1677ff" : "#8c8c8c"} strokeDasharray={i === 0 ? undefined : "4 3"} dot={false} isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
