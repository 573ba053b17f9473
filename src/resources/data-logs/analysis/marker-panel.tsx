/**
 * The markers of a log under its chart: each with its time or stretch and its note, the file's own
 * marked as such; the owner adds one at a time clicked on the chart or over the visible range,
 * changes its note or times, and removes it. Read only on a share link.
 */
import { DeleteOutlined, EditOutlined, ZoomInOutlined } from "@ant-design/icons";
import { Alert, Button, Flex, Input, InputNumber, Popconfirm, Space, Tag, Typography, theme } from "antd";
import { memo, useEffect, useRef, useState } from "react";
import { MARKER_NOTE_MAX } from "../../../../contracts/data-log-marker-limits";
import type { DataLogMarker } from "../../../../contracts/data-log-markers";
import { failureText } from "../../../lib/http-errors";
import type { TimeRange } from "./log-chart";
import type { Markers } from "./use-markers";

export interface MarkerPanelProps {
  markers: Markers;
  /** The latest time clicked on the chart; `at` changes with every click, even on the same time. */
  picked: { time: number; at: number } | null;
  getRange: () => TimeRange;
  /** Zooms the chart to a marker. */
  onShow: (range: TimeRange) => void;
  colourOf: (marker: DataLogMarker) => string;
}

const seconds = (value: number) => `${value.toFixed(2)} s`;
export const markerTime = (marker: DataLogMarker) =>
  marker.endSeconds === null
    ? seconds(marker.startSeconds)
    : `${marker.startSeconds.toFixed(2)}–${seconds(marker.endSeconds)}`;

/** Three decimals: a millisecond is finer than any logger's sample step. */
const rounded = (value: number) => Math.round(value * 1000) / 1000;

interface Draft {
  id: string | null;
  start: number | null;
  end: number | null;
  note: string;
}
const EMPTY: Draft = { id: null, start: null, end: null, note: "" };

/** The refusal as the user reads it: the server's sentence and each field it names. */
function refusalText(error: unknown): string {
  const fields = Object.entries((error as { errors?: Record<string, string> } | null)?.errors ?? {});
  return fields.length ? fields.map(([field, message]) => `${field}: ${message}`).join("; ") : failureText(error);
}

export const MarkerPanel = memo(function MarkerPanel({
  markers,
  picked,
  getRange,
  onShow,
  colourOf,
}: MarkerPanelProps) {
  const { token } = theme.useToken();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [failure, setFailure] = useState<string | null>(null);
  const noteInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!picked || !markers.writable) return;
    setDraft((was) => ({ ...was, start: rounded(picked.time), end: null }));
    // Without scrolling: the chart stays where the user clicked it.
    noteInput.current?.focus({ preventScroll: true });
  }, [picked, markers.writable]);

  const visibleRange = () => {
    const [t0, t1] = getRange();
    setDraft((was) => ({ ...was, start: rounded(t0), end: rounded(t1) }));
  };
  const save = async () => {
    const sent = draft;
    if (sent.start === null) return setFailure("startSeconds: click the chart or type a time first");
    const input = { startSeconds: sent.start, endSeconds: sent.end, note: sent.note };
    try {
      if (sent.id) await markers.update(sent.id, input);
      else await markers.add(input);
      // A time clicked on the chart while the list was reloading is the next marker's: kept.
      setDraft((was) => (was === sent ? EMPTY : { ...was, id: null }));
      setFailure(null);
    } catch (error) {
      setFailure(refusalText(error));
    }
  };
  const remove = async (marker: DataLogMarker) => {
    try {
      await markers.remove(marker.id);
    } catch (error) {
      setFailure(refusalText(error));
    }
  };
  const edit = (marker: DataLogMarker) =>
    setDraft({ id: marker.id, start: marker.startSeconds, end: marker.endSeconds, note: marker.note });
  const show = (marker: DataLogMarker) => {
    const [t0, t1] = getRange();
    const end = marker.endSeconds ?? marker.startSeconds;
    const margin = Math.max((end - marker.startSeconds) * 0.25, Math.min((t1 - t0) / 4, 5));
    onShow([marker.startSeconds - margin, end + margin]);
  };

  return (
    <Flex
      vertical
      gap={8}
      style={{ background: token.colorBgContainer, borderRadius: token.borderRadius, padding: 12 }}
      role="region"
      aria-label="Markers"
    >
      <Typography.Text strong>Markers ({markers.list.length})</Typography.Text>
      {markers.writable && (
        <Flex wrap gap={8} align="center">
          <Space.Compact>
            <InputNumber<number>
              aria-label="Marker start (s)"
              placeholder="at (s)"
              min={0}
              step={0.1}
              value={draft.start}
              onChange={(start) => setDraft((was) => ({ ...was, start }))}
              style={{ width: 110 }}
            />
            <InputNumber<number>
              aria-label="Marker end (s)"
              placeholder="to (s)"
              min={0}
              step={0.1}
              value={draft.end}
              onChange={(end) => setDraft((was) => ({ ...was, end }))}
              style={{ width: 110 }}
            />
          </Space.Compact>
          <Button onClick={visibleRange}>Visible range</Button>
          <Input
            ref={(input) => {
              noteInput.current = input?.input ?? null;
            }}
            aria-label="Marker note"
            placeholder="Note"
            maxLength={MARKER_NOTE_MAX}
            value={draft.note}
            onChange={(event) => setDraft((was) => ({ ...was, note: event.target.value }))}
            onPressEnter={save}
            style={{ flex: "1 1 200px", minWidth: 0 }}
          />
          <Button type="primary" onClick={save} loading={markers.saving}>
            {draft.id ? "Save marker" : "Add marker"}
          </Button>
          {draft.id && <Button onClick={() => setDraft(EMPTY)}>Cancel</Button>}
        </Flex>
      )}
      {markers.writable && (
        <Typography.Text type="secondary">
          Click the chart to place a marker at that time, or take the visible range as a stretch.
        </Typography.Text>
      )}
      {failure && (
        <Alert
          type="error"
          showIcon
          message="The marker was not kept"
          description={failure}
          closable
          onClose={() => setFailure(null)}
        />
      )}
      {markers.list.map((marker) => (
        <Flex key={marker.id} gap={8} align="center" wrap data-testid="marker-row">
          <span
            aria-hidden
            style={{ width: 10, height: 10, borderRadius: 2, background: colourOf(marker), flexShrink: 0 }}
          />
          <Typography.Text style={{ fontVariantNumeric: "tabular-nums" }}>{markerTime(marker)}</Typography.Text>
          <Typography.Text style={{ flex: 1, minWidth: 120, overflowWrap: "anywhere" }}>{marker.note}</Typography.Text>
          {marker.source === "file" && <Tag>From the file</Tag>}
          <Button
            size="small"
            icon={<ZoomInOutlined />}
            aria-label={`Show ${marker.note}`}
            onClick={() => show(marker)}
          />
          {markers.writable && marker.source === "user" && (
            <>
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label={`Edit ${marker.note}`}
                onClick={() => edit(marker)}
              />
              <Popconfirm title="Remove this marker?" okText="Remove" onConfirm={() => remove(marker)}>
                <Button size="small" danger icon={<DeleteOutlined />} aria-label={`Remove ${marker.note}`} />
              </Popconfirm>
            </>
          )}
        </Flex>
      ))}
    </Flex>
  );
});
