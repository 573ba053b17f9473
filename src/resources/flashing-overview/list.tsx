/**
 * Flashing analytics for admins: success rate over time, failures by step, top negative
 * responses, breakdowns by firmware family, adapter and app version, p50/p95 durations; a bar or
 * a row drills down to the matching sessions, and a session opens with its steps, snapshots,
 * the grant's facts and the bundle for support.
 */
import { DownloadOutlined } from "@ant-design/icons";
import { useApiUrl, useCustom } from "@refinedev/core";
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Drawer,
  Flex,
  Result,
  Row,
  Select,
  Skeleton,
  Statistic,
  Table,
  Tag,
  Typography,
} from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { AnalyticsCounts, FlashingOvertime, FlashingOverview } from "../../../contracts/analytics";
import { apiRoutes } from "../../../contracts/api-paths";
import type { FlashLog, FlashSessionDetail } from "../../../contracts/flash-logs";
import type { ListResponse } from "../../../contracts/list-query";
import { Link } from "../../components/link";
import { PageFrame } from "../../components/page-frame";
import { FlashResultTag } from "../../components/vehicle/flash-result-tag";
import { FlashSteps } from "../../components/vehicle/vehicle-history";
import { useSessionState } from "../../providers/session-context";

type Filters = {
  from: string;
  to: string;
  ecuFamily?: string;
  adapterKind?: string;
  appVersion?: string;
  kind?: string;
};
/** What a click on a chart or a row narrows the sessions to. */
type Drill = {
  field: "failedStep" | "failedNrc" | "ecuFamily" | "adapterKind" | "appVersion" | "result";
  value: string;
  label: string;
} | null;

const percent = (rate: number | null) => (rate === null ? "—" : `${(rate * 100).toFixed(1)} %`);
const seconds = (ms: number | null) => (ms === null ? "—" : `${Math.round(ms / 1000)} s`);
const defined = (filters: Filters) =>
  Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== ""));

function Breakdown({
  title,
  rows,
  onPick,
}: {
  title: string;
  rows: Array<AnalyticsCounts & { key: string }>;
  onPick: (key: string) => void;
}) {
  return (
    <Card title={title} size="small">
      <Table
        size="small"
        rowKey="key"
        pagination={false}
        aria-label={title}
        dataSource={rows}
        onRow={(row) => ({ onClick: () => onPick(row.key), style: { cursor: "pointer" } })}
        columns={[
          { dataIndex: "key", title: "" },
          { dataIndex: "sessions", title: "Sessions" },
          { dataIndex: "successRate", title: "Success", render: (v: number | null) => percent(v) },
        ]}
      />
    </Card>
  );
}

function SessionDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const apiUrl = useApiUrl();
  const { query } = useCustom<FlashSessionDetail>({
    url: apiRoutes.flashLog.record(String(id)),
    method: "get",
    queryOptions: { enabled: Boolean(id) },
  });
  const detail = query.data?.data;
  return (
    <Drawer open={Boolean(id)} onClose={onClose} width={900} title="Flash session">
      {query.isLoading || !detail ? (
        <Skeleton active />
      ) : (
        <Flex vertical gap={16}>
          <Descriptions size="small" column={2} aria-label="Session">
            <Descriptions.Item label="Vehicle">{`${detail.vehicle.name} · ${detail.vehicle.vin ?? "no VIN"}`}</Descriptions.Item>
            <Descriptions.Item label="Result">
              <FlashResultTag result={detail.log.result} />
            </Descriptions.Item>
            <Descriptions.Item label="Wrote">
              {detail.log.kind === "stock" ? "stock read" : `${detail.log.tuneTitle ?? "supplied image"}`}
            </Descriptions.Item>
            <Descriptions.Item label="Firmware">{`${detail.log.firmwareId ?? "—"} (${detail.log.ecuFamily ?? "—"})`}</Descriptions.Item>
            <Descriptions.Item label="Adapter / app">{`${detail.log.adapterKind ?? "—"} ${detail.log.adapterFirmware ?? ""} / ${detail.log.appVersion ?? "—"}`}</Descriptions.Item>
            <Descriptions.Item label="Battery">{`${detail.log.batteryStartVolts ?? "—"} V → ${detail.log.batteryEndVolts ?? "—"} V`}</Descriptions.Item>
            {detail.grant && (
              <Descriptions.Item label="Grant">{`${detail.grant.kind}, ECU ${detail.grant.ecuSerial}, software ${detail.grant.softwareId}, used ${detail.grant.usedAt ? new Date(detail.grant.usedAt).toLocaleString() : "never"}`}</Descriptions.Item>
            )}
            <Descriptions.Item label="Message">{detail.log.message || "—"}</Descriptions.Item>
          </Descriptions>
          <Button
            icon={<DownloadOutlined />}
            href={`${apiUrl}/flash-log/${detail.log.id}/bundle`}
            style={{ alignSelf: "start" }}
          >
            Download the support bundle
          </Button>
          <Typography.Title level={5}>Steps</Typography.Title>
          <FlashSteps steps={detail.steps} />
          <Typography.Title level={5}>Snapshots</Typography.Title>
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            aria-label="Session snapshots"
            dataSource={detail.snapshots}
            columns={[
              { dataIndex: "kind", title: "When" },
              { dataIndex: "softwareId", title: "Software" },
              { dataIndex: "calibrationId", title: "Calibration" },
              { dataIndex: "batteryVolts", title: "Battery (V)" },
              {
                dataIndex: "faultCodes",
                title: "Fault codes",
                render: (codes: string[]) => codes.join(", ") || "none",
              },
            ]}
          />
        </Flex>
      )}
    </Drawer>
  );
}

