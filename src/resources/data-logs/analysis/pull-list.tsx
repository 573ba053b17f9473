import { Alert, Button, Flex, InputNumber, Table, Typography } from "antd";
import { useEffect, useState } from "react";
import { DEFAULT_PULL_THRESHOLDS, type Pull, type PullThresholds } from "../../../../domain/logs/pulls";
import { type Conversion, convert } from "../../../lib/log-units";
import type { PullChannels } from "./pull-channels";

/** The thresholds a user edits; the others keep the detection's defaults. */
type EditedThresholds = Pick<PullThresholds, "minPedal" | "minSeconds" | "minRpmSpan"> & { minPeakBoost?: number };

interface PullListProps {
  /** The channels the detection reads, by role; null when the log has no engine speed. */
  channels: PullChannels | null;
  /** False until every channel is in. */
  ready: boolean;
  find: (channels: PullChannels, thresholds: Partial<PullThresholds>) => Promise<Pull[]>;
  /** A channel's unit as the file writes it (the boost threshold is in it). */
  unitOf: (id: string) => string;
  /** How a channel's values are shown (the display units). */
  conversionOf: (id: string) => Conversion;
  chosen: Pull | null;
  onPick: (pull: Pull) => void;
}

const shown = (value: number, conversion: Conversion, digits: number) => {
  const v = convert(value, conversion);
  return `${v.toFixed(digits)}${conversion.unit ? ` ${conversion.unit}` : ""}`;
};

/**
 * The log's wide-open-throttle pulls, found from the channels' roles with thresholds the user can
 * change; a row zooms the chart to its pull and is the pull the virtual dyno shows.
 */
export function PullList({ channels, ready, find, unitOf, conversionOf, chosen, onPick }: PullListProps) {
  const [thresholds, setThresholds] = useState<EditedThresholds>({
    minPedal: DEFAULT_PULL_THRESHOLDS.minPedal,
    minSeconds: DEFAULT_PULL_THRESHOLDS.minSeconds,
    minRpmSpan: DEFAULT_PULL_THRESHOLDS.minRpmSpan,
  });
  const [pulls, setPulls] = useState<Pull[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!ready || !channels) return;
    let current = true;
    find(channels, thresholds).then(
      (found) => {
        if (!current) return;
        setPulls(found);
        setError(null);
        // bench/data-log-view.ts times the detection by this mark.
        performance.mark("data-log:pulls", { detail: { pulls: found.length } });
      },
      (failure: Error) => current && setError(failure.message),
    );
    return () => {
      current = false;
    };
  }, [ready, channels, thresholds, find]);

  if (!channels)
    return <Typography.Text type="secondary">No engine speed channel in this log: no pull to find.</Typography.Text>;

  const number = (key: keyof EditedThresholds, label: string, step: number, optional = false) => (
    <Flex vertical gap={2}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <InputNumber
        aria-label={label}
        size="small"
        step={step}
        min={0}
        value={thresholds[key]}
        placeholder={optional ? "any" : undefined}
        onChange={(value) => {
          if (value === null && !optional) return;
          setThresholds((was) => ({ ...was, [key]: value ?? undefined }));
        }}
      />
    </Flex>
  );
  const demand = channels.pedal ?? channels.throttle;
  const mixture = channels.mixture;
  const correction = channels.corrections.length > 0;

  return (
    <Flex vertical gap={8}>
      <Flex wrap gap={12} align="flex-end">
        {demand && number("minPedal", channels.pedal ? "Pedal at least (%)" : "Throttle at least (%)", 5)}
        {number("minSeconds", "Lasting at least (s)", 0.5)}
        {number("minRpmSpan", "Rising at least (rpm)", 250)}
        {channels.boost && number("minPeakBoost", `Peak boost at least (${unitOf(channels.boost)})`, 0.1, true)}
      </Flex>
      {error && <Alert type="error" showIcon message={error} />}
      <Table<Pull>
        size="small"
        aria-label="Pulls"
        rowKey="startIndex"
        loading={!ready || pulls === null}
        dataSource={pulls ?? []}
        pagination={false}
        scroll={{ x: true, y: 320 }}
        locale={{ emptyText: "No pull with these thresholds" }}
        rowClassName={(pull) => (pull.startIndex === chosen?.startIndex ? "ant-table-row-selected" : "")}
        onRow={(pull) => ({ onClick: () => onPick(pull), style: { cursor: "pointer" } })}
        columns={[
          {
            title: "Pull",
            key: "pick",
            render: (_, pull, i) => (
              <Button size="small" type="link" onClick={() => onPick(pull)} aria-label={`Zoom to pull ${i + 1}`}>
                {i + 1}: {pull.startTime.toFixed(1)}–{pull.endTime.toFixed(1)} s
              </Button>
            ),
          },
          {
            title: "RPM",
            key: "rpm",
            render: (_, pull) => `${Math.round(pull.rpmFrom)}–${Math.round(pull.rpmTo)}`,
          },
          ...(channels.gear
            ? [{ title: "Gear", key: "gear", render: (_: unknown, pull: Pull) => pull.gear ?? "–" }]
            : []),
          { title: "Duration", key: "duration", render: (_, pull) => `${pull.duration.toFixed(1)} s` },
          ...(channels.boost
            ? [
                {
                  title: "Peak boost",
                  key: "boost",
                  render: (_: unknown, pull: Pull) =>
                    pull.peakBoost ? shown(pull.peakBoost.value, conversionOf(channels.boost!), 2) : "–",
                },
              ]
            : []),
          ...(mixture
            ? (["richest", "leanest"] as const).map((key) => ({
                title: key === "richest" ? "Richest" : "Leanest",
                key,
                render: (_: unknown, pull: Pull) => {
                  const value = pull[key];
                  return value ? shown(value.value, conversionOf(mixture.id), 2) : "–";
                },
              }))
            : []),
          ...(correction
            ? [
                {
                  title: "Largest correction",
                  key: "correction",
                  render: (_: unknown, pull: Pull) => {
                    const c = pull.largestCorrection;
                    if (!c) return "–";
                    return `${c.value.toFixed(1)}°${c.cylinder === null ? "" : ` (cylinder ${c.cylinder})`}`;
                  },
                },
              ]
            : []),
        ]}
      />
    </Flex>
  );
}
