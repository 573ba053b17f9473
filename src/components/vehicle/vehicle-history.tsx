/**
 * What happened to the car: the modification timeline, the ECU snapshots with what changed from
 * one to the next, and the flash sessions with each one's steps.
 */
import { useCustom } from "@refinedev/core";
import { Alert, Card, Descriptions, Empty, Skeleton, Table, Tabs, Tag, Timeline, Typography } from "antd";
import { apiRoutes } from "../../../contracts/api-paths";
import type { FlashLog, FlashLogStep, FlashSessionDetail } from "../../../contracts/flash-logs";
import type { ListResponse } from "../../../contracts/list-query";
import type { Snapshot } from "../../../contracts/user-vehicles";
import { progressLabel, stepRows } from "../../lib/flash-progress";
import { snapshotChanges } from "../../lib/snapshot-diff";
import { FlashResultTag } from "./flash-result-tag";
import { VehicleTimeline } from "./vehicle-timeline";

const when = (iso: string) => new Date(iso).toLocaleString();

function Snapshots({ vehicleId, version }: { vehicleId: string; version: number }) {
  const { query } = useCustom<ListResponse<Snapshot>>({
    url: apiRoutes.vehicles.snapshots(vehicleId),
    method: "get",
    config: { query: { pageSize: 50 } },
    queryOptions: { queryKey: ["vehicle-snapshots", vehicleId, version] },
  });
  if (query.isLoading) return <Skeleton active />;
  if (query.isError)
    return <Alert type="error" showIcon message="Could not load the snapshots" description={query.error.message} />;
  const snapshots = query.data?.data.data ?? [];
  if (snapshots.length === 0)
    return <Empty description="No snapshots yet: the app records one at each connect and around each flash" />;
  return (
    <Timeline
      aria-label="Snapshots"
      items={snapshots.map((snapshot, i) => {
        const older = snapshots[i + 1];
        const changes = older ? snapshotChanges(older, snapshot) : [];
        return {
          children: (
            <div data-testid="snapshot">
              <Typography.Text strong>{snapshot.kind}</Typography.Text>{" "}
              <Typography.Text type="secondary">{when(snapshot.recordedAt)}</Typography.Text>
              <br />
              <Typography.Text type="secondary">
                {snapshot.softwareId ?? "—"} ·{" "}
                {snapshot.batteryVolts !== null ? `${snapshot.batteryVolts.toFixed(1)} V` : "—"} ·{" "}
                {snapshot.faultCodes.length ? snapshot.faultCodes.join(", ") : "no fault codes"}
              </Typography.Text>
              {older &&
                (changes.length ? (
                  <Table
                    size="small"
                    rowKey="field"
                    pagination={false}
                    aria-label="Changed since the snapshot before"
                    dataSource={changes}
                    columns={[
                      { dataIndex: "label", title: "Changed" },
                      { dataIndex: "before", title: "Before" },
                      { dataIndex: "after", title: "After" },
                    ]}
                  />
                ) : (
                  <div>
                    <Typography.Text type="secondary">no change from the snapshot before</Typography.Text>
                  </div>
                ))}
            </div>
          ),
        };
      })}
    />
  );
}

export function FlashSteps({ steps }: { steps: FlashLogStep[] }) {
  return (
    <Table
      size="small"
      rowKey="seq"
      pagination={false}
      aria-label="Flash steps"
      dataSource={stepRows(steps)}
      locale={{ emptyText: "No steps reported" }}
      columns={[
        { dataIndex: "seq", title: "#", width: 50 },
        {
          key: "step",
          title: "Step",
          render: (_, s: FlashLogStep) => (s.step === "block" && s.block !== null ? `block ${s.block}` : s.step),
        },
        {
          key: "percent",
          title: "%",
          render: (_, s: FlashLogStep) => (s.percent !== null ? `${Math.round(s.percent)} %` : ""),
        },
        {
          dataIndex: "status",
          title: "Status",
          render: (v: FlashLogStep["status"]) => (
            <Tag color={v === "failed" ? "red" : v === "retry" ? "orange" : v === "ok" ? "green" : "blue"}>{v}</Tag>
          ),
        },
        { dataIndex: "retries", title: "Retries" },
        {
          dataIndex: "nrcName",
          title: "Negative response",
          render: (v: string | null) => (v ? <Tag color="red">{v}</Tag> : ""),
        },
        {
          key: "bytes",
          title: "Request → response",
          render: (_, s: FlashLogStep) =>
            s.request || s.response ? (
              <Typography.Text code>{`${s.request ?? ""} → ${s.response ?? ""}`.slice(0, 60)}</Typography.Text>
            ) : (
              ""
            ),
        },
        { dataIndex: "durationMs", title: "ms" },
        { dataIndex: "message", title: "Message" },
      ]}
    />
  );
}