function Sessions({ filters, drill, onOpen }: { filters: Filters; drill: Drill; onOpen: (id: string) => void }) {
  const [page, setPage] = useState(1);
  const query: Record<string, string | number> = {
    page,
    pageSize: 20,
    sort: "-flashedAt",
    "flashedAt[between]": `${filters.from}T00:00:00Z,${filters.to}T23:59:59Z`,
  };
  for (const field of ["ecuFamily", "adapterKind", "appVersion", "kind"] as const)
    if (filters[field]) query[`${field}[eq]`] = filters[field] as string;
  if (drill) query[`${drill.field}[eq]`] = drill.value;
  const { query: sessions } = useCustom<ListResponse<FlashLog>>({
    url: apiRoutes.flashLog.list(),
    method: "get",
    config: { query },
  });
  return (
    <Table
      size="small"
      rowKey="id"
      aria-label="Flash sessions"
      loading={sessions.isLoading}
      dataSource={sessions.data?.data.data ?? []}
      onRow={(row) => ({ onClick: () => onOpen(row.id), style: { cursor: "pointer" } })}
      pagination={{
        current: page,
        pageSize: 20,
        total: sessions.data?.data.total ?? 0,
        onChange: setPage,
        showSizeChanger: false,
      }}
      columns={[
        { dataIndex: "flashedAt", title: "When", render: (v: string) => new Date(v).toLocaleString() },
        { dataIndex: "result", title: "Result", render: (v: FlashLog["result"]) => <FlashResultTag result={v} /> },
        { dataIndex: "firmwareId", title: "Firmware" },
        { dataIndex: "adapterKind", title: "Adapter" },
        { dataIndex: "appVersion", title: "App" },
        {
          key: "failed",
          title: "Failed at",
          render: (_, f: FlashLog) =>
            f.failedStep ? `${f.failedStep}${f.failedBlock !== null ? ` ${f.failedBlock}` : ""}` : "",
        },
        {
          dataIndex: "failedNrc",
          title: "NRC",
          render: (v: number | null) => (v !== null ? <Tag color="red">0x{v.toString(16).toUpperCase()}</Tag> : ""),
        },
        { dataIndex: "durationMs", title: "Duration", render: (v: number | null) => seconds(v) },
      ]}
    />
  );
}

/**
 * Any signed-in user may open the route, but the analytics are the admins' (the API answers
 * 403 to anyone else): others are told so instead of an error toast over a skeleton.
 */
