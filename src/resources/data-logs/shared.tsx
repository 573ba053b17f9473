import { useCustom, useDataProvider } from "@refinedev/core";
import { Alert, Flex, Result, Tag } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { apiRoutes } from "../../../contracts/api-paths";
import { parseSharedCompared, type ResolvedDataLogShare } from "../../../contracts/data-logs";
import { SlimHeader, SlimTitle } from "../../components/layouts/slim-header";
import { formatPanes } from "./analysis/channels";
import { useColumnsFetcher, useColumnsFetchers, usePanesParam } from "./analysis/hooks";
import { type CompareSource, LogAnalysis } from "./analysis/log-analysis";

/**
 * The logs a shared comparison carries (`?compare=token:offset,…`), each read through its own
 * share link, placed where the owner had them; and those whose link no longer works.
 */
function useSharedComparison(): { compare?: CompareSource; lost: number } {
  const [params] = useSearchParams();
  const param = params.get("compare");
  const logs = useMemo(() => parseSharedCompared(param), [param]);
  const dataProvider = useDataProvider();
  const [titles, setTitles] = useState<ReadonlyMap<string, string | null>>(new Map());
  useEffect(() => {
    for (const { token } of logs)
      dataProvider().custom!<ResolvedDataLogShare>({ url: apiRoutes.dataLogs.shared(token), method: "post" }).then(
        ({ data }) => setTitles((was) => new Map(was).set(token, data.log.title)),
        () => setTitles((was) => new Map(was).set(token, null)),
      );
  }, [logs, dataProvider]);
  const fetchFor = useColumnsFetchers(apiRoutes.dataLogs.sharedColumns);
  const working = logs.filter(({ token }) => titles.get(token));
  const key = working.map(({ token }) => token).join();
  const compare = useMemo<CompareSource | undefined>(
    () =>
      working.length
        ? {
            candidates: working.map(({ token }) => ({ id: token, title: titles.get(token)! })),
            fetchFor,
            state: {
              ids: working.map(({ token }) => token),
              align: "time",
              offsets: new Map(working.map(({ token, offset }) => [token, offset])),
            },
          }
        : undefined,
    [key, fetchFor],
  );
  return { compare, lost: logs.filter(({ token }) => titles.get(token) === null).length };
}

/**
 * A shared log, read-only, for anyone with the link (signed in or not). The channels come from
 * the URL (`?channels=a,b`, as datazap's links carry them); the viewer may rearrange them.
 */
export function SharedDataLogPage() {
  const { token = "" } = useParams();
  const { query } = useCustom<ResolvedDataLogShare>({
    url: apiRoutes.dataLogs.shared(token),
    method: "post",
    errorNotification: false,
    queryOptions: { retry: false, refetchOnWindowFocus: false },
  });
  const sharedLayout = query.data?.data.share.layout ?? null;
  // The panes the link's layout names, else the channels it names (datazap style), one pane each,
  // until the viewer rearranges them.
  const [panesParam, setPanes] = usePanesParam(
    (params) => (sharedLayout ? formatPanes(sharedLayout.panes) : params.get("channels")?.split(",").join(";")) || null,
  );
  const fetchColumns = useColumnsFetcher(apiRoutes.dataLogs.sharedColumns(token));
  const shared = query.data?.data;
  const markerSource = useMemo(() => ({ token }), [token]);
  const { compare, lost } = useSharedComparison();

  return (
    <Flex vertical style={{ minHeight: "100vh" }}>
      <SlimHeader back="/" home="/">
        {shared && (
          <>
            <SlimTitle testId="shared-title">{shared.log.title}</SlimTitle>
            <Tag>Shared · read only</Tag>
          </>
        )}
      </SlimHeader>
      <Flex vertical style={{ padding: 16, flex: 1, minHeight: 0 }}>
        {query.isError ? (
          <Result
            status="404"
            title="This link does not work"
            subTitle="It was revoked, it has expired, or it never existed. Ask the owner of the log for a new one."
          />
        ) : (
          <>
            {lost > 0 && (
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 12 }}
                message={`${lost === 1 ? "One log" : `${lost} logs`} of this comparison ${lost === 1 ? "is" : "are"} no longer shared: the others are shown.`}
              />
            )}
            <LogAnalysis
              fetchColumns={fetchColumns}
              panesParam={panesParam}
              onPanesParam={setPanes}
              readOnly
              markers={markerSource}
              title={shared?.log.title}
              compare={compare}
              sharedLayout={sharedLayout}
            />
          </>
        )}
      </Flex>
    </Flex>
  );
}
