/**
 * The sections of a user's page that read the user's data from the lists the rest of the portal
 * uses (filtered to the user): vehicles, data logs, flash sessions, tuning requests, and the audit
 * of changes made to the account (and, for staff, by it). Each row links to its own page.
 */
import { useCustom } from "@refinedev/core";
import { Card, Flex, Table, type TableColumnsType, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import type { Role } from "../../../contracts/account";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import type { AuditEvent } from "../../../contracts/audit";
import type { DataLogSummary } from "../../../contracts/data-logs";
import type { FlashLog, FlashResult } from "../../../contracts/flash-logs";
import type { TuningRequestSummary } from "../../../contracts/tuning-requests";
import type { Vehicle } from "../../../contracts/user-vehicles";
import { Link } from "../../components/link";
import { StateTag } from "../../components/tuning-requests/state-tag";
import { FlashResultTag } from "../../components/vehicle/flash-result-tag";
import { userVehiclesOf } from "../../lib/list-links";
import { changeText } from "./audit-change";
import { when } from "./presentation";

interface Page<Row> {
  data: Row[];
  total: number;
}

/** A list endpoint read with list-query filters (`field[op]=value`), 10 rows unless said. */
function useListOf<Row>(url: string, query: Record<string, string>, enabled = true) {
  const { query: result } = useCustom<Page<Row>>({
    url,
    method: "get",
    config: { query: { pageSize: "10", ...query } },
    queryOptions: { enabled },
    errorNotification: false,
  });
  return {
    rows: result.data?.data.data ?? [],
    total: result.data?.data.total ?? 0,
    loading: result.isLoading,
    error: result.error,
  };
}

/** One section of the page: a titled card with a small table and, when the list is longer, how much of it shows. */
function Section<Row extends { id: string | number }>({
  title,
  extra,
  label,
  rows,
  total,
  loading,
  noun,
  emptyText,
  columns,
}: {
  title: string;
  extra?: ReactNode;
  label: string;
  rows: Row[];
  total: number;
  loading: boolean;
  noun: string;
  emptyText: string;
  columns: TableColumnsType<Row>;
}) {
  return (
    <Card size="small" title={title} extra={extra}>
      <Table<Row>
        size="small"
        rowKey="id"
        aria-label={label}
        loading={loading}
        pagination={false}
        scroll={{ x: "max-content" }}
        dataSource={rows}
        locale={{ emptyText }}
        columns={columns}
      />
      {total > rows.length && (
        <Typography.Text type="secondary">{`${rows.length} of ${total} ${noun} shown`}</Typography.Text>
      )}
    </Card>
  );
}

export function UserVehicles({ uid }: { uid: string }) {
  const { rows, total, loading } = useListOf<Vehicle>(apiPaths["user-vehicles"].list, {
    "ownerUid[eq]": uid,
    sort: "-lastConnectedAt",
  });
  return (
    <Section<Vehicle>
      title={`Vehicles (${total})`}
      extra={<Link to={userVehiclesOf(uid)}>All vehicles</Link>}
      label="User's vehicles"
      rows={rows}
      total={total}
      loading={loading}
      noun="vehicles"
      emptyText="No vehicles connected"
      columns={[
        {
          dataIndex: "name",
          title: "Vehicle",
          render: (name: string, vehicle) => <Link to={`/my-devices/${vehicle.id}`}>{name}</Link>,
        },
        { dataIndex: "vin", title: "VIN", render: (vin: string | null) => vin ?? "—" },
        { dataIndex: "firmwareId", title: "Firmware", render: (value: string | null) => value ?? "unknown" },
        {
          key: "flash",
          title: "Last flash",
          render: (_, vehicle) =>
            vehicle.lastFlash ? <FlashResultTag result={vehicle.lastFlash.result as FlashResult} /> : "none",
        },
        { dataIndex: "lastConnectedAt", title: "Last connected", render: when },
      ]}
    />
  );
}

export function UserDataLogs({ uid }: { uid: string }) {
  const { rows, total, loading } = useListOf<DataLogSummary>(apiPaths["data-logs"].list, {
    "ownerUid[eq]": uid,
    sort: "-createdAt",
  });
  return (
    <Section<DataLogSummary>
      title={`Data logs (${total})`}
      label="User's data logs"
      rows={rows}
      total={total}
      loading={loading}
      noun="logs"
      emptyText="No data logs uploaded"
      columns={[
        {
          dataIndex: "title",
          title: "Log",
          render: (title: string, log) => <Link to={`/tuning-tools/data-logs/${log.id}`}>{title}</Link>,
        },
        { dataIndex: "format", title: "Format" },
        { dataIndex: "durationSeconds", title: "Duration", render: (seconds: number) => `${seconds.toFixed(1)} s` },
        { dataIndex: "createdAt", title: "Uploaded", render: when },
      ]}
    />
  );
}

/** The flash sessions of the user's cars (the flash log is kept per car). */
export function UserFlashSessions({ uid }: { uid: string }) {
  const vehicles = useListOf<Vehicle>(apiPaths["user-vehicles"].list, { "ownerUid[eq]": uid, pageSize: "100" });
  const ids = vehicles.rows.map((vehicle) => vehicle.id);
  const { rows, total, loading } = useListOf<FlashLog>(
    apiRoutes.flashLog.list(),
    { "vehicleId[in]": ids.join(","), sort: "-flashedAt" },
    ids.length > 0,
  );
  const nameOf = new Map(vehicles.rows.map((vehicle) => [vehicle.id, vehicle.name]));
  return (
    <Section<FlashLog>
      title={`Flash sessions (${ids.length ? total : 0})`}
      label="User's flash sessions"
      rows={ids.length ? rows : []}
      total={total}
      loading={vehicles.loading || (ids.length > 0 && loading)}
      noun="sessions"
      emptyText="No flash sessions"
      columns={[
        { dataIndex: "flashedAt", title: "When", render: when },
        {
          dataIndex: "vehicleId",
          title: "Vehicle",
          render: (id: string) => <Link to={`/my-devices/${id}`}>{nameOf.get(id) ?? id}</Link>,
        },
        {
          key: "what",
          title: "Wrote",
          render: (_, log) =>
            log.kind === "stock"
              ? "stock read"
              : `${log.tuneTitle ?? "a tune"}${log.tuneVersion ? ` v${log.tuneVersion}` : ""}`,
        },
        {
          dataIndex: "result",
          title: "Result",
          render: (result: FlashResult, log) => (
            <Flex vertical>
              <FlashResultTag result={result} />
              {result !== "success" && log.message && <Typography.Text type="secondary">{log.message}</Typography.Text>}
            </Flex>
          ),
        },
      ]}
    />
  );
}

export function UserTuningRequests({ uid, role }: { uid: string; role: Role }) {
  const side = role === "dealer" ? "dealerUid" : "customerUid";
  const { rows, total, loading } = useListOf<TuningRequestSummary>(apiPaths["tuning-requests"].list, {
    [`${side}[eq]`]: uid,
    sort: "-updatedAt",
  });
  return (
    <Section<TuningRequestSummary>
      title={`Tuning requests ${role === "dealer" ? "worked" : "asked"} (${total})`}
      label="User's tuning requests"
      rows={rows}
      total={total}
      loading={loading}
      noun="requests"
      emptyText="No tuning requests"
      columns={[
        {
          dataIndex: "reference",
          title: "Request",
          render: (reference: string, request) => <Link to={`/tuning-requests/show/${request.id}`}>{reference}</Link>,
        },
        { dataIndex: "state", title: "State", render: (_, request) => <StateTag state={request.state} /> },
        {
          key: "party",
          title: role === "dealer" ? "Customer" : "Dealer",
          render: (_, request) => (role === "dealer" ? request.customerName : request.dealerName) ?? "—",
        },
        { dataIndex: "vehicleName", title: "Vehicle", render: (name: string | null) => name ?? "—" },
        { dataIndex: "lastCustomerActionAt", title: "Last customer action", render: when },
      ]}
    />
  );
}

export function AuditTable({
  query,
  title,
  emptyText,
}: {
  query: Record<string, string>;
  title: string;
  emptyText: string;
}) {
  const { rows, total, loading } = useListOf<AuditEvent>(apiPaths["audit-events"].list, {
    sort: "-at",
    pageSize: "20",
    ...query,
  });
  return (
    <Section<AuditEvent>
      title={`${title} (${total})`}
      label={title}
      rows={rows}
      total={total}
      loading={loading}
      noun="changes"
      emptyText={emptyText}
      columns={[
        { dataIndex: "at", title: "When", render: when },
        {
          key: "actor",
          title: "Who",
          render: (_, event) =>
            event.actorUid ? (
              <Link to={`/admin/users/${encodeURIComponent(event.actorUid)}`}>
                {event.actorLabel ?? event.actorUid}
              </Link>
            ) : (
              "the server"
            ),
        },
        { dataIndex: "action", title: "What", render: (action: string) => <Tag>{action}</Tag> },
        {
          key: "change",
          title: "Change",
          render: (_, event) => <Typography.Text style={{ whiteSpace: "normal" }}>{changeText(event)}</Typography.Text>,
        },
        {
          dataIndex: "requestId",
          title: "Request",
          render: (id: string | null) => (
            <Typography.Text type="secondary" copyable={Boolean(id)}>
              {id ?? "—"}
            </Typography.Text>
          ),
        },
      ]}
    />
  );
}
