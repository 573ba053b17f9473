import { useCustom, useCustomMutation } from "@refinedev/core";
import {
  Alert,
  Button,
  Card,
  Col,
  Flex,
  Popconfirm,
  Progress,
  Row,
  Space,
  Spin,
  Statistic,
  Table,
  Tag,
  Typography,
} from "antd";
import { useState } from "react";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import type { ComponentHealth, JobSnapshot, JobState, ServerStatus } from "../../../contracts/server-management";
import { PageFrame } from "../../components/page-frame";
import { AuditTable } from "../users/sections";

const COMPONENT_LABELS: Record<ComponentHealth["name"], string> = {
  api: "API",
  database: "Database",
  identity: "Identity",
  payments: "Payment provider",
  storage: "Storage",
  queue: "Job queue",
};

const KIND_LABELS: Record<string, string> = {
  "rebake-all": "Rebake all",
  "collect-blobs": "Blob collection",
  "reconcile-users": "User reconciliation",
  "mail.send": "Email",
  "tuning-requests.auto-accept": "Auto-accept of deliveries",
  "tuning-requests.due-notices": "Due and late tickets",
};

const kindLabel = (kind: string) =>
  kind.endsWith(".dead")
    ? `${KIND_LABELS[kind.slice(0, -5)] ?? kind.slice(0, -5)} (dead letter)`
    : (KIND_LABELS[kind] ?? kind);

const STATE_COLORS: Record<JobState, string> = {
  queued: "default",
  retrying: "orange",
  running: "processing",
  succeeded: "green",
  failed: "red",
  cancelled: "default",
};

const active = (job: JobSnapshot) => job.state === "queued" || job.state === "running" || job.state === "retrying";
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "—");

function percentOf(job: JobSnapshot): number {
  if (job.state === "succeeded") return 100;
  return job.total > 0 ? Math.round((job.done / job.total) * 100) : 0;
}

function JobProgress({ job }: { job: JobSnapshot }) {
  const status =
    job.state === "failed"
      ? "exception"
      : job.state === "succeeded"
        ? job.failures.length
          ? "normal"
          : "success"
        : job.state === "running"
          ? "active"
          : "normal";
  return (
    <Flex vertical gap={2} style={{ minWidth: 180 }}>
      <Progress percent={percentOf(job)} status={status} size="small" aria-label={`${kindLabel(job.kind)} progress`} />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {job.total > 0
          ? `${job.done} of ${job.total}`
          : job.state === "queued" || job.state === "retrying"
            ? job.startsAt && new Date(job.startsAt).getTime() > Date.now()
              ? `starts ${new Date(job.startsAt).toLocaleTimeString()}`
              : "waiting"
            : "—"}
        {job.failures.length > 0 && ` · ${job.failures.length} failed`}
      </Typography.Text>
    </Flex>
  );
}

function resultText(job: JobSnapshot): string {
  if (!job.result) return "";
  return Object.entries(job.result)
    .map(([key, value]) => `${key} ${value}`)
    .join(", ");
}

function HealthCards({ status }: { status: ServerStatus }) {
  return (
    <Row gutter={[12, 12]}>
      {status.components.map((component) => (
        <Col key={component.name} xs={24} sm={12} lg={8}>
          <Card
            size="small"
            title={COMPONENT_LABELS[component.name]}
            aria-label={`${COMPONENT_LABELS[component.name]} health`}
            extra={<Tag color={component.ok ? "green" : "red"}>{component.ok ? "healthy" : "failing"}</Tag>}
          >
            <Typography.Paragraph style={{ marginBottom: 4 }}>{component.detail}</Typography.Paragraph>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              checked in {component.latencyMs} ms
            </Typography.Text>
          </Card>
        </Col>
      ))}
    </Row>
  );
}

function QueueFigures({ status }: { status: ServerStatus }) {
  const { queue } = status;
  return (
    <Card
      title="Job queue"
      extra={
        <Typography.Text type="secondary">
          pg-boss on {queue.backend === "pglite" ? "the embedded PGlite" : "PostgreSQL"}
        </Typography.Text>
      }
    >
      <Row gutter={[16, 16]}>
        <Col xs={12} md={4}>
          <Statistic title="Lag" value={queue.lagSeconds} suffix="s" />
        </Col>
        <Col xs={12} md={4}>
          <Statistic title="Waiting" value={queue.counts.queued} />
        </Col>
        <Col xs={12} md={4}>
          <Statistic title="Running" value={queue.counts.running} />
        </Col>
        <Col xs={12} md={4}>
          <Statistic title="Retrying" value={queue.counts.retrying} />
        </Col>
        <Col xs={12} md={4}>
          <Statistic title="Failed" value={queue.failed} valueStyle={queue.failed ? { color: "#cf1322" } : undefined} />
        </Col>
        <Col xs={12} md={4}>
          <Statistic title="Dead letters" value={queue.deadLetters} />
        </Col>
      </Row>
      {queue.schedules.length > 0 && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          Schedules (UTC):{" "}
          {queue.schedules.map((schedule) => `${kindLabel(schedule.kind)} ${schedule.cron}`).join(" · ")}
        </Typography.Paragraph>
      )}
    </Card>
  );
}

