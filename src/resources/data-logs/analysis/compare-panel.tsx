/**
 * The compare drawer's contents: which logs are overlaid on this one (up to three), how they are
 * aligned (from the start of each, or at a pull's start), and for each its line style, its state
 * and the pull it is aligned at.
 */
import { CloseOutlined } from "@ant-design/icons";
import { Alert, Button, Flex, List, Segmented, Select, Spin, Typography } from "antd";
import type { Pull } from "../../../../domain/logs/pulls";
import { type Alignment, type ComparedLog, type ComparisonState, MAX_COMPARED } from "./use-compared-logs";

export interface CompareCandidate {
  id: string;
  title: string;
}

interface ComparePanelProps {
  candidates: readonly CompareCandidate[];
  state: ComparisonState;
  onChange: (next: ComparisonState) => void;
  compared: readonly ComparedLog[];
  onPull: (id: string, pull: number) => void;
  /** Where this log's pull the others are aligned at starts, and whether the user chose it. */
  basePull: { startTime: number; chosen: boolean } | null;
}

const pullLabel = (pull: Pull, index: number) =>
  `Pull ${index + 1}: ${Math.round(pull.rpmFrom)}–${Math.round(pull.rpmTo)} rpm at ${pull.startTime.toFixed(1)} s${
    pull.gear === null ? "" : `, gear ${pull.gear}`
  }`;

/** A short stretch of line in the log's style, as the chart draws it. */
function LineSample({ dash }: { dash?: number[] }) {
  return (
    <svg width="36" height="8" aria-hidden style={{ flexShrink: 0 }}>
      <line x1="0" y1="4" x2="36" y2="4" stroke="currentColor" strokeWidth="2" strokeDasharray={dash?.join(" ")} />
    </svg>
  );
}

export function ComparePanel({ candidates, state, onChange, compared, onPull, basePull }: ComparePanelProps) {
  const { ids, align } = state;
  // The pulls chosen follow their logs when one is taken out.
  const keep = (next: string[]) => ({
    ...state,
    ids: next,
    pulls: next.map((id) => state.pulls?.[ids.indexOf(id)] ?? 0),
  });
  return (
    <Flex vertical gap={16}>
      <Select
        mode="multiple"
        aria-label="Logs to compare"
        placeholder="Pick up to three of your logs"
        value={[...ids]}
        maxCount={MAX_COMPARED}
        onChange={(next: string[]) => onChange(keep(next))}
        options={candidates.map((candidate) => ({ value: candidate.id, label: candidate.title }))}
        optionFilterProp="label"
        notFoundContent="No other log to compare with"
        style={{ width: "100%" }}
      />
      <Flex vertical gap={4}>
        <Typography.Text strong>Align</Typography.Text>
        <Segmented<Alignment>
          aria-label="Align the logs"
          value={align}
          onChange={(next) => onChange({ ...state, align: next })}
          options={[
            { value: "time", label: "From their starts" },
            { value: "pull", label: "At a pull's start" },
          ]}
        />
        {align === "pull" && (
          <Typography.Text type="secondary">
            {basePull
              ? `This log's ${basePull.chosen ? "chosen" : "first"} pull, at ${basePull.startTime.toFixed(1)} s${
                  basePull.chosen ? "" : " (pick another in the pull list)"
                }.`
              : "This log has no pull: the logs are aligned from their starts."}
          </Typography.Text>
        )}
      </Flex>
      <List
        size="small"
        header={
          <Flex align="center" gap={8}>
            <LineSample />
            <Typography.Text>This log: solid lines</Typography.Text>
          </Flex>
        }
        dataSource={[...compared]}
        locale={{ emptyText: "No log compared yet" }}
        renderItem={(log) => (
          <List.Item
            actions={[
              <Button
                key="remove"
                type="text"
                size="small"
                icon={<CloseOutlined />}
                aria-label={`Stop comparing ${log.title}`}
                onClick={() => onChange(keep(ids.filter((id) => id !== log.id)))}
              />,
            ]}
          >
            <Flex vertical gap={4} style={{ width: "100%" }}>
              <Flex align="center" gap={8}>
                <LineSample dash={log.dash} />
                <Typography.Text strong>{log.title}</Typography.Text>
                {log.status === "loading" && <Spin size="small" aria-label={`Loading ${log.title}`} />}
              </Flex>
              {log.status === "failed" && (
                <Alert type="error" showIcon message="This log could not be read" description={log.failure} />
              )}
              {log.status === "ready" && (
                <Typography.Text type="secondary">
                  {log.matches.size === 0
                    ? "None of its channels measures what this log's do."
                    : `${log.matches.size} of its channels match this log's.`}
                  {log.offset !== 0 && ` Shifted ${log.offset > 0 ? "+" : "−"}${Math.abs(log.offset).toFixed(2)} s.`}
                </Typography.Text>
              )}
              {log.status === "ready" && align === "pull" && (
                <Select
                  aria-label={`Pull of ${log.title}`}
                  size="small"
                  value={log.pulls.length ? log.pull : undefined}
                  placeholder="No pull found: aligned at its start"
                  disabled={log.pulls.length === 0}
                  onChange={(pull: number) => onPull(log.id, pull)}
                  options={log.pulls.map((pull, index) => ({ value: index, label: pullLabel(pull, index) }))}
                />
              )}
            </Flex>
          </List.Item>
        )}
      />
    </Flex>
  );
}
