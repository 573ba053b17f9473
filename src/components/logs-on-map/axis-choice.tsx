/**
 * Which log channels index a map's columns and rows: guessed from what the channels measure and
 * the axes' units (axisChannels), changed by the user with two selects.
 */
import { InputNumber, Select, Space } from "antd";
import { useState } from "react";
import type { ItemValues } from "../../../contracts/tune-definition";
import { axisChannels, type LogColumns } from "../../lib/logs-on-map";

export interface AxisChoiceState {
  x: string | null;
  y: string | null;
  /** The chosen channels' units, for axes whose definition gives none. */
  units: { x?: string; y?: string };
  rows: boolean;
  setX: (name: string) => void;
  setY: (name: string) => void;
}

export function useAxisChoice(logs: readonly LogColumns[], values: ItemValues | null): AxisChoiceState {
  const [chosen, setChosen] = useState<{ map: string | null; x?: string; y?: string }>({ map: null });
  const channels = logs[0]?.channels ?? [];
  const guessed = values ? axisChannels(channels, values) : { x: null, y: null };
  const own = chosen.map === values?.id ? chosen : { map: values?.id ?? null };
  const x = own.x ?? guessed.x;
  const y = own.y ?? guessed.y;
  const unitOf = (name: string | null) => channels.find((c) => c.name === name)?.unit || undefined;
  return {
    x,
    y,
    units: { x: unitOf(x), y: unitOf(y) },
    rows: (values?.rows ?? 0) > 1,
    setX: (name) => setChosen({ ...own, map: values?.id ?? null, x: name }),
    setY: (name) => setChosen({ ...own, map: values?.id ?? null, y: name }),
  };
}

export function AxisChoice({ choice, logs }: { choice: AxisChoiceState; logs: readonly LogColumns[] }) {
  const options = (logs[0]?.channels ?? []).map((c) => ({
    value: c.name,
    label: c.unit ? `${c.name} (${c.unit})` : c.name,
  }));
  return (
    <Space wrap>
      <Select
        aria-label="Columns channel"
        placeholder="Channel along the columns"
        style={{ minWidth: 200 }}
        value={choice.x}
        onChange={choice.setX}
        options={options}
      />
      {choice.rows && (
        <Select
          aria-label="Rows channel"
          placeholder="Channel along the rows"
          style={{ minWidth: 200 }}
          value={choice.y}
          onChange={choice.setY}
          options={options}
        />
      )}
    </Space>
  );
}

/** The fewest samples a cell needs before it counts (or takes a correction). */
export function MinSamplesInput({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  return (
    <InputNumber
      aria-label="Minimum samples per cell"
      addonBefore="min samples"
      min={1}
      value={value}
      onChange={(next) => onChange(next ?? 1)}
    />
  );
}
