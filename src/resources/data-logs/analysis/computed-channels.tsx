import { Alert, Button, Flex, Input, List, Space, Typography } from "antd";
import { useState } from "react";
import type { LogComputedDescriptor } from "../../../../contracts/data-logs";
import { validateExpression } from "../../../../domain/expression";

export interface ComputedDefinition {
  name: string;
  unit: string;
  expression: string;
}

interface ComputedChannelsProps {
  /** The catalogue's computed descriptors (GET /data-logs/computed-descriptors). */
  descriptors: LogComputedDescriptor[];
  /** Variable names of the log's channels (channel ids with "_" for "-"). */
  variables: string[];
  /** Evaluates and charts the channel; answers the evaluator's message when it refuses it. */
  onAdd: (definition: ComputedDefinition) => Promise<string | null>;
}

/** Derived channels: the catalogue's computed descriptors, or an expression typed here. */
export function ComputedChannels({ descriptors, variables, onAdd }: ComputedChannelsProps) {
  const [draft, setDraft] = useState<ComputedDefinition>({ name: "", unit: "", expression: "" });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const add = async (definition: ComputedDefinition) => {
    setBusy(true);
    const problem = await onAdd(definition);
    setBusy(false);
    setError(problem);
    if (!problem) setDraft({ name: "", unit: "", expression: "" });
  };

  return (
    <Flex vertical gap={8}>
      <Typography.Text type="secondary">
        Variables are channel ids with “_” for “-”, e.g. <code>{variables[0] ?? "rpm"}</code>. Functions: min, max, abs,
        sqrt, prev(x).
      </Typography.Text>
      <Space.Compact block>
        <Input
          placeholder="Name"
          aria-label="Computed channel name"
          value={draft.name}
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          style={{ width: "35%" }}
        />
        <Input
          placeholder="Unit"
          aria-label="Computed channel unit"
          value={draft.unit}
          onChange={(e) => setDraft({ ...draft, unit: e.target.value })}
          style={{ width: "20%" }}
        />
      </Space.Compact>
      <Input
        placeholder="Expression, e.g. (map - amb_press) * 0.145"
        aria-label="Expression"
        value={draft.expression}
        onChange={(e) => setDraft({ ...draft, expression: e.target.value })}
        onPressEnter={() => draft.name && draft.expression && void add(draft)}
      />
      <Button onClick={() => void add(draft)} disabled={!draft.name.trim() || !draft.expression.trim()} loading={busy}>
        Add computed channel
      </Button>
      {error && <Alert type="error" showIcon message={error} />}
      {descriptors.length > 0 && (
        <List
          size="small"
          header={<Typography.Text strong>From the catalogue</Typography.Text>}
          dataSource={descriptors}
          renderItem={(descriptor) => {
            const missing = descriptor.variables.filter((name) => !variables.includes(name));
            const check = missing.length === 0 ? validateExpression(descriptor.expression, variables) : null;
            const problem =
              missing.length > 0
                ? `Needs ${missing.join(", ")}, not in this log`
                : check && !check.ok
                  ? check.error.message
                  : null;
            return (
              <List.Item
                actions={[
                  <Button
                    key="add"
                    size="small"
                    disabled={problem !== null}
                    onClick={() => void add(descriptor)}
                    aria-label={`Add ${descriptor.name}`}
                  >
                    Add
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  title={`${descriptor.name}${descriptor.unit ? ` (${descriptor.unit})` : ""}`}
                  description={
                    <>
                      <code>{descriptor.expression}</code>
                      {problem && (
                        <Typography.Text type="warning" style={{ display: "block" }}>
                          {problem}
                        </Typography.Text>
                      )}
                    </>
                  }
                />
              </List.Item>
            );
          }}
        />
      )}
    </Flex>
  );
}
