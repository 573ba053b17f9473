/**
 * What an expression gives on a sample log: every channel it reads sweeps its
 * own min–max range (a slow cosine with a phase per channel, so channels do
 * not move in lockstep), evaluated with the shared evaluator, prev() included.
 */
import { Table, Typography } from "antd";
import { useMemo } from "react";
import { compileExpression } from "../../../domain/expression";

export interface SampleChannel {
  variable: string;
  name: string;
  unit: string;
  min: number | null;
  max: number | null;
}

const SAMPLES = 8;

function sampleColumns(variables: readonly string[], channels: readonly SampleChannel[]): Record<string, Float64Array> {
  const byName = new Map(channels.map((c) => [c.variable, c]));
  return Object.fromEntries(
    variables.map((variable, k) => {
      const channel = byName.get(variable);
      const low = channel?.min ?? 0;
      const high = channel?.max ?? 100;
      const column = Float64Array.from(
        { length: SAMPLES },
        (_, i) => low + ((high - low) * (1 - Math.cos((2 * Math.PI * (i + k)) / SAMPLES))) / 2,
      );
      return [variable, column];
    }),
  );
}

export function SamplePreview({ expression, channels }: { expression: string; channels: readonly SampleChannel[] }) {
  const rows = useMemo(() => {
    const compiled = compileExpression(expression);
    const columns = sampleColumns(compiled.variables, channels);
    const result = compiled.evaluateColumns(columns, SAMPLES);
    return Array.from({ length: SAMPLES }, (_, i) => ({
      key: i,
      ...Object.fromEntries(compiled.variables.map((v) => [v, columns[v][i]])),
      result: result[i],
    }));
  }, [expression, channels]);
  const variables = Object.keys(rows[0] ?? {}).filter((key) => key !== "key" && key !== "result");
  const format = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : String(n));
  return (
    <>
      <Typography.Text type="secondary">Preview on a sample log: each channel sweeps its min–max range</Typography.Text>
      <Table
        size="small"
        pagination={false}
        dataSource={rows}
        aria-label="Expression preview"
        columns={[
          ...variables.map((v) => ({ title: v, dataIndex: v, render: format })),
          { title: "result", dataIndex: "result", render: (n: number) => <strong>{format(n)}</strong> },
        ]}
        style={{ marginBottom: 16 }}
      />
    </>
  );
}
