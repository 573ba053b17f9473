import { Button, InputNumber, Select, Space, Switch } from "antd";
import { useState } from "react";
import type { TuneItem } from "../../../contracts/tune-definition";

/**
 * Editing a constant (typed in physical units), a flag (a switch) or an enum
 * (one of its listed values). The value goes through the same write as a
 * table's cells, which refuses it, naming why, when it is outside min/max or
 * would not read back as typed; the refusal shows in the editor's toolbar.
 */
export function ScalarEditor({
  item,
  value,
  onSet,
}: {
  item: TuneItem;
  value: number;
  onSet: (value: number) => void;
}) {
  const [typed, setTyped] = useState<number | null>(value);
  if (item.kind === "flag")
    return (
      <Switch
        aria-label={`${item.title} on`}
        checked={value === 1}
        onChange={(on) => onSet(on ? 1 : 0)}
        checkedChildren="on"
        unCheckedChildren="off"
      />
    );
  if (item.kind === "enum") {
    return (
      <Select
        aria-label={`${item.title} value`}
        style={{ minWidth: 240 }}
        value={value}
        onChange={onSet}
        options={item.values.map((choice) => ({ value: choice.raw, label: `${choice.label} (${choice.raw})` }))}
      />
    );
  }
  const apply = () => typed !== null && onSet(typed);
  return (
    <Space.Compact>
      <InputNumber
        aria-label={`${item.title} value`}
        value={typed}
        onChange={setTyped}
        onPressEnter={apply}
        addonAfter={item.z.unit}
        // Shown as hints only: a value outside is sent to the write, whose refusal says which limit it broke.
        placeholder={
          [item.z.min, item.z.max].every((limit) => limit !== undefined) ? `${item.z.min} … ${item.z.max}` : undefined
        }
        style={{ width: 200 }}
      />
      <Button onClick={apply} disabled={typed === null || typed === value}>
        Set value
      </Button>
    </Space.Compact>
  );
}
