import { ShareAltOutlined } from "@ant-design/icons";
import { useCustom, useList, useOne, useUpdate } from "@refinedev/core";
import { Alert, Button, Flex, theme } from "antd";
import { lazy, Suspense, useCallback, useDeferredValue, useMemo, useState } from "react";
import { useParams } from "react-router";
import { apiRoutes } from "../../../contracts/api-paths";
import type { SharedLayout } from "../../../contracts/data-log-layouts";
import type { DataLogDetail, DataLogSummary, DynoProfile, LogComputedDescriptor } from "../../../contracts/data-logs";
import { SlimHeader, SlimTitle } from "../../components/layouts/slim-header";
import { useRecordMissing } from "../../components/record-not-found";
import { useColumnsFetcher, useColumnsFetchers, useCompareParam, usePanesParam } from "./analysis/hooks";
import { LogAnalysis } from "./analysis/log-analysis";
import { useLogVehicles } from "./vehicles";

// The share dialog (antd's Modal, List, pagination) loads when Share is pressed, not with the log.
const ShareDialog = lazy(() => import("./share-dialog").then((module) => ({ default: module.ShareDialog })));

/** Full-screen analysis of one of the user's logs. */
export function DataLogsShow() {
  const { id = "" } = useParams();
  const { token } = theme.useToken();
  const [panesParam, setPanes] = usePanesParam();
  const [sharing, setSharing] = useState(false);
  const { query, result: log } = useOne<DataLogDetail>({ resource: "data-logs", id, errorNotification: false });
  // The columnar form, not the CSV, fetched by the analysis view in byte ranges.
  const fetchColumns = useColumnsFetcher(apiRoutes.dataLogs.columns(id));
  // The catalogue's computed channels, readable by every signed-in user.
  const { query: descriptors } = useCustom<{ data: LogComputedDescriptor[] }>({
    url: apiRoutes.dataLogs.computedDescriptors(),
    method: "get",
    errorNotification: false,
    queryOptions: { refetchOnWindowFocus: false },
  });
  const { mutate: update, mutation } = useUpdate<DataLogDetail>();

  // The server keeps the profile on the log's vehicle when it has one (PATCH /data-logs/{id}), else on the log.
  const vehicleName = useLogVehicles().nameOf(log?.vehicleId ?? null);
  const saveProfile = useCallback(
    (profile: DynoProfile) =>
      update({
        resource: "data-logs",
        id,
        values: { dynoProfile: profile },
        successNotification: () => ({
          type: "success",
          message: vehicleName ? `Profile kept with ${vehicleName}` : "Profile kept with the log",
        }),
      }),
    [update, id, vehicleName],
  );
  const keptWith = vehicleName
    ? `Kept with your vehicle ${vehicleName}: every log of it uses this profile.`
    : "Kept with this log only: file the log under one of your vehicles (Edit, on the list) to keep the profile with the car.";
  // Stable props: the analysis view re-renders on every zoom step, its side panels should not.
  const dyno = useMemo(
    () => ({ profile: log?.dynoProfile ?? null, save: saveProfile, saving: mutation.isPending, keptWith }),
    [log?.dynoProfile, saveProfile, mutation.isPending, keptWith],
  );
  const descriptorList = useMemo(() => descriptors.data?.data.data ?? [], [descriptors.data]);
  // The analysis view takes what the queries bring in a render of its own, sliced: the answer's own
  // render (synchronous) renders the header alone; the whole view rendered again in it before.
  const deferredDyno = useDeferredValue(dyno);
  const deferredDescriptors = useDeferredValue(descriptorList);

  const markerSource = useMemo(() => ({ logId: id }), [id]);

  // The other logs the user can read, newest first, to overlay on this one.
  const [compareState, setCompareState] = useCompareParam();
  const { result: others } = useList<DataLogSummary>({
    resource: "data-logs",
    sorters: [{ field: "createdAt", order: "desc" }],
    pagination: { pageSize: 100 },
    errorNotification: false,
  });
  const fetchFor = useColumnsFetchers(apiRoutes.dataLogs.columns);
  // What is overlaid, as the view places it, for a share link of the comparison.
  const [compared, setCompared] = useState<Array<{ id: string; title: string; offset: number }>>([]);
  // The panes on screen, and the layout they are: a share link can open with them.
  const [layout, setLayout] = useState<SharedLayout | null>(null);
  const compare = useMemo(
    () => ({
      candidates: (others?.data ?? []).filter((other) => other.id !== id).map(({ id, title }) => ({ id, title })),
      fetchFor,
      state: compareState,
      onState: setCompareState,
      onCompared: setCompared,
    }),
    [others?.data, id, fetchFor, compareState, setCompareState],
  );

  const missing = useRecordMissing(query.error);
  if (missing) return null;
  const charted = (panesParam ?? "").split(/[;,]/).filter(Boolean);
  return (
    // The layout background, as under every portal page: without it the dark theme showed the browser's black canvas around the cards.
    <Flex vertical style={{ minHeight: "100vh", background: token.colorBgLayout }}>
      <SlimHeader back="/tuning-tools/data-logs">
        <SlimTitle>{log?.title ?? "Data log"}</SlimTitle>
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
          <LogAnalysis
            fetchColumns={fetchColumns}
            panesParam={panesParam}
            onPanesParam={setPanes}
            dyno={deferredDyno}
            descriptors={deferredDescriptors}
            markers={markerSource}
            title={log?.title}
            compare={compare}
            onLayout={setLayout}
          />
        )}
      </Flex>
      {log && sharing && (
        <Suspense fallback={null}>
          <ShareDialog
            logId={log.id}
            title={log.title}
            channels={log.channels}
            initialChannels={charted}
            compared={compared}
            layout={layout}
            open
            onClose={() => setSharing(false)}
          />
        </Suspense>
      )}
    </Flex>
  );
}
