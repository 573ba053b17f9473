import { Alert, Button, Dropdown, Flex, Input, Space, Typography } from "antd";
import { useState } from "react";
import { validateExpression } from "../../../../domain/expression";
import type { FilterResult } from "./log-worker-client";
import { joinConditions, type RoleFilter } from "./role-filters";

interface SampleFilterInputProps {
  /** Variable names of the log's channels (channel ids with "_" for "-"). */
  variables: string[];
  /** Until every channel is in, a condition could name one not loaded yet. */
  disabled?: boolean;
  /** Applies the condition to every sample (an empty one clears the filter). */
  apply: (condition: string) => Promise<FilterResult>;
  /** Filters written from the channels' roles, offered as one-click conditions. */
  presets?: readonly RoleFilter[];
}

/**
 * A condition in the computed channels' expression language (`rpm > 3000 && throttle > 90`) that
 * keeps the samples it holds for: the chart dims the others, X–Y and the statistics leave them out.
 */
export function SampleFilterInput({ variables, disabled, apply, presets = [] }: SampleFilterInputProps) {
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [kept, setKept] = useState<{ kept: number; rows: number } | null>(null);
  const [busy, setBusy] = useState(false);

  // The expression module ends its messages with a 0-based position; the user counts from 1.
  const say = (message: string, position: number) =>
    setError(`${message.replace(/ at \d+$/, "")} (at character ${position + 1})`);

  const run = async (condition: string) => {
    const trimmed = condition.trim();
    // Checked here first: the parser's message comes at once, without a trip to the worker.
    const check = trimmed ? validateExpression(trimmed, variables) : null;
    if (check && !check.ok) return say(check.error.message, check.error.position);
    setBusy(true);
    try {
      const answer = await apply(trimmed);
      // bench/data-log-view.ts times the filter by this mark.
      performance.mark("data-log:filtered");
      if (!answer.ok) return say(answer.message, answer.position);
      setError(null);
      setKept(trimmed ? { kept: answer.kept, rows: answer.rows } : null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex vertical gap={4} style={{ flex: 1, minWidth: 240 }}>
      <Space.Compact block>
        <Input
          aria-label="Sample filter"
          placeholder={`Filter, e.g. ${variables[0] ?? "rpm"} > 3000`}
          value={draft}
          disabled={disabled}
          onChange={(event) => setDraft(event.target.value)}
          onPressEnter={() => void run(draft)}
          status={error ? "error" : undefined}
        />
        <Button onClick={() => void run(draft)} disabled={disabled} loading={busy}>
          Filter
        </Button>
        {/* A menu of fixed size in the row, not a row of its own: the page below keeps its place as the log's channels come in. */}
        <Dropdown
          disabled={disabled || presets.length === 0}
          trigger={["click"]}
          menu={{
            items: presets.map((preset) => ({ key: preset.label, label: preset.label, title: preset.condition })),
            onClick: ({ key }) => {
              const preset = presets.find((candidate) => candidate.label === key);
              if (!preset) return;
              // Added to what the box holds, so quick filters combine ("Wide open throttle" and "In boost").
              const next = joinConditions(draft, preset.condition);
              setDraft(next);
              void run(next);
            },
          }}
        >
          <Button aria-label="Quick filters">Quick</Button>
        </Dropdown>
        <Button
          onClick={() => {
            setDraft("");
            void run("");
          }}
          disabled={disabled || (!kept && !error)}
        >
          Clear
        </Button>
      </Space.Compact>
      {error && <Alert type="error" showIcon message={error} data-testid="filter-error" />}
      {kept && (
        <Typography.Text type="secondary" data-testid="filter-kept">
          Filter keeps {kept.kept.toLocaleString()} of {kept.rows.toLocaleString()} samples
        </Typography.Text>
      )}
    </Flex>
  );
}
