import { ShareAltOutlined } from "@ant-design/icons";
import { useCustom, useOne, useUpdate } from "@refinedev/core";
import { Alert, Button, Flex, Spin, Typography } from "antd";
import { useState } from "react";
import { useParams, useSearchParams } from "react-router";
import type { ComputedDescriptor } from "../../../contracts/catalogue";
import type { DataLogDetail, DynoProfile } from "../../../contracts/data-logs";
import { SlimHeader } from "../../components/layouts/slim-header";
import { LogAnalysis } from "./analysis/log-analysis";
import { ShareDialog } from "./share-dialog";

/** Full-screen analysis of one of the user's logs. */
export function DataLogsShow() {
  const { id = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const [sharing, setSharing] = useState(false);
  const { query, result: log } = useOne<DataLogDetail>({ resource: "data-logs", id });
  // The columnar form, not the CSV; dropped from the cache as soon as the page goes.
  const { query: columns } = useCustom<Blob>({
    url: `data-logs/${id}/columns`,
    method: "get",
    meta: { responseType: "blob" },
    queryOptions: { gcTime: 0, staleTime: Infinity, refetchOnWindowFocus: false },
  });
  // Only admins may read the catalogue's computed descriptors; for others the list stays empty.
  const { query: descriptors } = useCustom<{ data: ComputedDescriptor[] }>({
    url: "firmware-support/computed-descriptors",
    method: "get",
    config: { query: { pageSize: 200 } },
    errorNotification: false,
    queryOptions: { retry: false, refetchOnWindowFocus: false },
  });
  const { mutate: update, mutation } = useUpdate<DataLogDetail>();

  const panesParam = params.get("panes");
  const setPanes = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set("panes", value);
        return next;
      },
      { replace: true },
    );
  const saveProfile = (profile: DynoProfile) =>
    update({ resource: "data-logs", id, values: { dynoProfile: profile }, successNotification: () => ({ type: "success", message: log?.vehicleId ? "Profile kept with the vehicle" : "Profile kept with the log" }) });

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
        {query.isError || columns.isError ? (
          <Alert type="error" showIcon message="The log could not be loaded" description={(query.error ?? columns.error)?.message} />
        ) : !log ? (
          <Flex justify="center" style={{ padding: 48 }}>
            <Spin size="large" />
          </Flex>
        ) : (
          <LogAnalysis
            channels={log.channels}
            columns={columns.data?.data as Blob | undefined}
            panesParam={panesParam}
            onPanesParam={setPanes}
            dyno={{ profile: log.dynoProfile, save: saveProfile, saving: mutation.isPending }}
            descriptors={descriptors.data?.data.data ?? []}
          />
        )}
      </Flex>
      {log && <ShareDialog key={String(sharing)} logId={log.id} title={log.title} channels={log.channels} initialChannels={charted} open={sharing} onClose={() => setSharing(false)} />}
    </Flex>
  );
}
