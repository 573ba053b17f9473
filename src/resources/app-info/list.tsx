import { useCustom } from "@refinedev/core";
import { Alert, Card, Descriptions, Spin, Tag } from "antd";
import type { ServerStatus as Status } from "../../../contracts/server-management";
import { PageFrame } from "../../components/page-frame";
import { apiPaths } from "../../../contracts/api-paths";

const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function formatUptime(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return [days && `${days} d`, (days || hours) && `${hours} h`, `${minutes} min`].filter(Boolean).join(" ");
}

const health = (ok: boolean) => <Tag color={ok ? "green" : "red"}>{ok ? "answering" : "not answering"}</Tag>;

export function AppInfoList() {
  const { query } = useCustom<Status>({ url: apiPaths["app-info"].list, method: "get", queryOptions: { refetchInterval: 15_000 } });
  const status = query.data?.data;
  return (
    <PageFrame title="App info" subtitle="Version and health of the API and what it depends on">
      {query.isError && <Alert type="error" showIcon message="Could not load the server status" description={query.error?.message} />}
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
    </PageFrame>
  );
}