function SessionDetail({ vehicleId, logId }: { vehicleId: string; logId: string }) {
  const { query } = useCustom<FlashSessionDetail>({
    url: apiRoutes.vehicles.flashLog(vehicleId, logId),
    method: "get",
  });
  if (query.isLoading) return <Skeleton active />;
  if (query.isError)
    return <Alert type="error" showIcon message="Could not load the session" description={query.error.message} />;
  const detail = query.data?.data;
  if (!detail) return null;
  const { log } = detail;
  return (
    <>
      <Descriptions size="small" column={3}>
        <Descriptions.Item label="Adapter">
          {log.adapterKind ? `${log.adapterKind} ${log.adapterFirmware ?? ""}` : "—"}
        </Descriptions.Item>
        <Descriptions.Item label="App">{log.appVersion ?? "—"}</Descriptions.Item>
        <Descriptions.Item label="Battery">
          {log.batteryStartVolts !== null
            ? `${log.batteryStartVolts.toFixed(1)} V → ${log.batteryEndVolts?.toFixed(1) ?? "?"} V`
            : "—"}
        </Descriptions.Item>
        {log.failedStep && (
          <Descriptions.Item label="Failed at">{`${log.failedStep}${log.failedBlock !== null ? ` block ${log.failedBlock}` : ""}`}</Descriptions.Item>
        )}
        {log.recoversId && <Descriptions.Item label="Recovers">a failed flash</Descriptions.Item>}
      </Descriptions>
      <FlashSteps steps={detail.steps} />
    </>
  );
}

function FlashHistory({ vehicleId, version }: { vehicleId: string; version: number }) {
  const { query } = useCustom<ListResponse<FlashLog>>({
    url: apiRoutes.vehicles.flashLogs(vehicleId),
    method: "get",
    config: { query: { pageSize: 50 } },
    queryOptions: { queryKey: ["vehicle-flashes", vehicleId, version] },
  });
  if (query.isError)
    return <Alert type="error" showIcon message="Could not load the flash history" description={query.error.message} />;
  return (
    <Table
      size="small"
      rowKey="id"
      loading={query.isLoading}
      aria-label="Flash history"
      dataSource={query.data?.data.data ?? []}
      pagination={false}
      locale={{ emptyText: "No flashes yet" }}
      expandable={{ expandedRowRender: (log: FlashLog) => <SessionDetail vehicleId={vehicleId} logId={log.id} /> }}
      columns={[
        { dataIndex: "flashedAt", title: "When", render: (v: string) => when(v) },
        {
          key: "what",
          title: "What",
          render: (_, f: FlashLog) =>
            f.kind === "stock"
              ? "stock read"
              : `${f.tuneTitle ?? "supplied image"}${f.tuneVersion ? ` v${f.tuneVersion}` : ""}`,
        },
        {
          dataIndex: "result",
          title: "Result",
          render: (v: FlashLog["result"], f: FlashLog) =>
            v === "running" ? <Tag color="blue">{progressLabel(f)}</Tag> : <FlashResultTag result={v} />,
        },
        {
          dataIndex: "durationMs",
          title: "Duration",
          render: (v: number | null) => (v !== null ? `${Math.round(v / 1000)} s` : ""),
        },
        { dataIndex: "message", title: "Message" },
      ]}
    />
  );
}

/** `version` changes when the live stream reports a change, so the lists read again. */
export function VehicleHistory({ vehicleId, version }: { vehicleId: string; version: number }) {
  return (
    <Card>
      <Tabs
        items={[
          {
            key: "timeline",
            label: "Timeline",
            children: <VehicleTimeline vehicleId={vehicleId} version={version} />,
          },
          { key: "flashes", label: "Flashes", children: <FlashHistory vehicleId={vehicleId} version={version} /> },
          { key: "snapshots", label: "Snapshots", children: <Snapshots vehicleId={vehicleId} version={version} /> },
        ]}
      />
    </Card>
  );
}
