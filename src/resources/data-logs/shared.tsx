import { useCustom } from "@refinedev/core";
import { Flex, Result, Tag } from "antd";
import { useMemo } from "react";
import { useParams } from "react-router";
import { apiRoutes } from "../../../contracts/api-paths";
import type { ResolvedDataLogShare } from "../../../contracts/data-logs";
import { SlimHeader, SlimTitle } from "../../components/layouts/slim-header";
import { useColumnsFetcher, usePanesParam } from "./analysis/hooks";
import { LogAnalysis } from "./analysis/log-analysis";

/**
 * A shared log, read-only, for anyone with the link (signed in or not). The channels come from
 * the URL (`?channels=a,b`, as datazap's links carry them); the viewer may rearrange them.
 */
export function SharedDataLogPage() {
  const { token = "" } = useParams();
  // The channels a share link names (datazap style), one pane each, until the viewer rearranges them.
  const [panesParam, setPanes] = usePanesParam((params) => params.get("channels")?.split(",").join(";") || null);
  const { query } = useCustom<ResolvedDataLogShare>({
    url: apiRoutes.dataLogs.shared(token),
    method: "post",
    errorNotification: false,
    queryOptions: { retry: false, refetchOnWindowFocus: false },
  });
  const fetchColumns = useColumnsFetcher(apiRoutes.dataLogs.sharedColumns(token));
  const shared = query.data?.data;
  const markerSource = useMemo(() => ({ token }), [token]);

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
          <LogAnalysis
            fetchColumns={fetchColumns}
            panesParam={panesParam}
            onPanesParam={setPanes}
            readOnly
            markers={markerSource}
            title={shared?.log.title}
          />
        )}
      </Flex>
    </Flex>
  );
}
