import { useCustom } from "@refinedev/core";
import { Alert, Card, Descriptions, Spin, Table, Tag, Typography } from "antd";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import type { AppInfo, ServerStatus as Status } from "../../../contracts/server-management";
import { PageFrame } from "../../components/page-frame";

const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function formatUptime(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return [days && `${days} d`, (days || hours) && `${hours} h`, `${minutes} min`].filter(Boolean).join(" ");
}

const health = (ok: boolean) => <Tag color={ok ? "green" : "red"}>{ok ? "answering" : "not answering"}</Tag>;

export function AppInfoList() {
  const { query } = useCustom<Status>({
    url: apiPaths["app-info"].list,
    method: "get",
    queryOptions: { refetchInterval: 15_000 },
  });
  const status = query.data?.data;
  const { query: infoQuery } = useCustom<AppInfo>({ url: apiRoutes.serverManagement.appInfo(), method: "get" });
  const info = infoQuery.data?.data;
  return (
    <PageFrame title="App info" subtitle="Version and health of the API and what it depends on">
      {query.isError && (
        <Alert type="error" showIcon message="Could not load the server status" description={query.error?.message} />
      )}
      {query.isLoading && <Spin />}
      {status && (
        <Card>
          <Descriptions column={{ xs: 1, md: 2 }} bordered size="small">
            <Descriptions.Item label="Version">{status.version}</Descriptions.Item>
            <Descriptions.Item label="Mode">{status.mode}</Descriptions.Item>
            <Descriptions.Item label="Started">{new Date(status.startedAt).toLocaleString()}</Descriptions.Item>
            <Descriptions.Item label="Uptime">{formatUptime(status.uptimeSeconds)}</Descriptions.Item>
            <Descriptions.Item label="Database">
              {status.database.kind} {health(status.database.ok)}
            </Descriptions.Item>
            <Descriptions.Item label="Identity service">
              {status.identity.emulator ? "Auth emulator" : "Firebase Auth"} {health(status.identity.ok)}
            </Descriptions.Item>
            <Descriptions.Item label="Memory (RSS)">{mebibytes(status.memory.rssBytes)}</Descriptions.Item>
            <Descriptions.Item label="Heap used">{mebibytes(status.memory.heapUsedBytes)}</Descriptions.Item>
            <Descriptions.Item label="Background jobs running">{status.jobs.running}</Descriptions.Item>
          </Descriptions>
        </Card>
      )}
      {infoQuery.isError && (
        <Alert
          type="error"
          showIcon
          message="Could not load the versions and configuration"
          description={infoQuery.error?.message}
        />
      )}
      {info && (
        <>
          <Card title="Versions">
            <Descriptions column={{ xs: 1, md: 3 }} bordered size="small" aria-label="Versions">
              <Descriptions.Item label="Portal">{info.versions.app}</Descriptions.Item>
              <Descriptions.Item label="Node.js">{info.versions.node}</Descriptions.Item>
              {Object.entries(info.versions.libraries).map(([name, version]) => (
                <Descriptions.Item key={name} label={name}>
                  {version}
                </Descriptions.Item>
              ))}
            </Descriptions>
          </Card>
          <Card title="Build">
            <Descriptions column={{ xs: 1, md: 3 }} bordered size="small">
              <Descriptions.Item label="Build id">{info.build.id ?? "no web build served"}</Descriptions.Item>
              <Descriptions.Item label="Commit">
                {info.build.commit ? (
                  <Typography.Text code copyable>
                    {info.build.commit.slice(0, 12)}
                  </Typography.Text>
                ) : (
                  "unknown"
                )}
              </Descriptions.Item>
              <Descriptions.Item label="Built">
                {info.build.time ? new Date(info.build.time).toLocaleString() : "unknown"}
              </Descriptions.Item>
            </Descriptions>
          </Card>
          <Card
            title="Configuration"
            extra={<Typography.Text type="secondary">Secrets are masked; they never leave the server.</Typography.Text>}
          >
            <Table
              rowKey="key"
              size="small"
              aria-label="Configuration"
              pagination={false}
              dataSource={info.configuration}
              columns={[
                {
                  dataIndex: "key",
                  title: "Setting",
                  render: (key: string) => <Typography.Text code>{key}</Typography.Text>,
                },
                {
                  dataIndex: "value",
                  title: "Value",
                  render: (value: string | null) =>
                    value === null ? (
                      <Typography.Text type="secondary">not set</Typography.Text>
                    ) : (
                      <Typography.Text style={{ wordBreak: "break-all" }}>{value}</Typography.Text>
                    ),
                },
                {
                  dataIndex: "masked",
                  title: "",
                  render: (masked: boolean) => masked && <Tag color="gold">masked</Tag>,
                },
              ]}
            />
          </Card>
        </>
      )}
    </PageFrame>
  );
}
