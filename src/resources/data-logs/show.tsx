import { ShareAltOutlined } from "@ant-design/icons";
import { useCustom, useOne, useUpdate } from "@refinedev/core";
import { Alert, Button, Flex, Typography } from "antd";
import { useCallback, useMemo, useState } from "react";
import { useParams } from "react-router";
import type { ComputedDescriptor } from "../../../contracts/catalogue";
import type { DataLogDetail, DynoProfile } from "../../../contracts/data-logs";
import { SlimHeader } from "../../components/layouts/slim-header";
import { LogAnalysis } from "./analysis/log-analysis";
import { useColumnsFetcher, usePanesParam } from "./analysis/hooks";
import { ShareDialog } from "./share-dialog";

/** Full-screen analysis of one of the user's logs. */
export function DataLogsShow() {
  const { id = "" } = useParams();
  const [panesParam, setPanes] = usePanesParam();
  const [sharing, setSharing] = useState(false);
  const { query, result: log } = useOne<DataLogDetail>({ resource: "data-logs", id });
  // The columnar form, not the CSV, fetched by the analysis view in byte ranges.
  const fetchColumns = useColumnsFetcher(`data-logs/${id}/columns`);
  // Only admins may read the catalogue's computed descriptors; for others the list stays empty.
  const { query: descriptors } = useCustom<{ data: ComputedDescriptor[] }>({
    url: "firmware-support/computed-descriptors",
    method: "get",
    config: { query: { pageSize: 200 } },
    errorNotification: false,
    queryOptions: { retry: false, refetchOnWindowFocus: false },
  });
  const { mutate: update, mutation } = useUpdate<DataLogDetail>();

  const onVehicle = Boolean(log?.vehicleId);
  const saveProfile = useCallback(
    (profile: DynoProfile) =>
      update({ resource: "data-logs", id, values: { dynoProfile: profile }, successNotification: () => ({ type: "success", message: onVehicle ? "Profile kept with the vehicle" : "Profile kept with the log" }) }),
    [update, id, onVehicle],
  );
  // Stable props: the analysis view re-renders on every zoom step, its side panels should not.
  const dyno = useMemo(() => ({ profile: log?.dynoProfile ?? null, save: saveProfile, saving: mutation.isPending }), [log?.dynoProfile, saveProfile, mutation.isPending]);
  const descriptorList = useMemo(() => descriptors.data?.data.data ?? [], [descriptors.data]);

  const charted = (panesParam ?? "").split(/[;,]/).filter(Boolean);
  return (
    <Flex vertical style={{ minHeight: "100vh" }}>
      <SlimHeader back="/tuning-tools/data-logs">
        <Typography.Text strong ellipsis style={{ maxWidth: 480 }}>
          {log?.title ?? "Data log"}
        </Typography.Text>
        {log && (
          <Button icon={<ShareAltOutlined />} onClick={() => setSharing(true)}>
            Share
          </Button>
        )}
      </SlimHeader>
      <Flex vertical style={{ padding: 16, flex: 1, minHeight: 0 }}>
        {query.isError ? (
          <Alert type="error" showIcon message="The log could not be loaded" description={query.error?.message} />
        ) : (
          // Not waiting for the record: the columns carry their own channel list, and the first paint is what counts.
          <LogAnalysis fetchColumns={fetchColumns} panesParam={panesParam} onPanesParam={setPanes} dyno={dyno} descriptors={descriptorList} />
        )}
      </Flex>
      {log && <ShareDialog key={String(sharing)} logId={log.id} title={log.title} channels={log.channels} initialChannels={charted} open={sharing} onClose={() => setSharing(false)} />}
    </Flex>
  );
}