export function FlashingOverviewList() {
  const { role } = useSessionState();
  if (role !== "admin")
    return (
      <PageFrame title="Flashing overview" subtitle="How flashes end, where they fail and why">
        <Result
          status="403"
          title="For administrators"
          subTitle="Flashing analytics across every car are kept for the portal's administrators. Your own cars' flashes are on their pages."
          extra={
            <Link to="/my-devices">
              <Button type="primary">My vehicles</Button>
            </Link>
          }
        />
      </PageFrame>
    );
  return <FlashingAnalytics />;
}

function FlashingAnalytics() {
  const [filters, setFilters] = useState<Filters>({
    from: dayjs().subtract(364, "day").format("YYYY-MM-DD"),
    to: dayjs().format("YYYY-MM-DD"),
  });
  const [drill, setDrill] = useState<Drill>(null);
  const [opened, setOpened] = useState<string | null>(null);
  const { query: overview } = useCustom<FlashingOverview>({
    url: apiRoutes.analytics.overview(),
    method: "get",
    config: { query: defined(filters) },
  });
  const { query: overtime } = useCustom<FlashingOvertime>({
    url: apiRoutes.analytics.overtime(),
    method: "get",
    config: { query: { ...defined(filters), bucket: "week" } },
  });
  const data = overview.data?.data;
  const weeks = (overtime.data?.data.data ?? []).map((row) => ({
    ...row,
    ratePercent: row.successRate === null ? null : row.successRate * 100,
  }));
  const setFilter = (field: keyof Filters, value: string | undefined) =>
    setFilters((current) => ({ ...current, [field]: value }));

  return (
    <PageFrame title="Flashing overview" subtitle="How flashes end, where they fail and why">
      <Flex gap={8} wrap>
        <DatePicker.RangePicker
          aria-label="Range"
          allowClear={false}
          value={[dayjs(filters.from), dayjs(filters.to)]}
          onChange={(range) =>
            range?.[0] &&
            range[1] &&
            setFilters((current) => ({
              ...current,
              from: range[0]!.format("YYYY-MM-DD"),
              to: range[1]!.format("YYYY-MM-DD"),
            }))
          }
        />
        <Select
          allowClear
          placeholder="ECU family"
          aria-label="ECU family"
          style={{ minWidth: 160 }}
          value={filters.ecuFamily}
          onChange={(v) => setFilter("ecuFamily", v)}
          options={(data?.byEcuFamily ?? []).map((r) => ({ value: r.key, label: r.key }))}
        />
        <Select
          allowClear
          placeholder="Adapter"
          aria-label="Adapter"
          style={{ minWidth: 160 }}
          value={filters.adapterKind}
          onChange={(v) => setFilter("adapterKind", v)}
          options={(data?.byAdapter ?? []).map((r) => ({ value: r.key, label: r.key }))}
        />
        <Select
          allowClear
          placeholder="App version"
          aria-label="App version"
          style={{ minWidth: 140 }}
          value={filters.appVersion}
          onChange={(v) => setFilter("appVersion", v)}
          options={(data?.byAppVersion ?? []).map((r) => ({ value: r.key, label: r.key }))}
        />
        <Select
          allowClear
          placeholder="Tune or stock"
          aria-label="Kind"
          style={{ minWidth: 140 }}
          value={filters.kind}
          onChange={(v) => setFilter("kind", v)}
          options={[
            { value: "tune", label: "tune" },
            { value: "stock", label: "stock" },
          ]}
        />
      </Flex>
      {overview.isError && (
        <Alert type="error" showIcon message="Could not load the analytics" description={overview.error.message} />
      )}
      {!data ? (
        <Skeleton active />
      ) : (
        <>
          <Row gutter={[16, 16]}>
            <Col xs={12} md={6}>
              <Card size="small">
                <Statistic title="Sessions" value={data.totals.sessions} />
              </Card>
            </Col>
            <Col xs={12} md={6}>
              <Card size="small">
                <Statistic title="Success rate" value={percent(data.totals.successRate)} />
              </Card>
            </Col>
            <Col xs={12} md={6}>
              <Card size="small">
                <Statistic title="Duration p50" value={seconds(data.durations.p50Ms)} />
              </Card>
            </Col>
            <Col xs={12} md={6}>
              <Card size="small">
                <Statistic title="Duration p95" value={seconds(data.durations.p95Ms)} />
              </Card>
            </Col>
          </Row>
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={12}>
              <Card size="small" title="Success rate by week">
                <div style={{ width: "100%", height: 240 }} aria-label="Success rate by week">
                  <ResponsiveContainer>
                    <LineChart data={weeks}>
                      <CartesianGrid strokeDasharray="3 3" />
                      <XAxis dataKey="start" />
                      <YAxis domain={[0, 100]} unit="%" />
                      <Tooltip />
                      <Line
                        dataKey="ratePercent"
                        name="Success %"
                        stroke="#52c41a"
                        dot={false}
                        isAnimationActive={false}
                      />
                    </LineChart>
                  </ResponsiveContainer>
                </div>
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title="Failures by step">
                <div style={{ width: "100%", height: 240 }} aria-label="Failures by step">
                  <ResponsiveContainer>
                    <BarChart data={data.failuresByStep}>
                      <CartesianGrid strokeDasharray="3 3" />
                      <XAxis dataKey="step" />
                      <YAxis allowDecimals={false} />
                      <Tooltip />
                      <Bar
                        dataKey="count"
                        name="Failures"
                        fill="#ff4d4f"
                        isAnimationActive={false}
                        cursor="pointer"
                        onClick={(entry) => {
                          const step = (entry as { payload?: { step?: string } }).payload?.step;
                          if (step) setDrill({ field: "failedStep", value: step, label: `failed at ${step}` });
                        }}
                      />
                    </BarChart>
                  </ResponsiveContainer>
                </div>
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title="Top negative responses">
                <Table
                  size="small"
                  rowKey="nrc"
                  pagination={false}
                  aria-label="Top negative responses"
                  dataSource={data.topNegativeResponses}
                  onRow={(row) => ({
                    onClick: () => setDrill({ field: "failedNrc", value: String(row.nrc), label: row.label }),
                    style: { cursor: "pointer" },
                  })}
                  columns={[
                    { dataIndex: "label", title: "Response", render: (v: string) => <Tag color="red">{v}</Tag> },
                    { dataIndex: "cause", title: "Usual cause" },
                    { dataIndex: "count", title: "Sessions" },
                  ]}
                />
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title="Durations by week (successful flashes)">
                <div style={{ width: "100%", height: 240 }} aria-label="Durations by week">
                  <ResponsiveContainer>
                    <LineChart
                      data={weeks.map((w) => ({
                        start: w.start,
                        p50: w.p50Ms === null ? null : w.p50Ms / 1000,
                        p95: w.p95Ms === null ? null : w.p95Ms / 1000,
                      }))}
                    >
                      <CartesianGrid strokeDasharray="3 3" />
                      <XAxis dataKey="start" />
                      <YAxis unit=" s" />
                      <Tooltip />
                      <Line dataKey="p50" name="p50" stroke="#1677ff" dot={false} isAnimationActive={false} />
                      <Line dataKey="p95" name="p95" stroke="#fa8c16" dot={false} isAnimationActive={false} />
                    </LineChart>
                  </ResponsiveContainer>
                </div>
              </Card>
            </Col>
            <Col xs={24} lg={8}>
              <Breakdown
                title="By ECU family"
                rows={data.byEcuFamily}
                onPick={(key) => setDrill({ field: "ecuFamily", value: key, label: key })}
              />
            </Col>
            <Col xs={24} lg={8}>
              <Breakdown
                title="By adapter"
                rows={data.byAdapter}
                onPick={(key) => setDrill({ field: "adapterKind", value: key, label: key })}
              />
            </Col>
            <Col xs={24} lg={8}>
              <Breakdown
                title="By app version"
                rows={data.byAppVersion}
                onPick={(key) => setDrill({ field: "appVersion", value: key, label: key })}
              />
            </Col>
          </Row>
          <Card
            size="small"
            title={drill ? `Sessions: ${drill.label}` : "Sessions"}
            extra={
              drill && (
                <Button size="small" onClick={() => setDrill(null)}>
                  Show all
                </Button>
              )
            }
          >
            <Sessions filters={filters} drill={drill} onOpen={setOpened} />
          </Card>
        </>
      )}
      <SessionDrawer id={opened} onClose={() => setOpened(null)} />
    </PageFrame>
  );
}