export function ServerManagementList() {
  const status = useCustom<ServerStatus>({
    url: apiPaths["server-management"].list,
    method: "get",
    queryOptions: { refetchInterval: 10_000 },
  });
  const background = useCustom<{ jobs: JobSnapshot[] }>({
    url: apiRoutes.serverManagement.background(),
    method: "get",
    // While a job runs, its progress bar follows it every second; otherwise every 10 s.
    queryOptions: { refetchInterval: (query) => (query.state.data?.data.jobs.some(active) ? 1000 : 10_000) },
  });
  const { mutate, mutation } = useCustomMutation();
  // Each start or retry is audited: the audit table below is read again after one.
  const [auditVersion, setAuditVersion] = useState(0);
  const refresh = () => {
    void background.query.refetch();
    void status.query.refetch();
    setAuditVersion((version) => version + 1);
  };
  const post = (url: string, message: string) =>
    mutate(
      { url, method: "post", values: {}, successNotification: { type: "success", message } },
      { onSuccess: refresh },
    );

  const jobs = background.query.data?.data.jobs ?? [];
  const failed = jobs.filter((job) => job.state === "failed" && !job.deadLetter);
  const current = status.query.data?.data;

  return (
    <PageFrame
      title="Server management"
      subtitle="Health of each component, the job queue and background jobs"
      extra={
        <Space wrap>
          <Button
            onClick={() => post(apiRoutes.serverManagement.collectBlobs(), "Blob collection started")}
            loading={mutation.isPending}
          >
            Collect blobs now
          </Button>
          <Button
            onClick={() => post(apiRoutes.serverManagement.start("reconcile-users"), "User reconciliation started")}
            loading={mutation.isPending}
          >
            Reconcile users
          </Button>
          <Popconfirm
            title="Rebake every kept bake?"
            description="Each kept bake is redone from its sources; this can take a while."
            okText="Rebake all"
            onConfirm={() => post(apiRoutes.serverManagement.rebakeAll(), "Rebake of every bake started")}
          >
            <Button loading={mutation.isPending}>Rebake all</Button>
          </Popconfirm>
        </Space>
      }
    >
      {status.query.isError && (
        <Alert
          type="error"
          showIcon
          message="Could not load the server status"
          description={status.query.error?.message}
        />
      )}
      {status.query.isLoading && <Spin />}
      {current && <HealthCards status={current} />}
      {current && <QueueFigures status={current} />}

      <Card title="Background jobs">
        <Table<JobSnapshot>
          rowKey="id"
          size="small"
          aria-label="Background jobs"
          loading={background.query.isLoading}
          dataSource={jobs.filter((job) => !job.deadLetter)}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          locale={{
            emptyText:
              "No background jobs yet: blob collection, rebakes, reconciliation, mail and the auto-accept run here.",
          }}
          columns={[
            { dataIndex: "kind", title: "Job", render: (kind: string) => kindLabel(kind) },
            {
              dataIndex: "state",
              title: "State",
              render: (state: JobState) => <Tag color={STATE_COLORS[state]}>{state}</Tag>,
            },
            { key: "progress", title: "Progress", render: (_, job) => <JobProgress job={job} /> },
            { dataIndex: "createdAt", title: "Queued", render: when },
            { dataIndex: "finishedAt", title: "Finished", render: when },
            {
              key: "result",
              title: "Result",
              render: (_, job) => (
                <Typography.Text style={{ whiteSpace: "normal" }}>{job.error ?? resultText(job)}</Typography.Text>
              ),
            },
          ]}
          expandable={{
            rowExpandable: (job) => job.failures.length > 0,
            expandedRowRender: (job) => (
              <ul style={{ margin: 0 }}>
                {job.failures.map((failure) => (
                  <li key={failure.item}>
                    <Typography.Text code>{failure.item}</Typography.Text> {failure.message}
                  </li>
                ))}
              </ul>
            ),
          }}
        />
      </Card>

      <Card title={`Failed jobs (${failed.length})`}>
        <Table<JobSnapshot>
          rowKey="id"
          size="small"
          aria-label="Failed jobs"
          dataSource={failed}
          pagination={false}
          locale={{ emptyText: "No failed jobs" }}
          columns={[
            { dataIndex: "kind", title: "Job", render: (kind: string) => kindLabel(kind) },
            {
              dataIndex: "error",
              title: "Error",
              render: (error: string | null) => (
                <Typography.Text type="danger" style={{ whiteSpace: "normal" }}>
                  {error ?? "—"}
                </Typography.Text>
              ),
            },
            { key: "attempts", title: "Attempts", render: (_, job) => `${job.retries + 1} of ${job.retryLimit + 1}` },
            { dataIndex: "finishedAt", title: "Failed", render: when },
            {
              key: "retry",
              title: "",
              render: (_, job) => (
                <Popconfirm
                  title={`Retry this ${kindLabel(job.kind)} job?`}
                  description="It gets one more attempt."
                  okText="Retry"
                  onConfirm={() =>
                    post(apiRoutes.serverManagement.retryJob(job.id), `${kindLabel(job.kind)} queued again`)
                  }
                >
                  <Button size="small">Retry</Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      </Card>

      {/* Audit trail: every change an admin made (the lead may replace this with the final audit table). */}
      <Card title="Audit trail">
        <AuditTable key={auditVersion} title="Every change" emptyText="No changes recorded yet" query={{}} />
      </Card>
    </PageFrame>
  );
}
