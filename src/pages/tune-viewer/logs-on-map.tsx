/**
 * "Logs on this map": the caller's logs laid on the map's own axes, per cell the hit count and the
 * chosen channel's mean, the cells the logs never visited greyed. The logs are the caller's own
 * (the server lists no one else's); a dealer lays a request's logs on its tune from the request.
 */
import { useCustom } from "@refinedev/core";
import { Alert, Card, Flex, Select, Skeleton, Space } from "antd";
import { useState } from "react";
import { apiPaths } from "../../../contracts/api-paths";
import type { DataLogSummary } from "../../../contracts/data-logs";
import type { ItemValues } from "../../../contracts/tune-definition";
import { AxisChoice, MinSamplesInput, useAxisChoice } from "../../components/logs-on-map/axis-choice";
import { CorrectionGrid } from "../../components/logs-on-map/correction-grid";
import { useLogColumns } from "../../components/logs-on-map/use-log-columns";
import { logsOnMap, mapOnAxes } from "../../lib/logs-on-map";

function LaidLogs({ values, logIds }: { values: ItemValues; logIds: string[] }) {
  const { logs, loading, error } = useLogColumns(logIds);
  const axes = useAxisChoice(logs, values);
  const [z, setZ] = useState<string | null>(null);
  const [minSamples, setMinSamples] = useState(1);
  const map = mapOnAxes(values)!;
  const channel = z ?? axes.y ?? axes.x;
  if (error) return <Alert type="error" showIcon role="alert" message={error} />;
  if (loading || logs.length === 0) return <Skeleton active paragraph={{ rows: 2 }} />;
  let histogram = null;
  let failure: string | null = null;
  if (axes.x && channel && (!axes.rows || axes.y)) {
    try {
      histogram = logsOnMap(logs, map, { x: axes.x, y: axes.y ?? undefined, z: channel, minSamples });
    } catch (caught) {
      failure = (caught as Error).message;
    }
  }
  return (
    <Flex vertical gap={8}>
      <Space wrap>
        <AxisChoice choice={axes} logs={logs} />
        <Select
          aria-label="Channel to average"
          style={{ minWidth: 200 }}
          value={channel}
          onChange={setZ}
          options={logs[0].channels.map((c) => ({ value: c.name, label: `mean of ${c.name}` }))}
        />
        <MinSamplesInput value={minSamples} onChange={setMinSamples} />
      </Space>
      {failure && <Alert type="warning" showIcon message={failure} />}
      {!histogram && !failure && <Alert type="info" showIcon message="Choose the channels along the map's axes." />}
      {histogram && <CorrectionGrid label="Logs on this map" values={values} histogram={histogram} />}
    </Flex>
  );
}

export function LogsOnThisMap({ values }: { values: ItemValues }) {
  const [logIds, setLogIds] = useState<string[]>([]);
  const list = useCustom<{ data: DataLogSummary[] }>({
    url: apiPaths["data-logs"].list,
    method: "get",
    config: { sorters: [{ field: "createdAt", order: "desc" }], query: { pageSize: 50 } },
  });
  if (!mapOnAxes(values)) return null;
  return (
    <Card size="small" title="Logs on this map">
      <Flex vertical gap={8}>
        <Select
          mode="multiple"
          aria-label="Logs on this map"
          placeholder="Your logs to lay on this map"
          loading={list.query.isLoading}
          value={logIds}
          onChange={setLogIds}
          optionFilterProp="label"
          options={(list.query.data?.data.data ?? []).map((log) => ({
            value: log.id,
            label: `${log.title} (${new Date(log.createdAt).toLocaleDateString()})`,
          }))}
        />
        {logIds.length > 0 && <LaidLogs key={values.id} values={values} logIds={logIds} />}
      </Flex>
    </Card>
  );
}
