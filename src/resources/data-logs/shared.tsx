import { useCustom } from "@refinedev/core";
import { Alert, Flex, Result, Spin, Tag, Typography } from "antd";
import { useParams, useSearchParams } from "react-router";
import type { ResolvedDataLogShare } from "../../../contracts/data-logs";
import { SlimHeader } from "../../components/layouts/slim-header";
import { LogAnalysis } from "./analysis/log-analysis";

/**
 * A shared log, read-only, for anyone with the link (signed in or not). The channels come from
 * the URL (`?channels=a,b`, as datazap's links carry them); the viewer may rearrange them.
 */
export function SharedDataLogPage() {
  const { token = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const { query } = useCustom<ResolvedDataLogShare>({
    url: `data-logs/shared/${token}`,
    method: "post",
    errorNotification: false,
    queryOptions: { retry: false, refetchOnWindowFocus: false },
  });
  const { query: columns } = useCustom<Blob>({
    url: `data-logs/shared/${token}/columns`,
    method: "get",
    meta: { responseType: "blob" },
    errorNotification: false,
    queryOptions: { gcTime: 0, staleTime: Infinity, retry: false, refetchOnWindowFocus: false, enabled: query.isSuccess },
  });
  const shared = query.data?.data;
  const panesParam = params.get("panes") ?? (params.get("channels")?.split(",").join(";") || null);
  const setPanes = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set("panes", value);
        return next;
      },
      { replace: true },
    );

  return (
    <Flex vertical style={{ minHeight: "100vh" }}>
      <SlimHeader back="/">
        {shared && (
          <>
            <Typography.Text strong ellipsis style={{ maxWidth: 480 }} data-testid="shared-title">
              {shared.log.title}
            </Typography.Text>
            <Tag>Shared · read only</Tag>
          </>
        )}
      </SlimHeader>
      <Flex vertical style={{ padding: 16, flex: 1, minHeight: 0 }}>
        {query.isError ? (
          <Result status="404" title="This link does not work" subTitle="It was revoked, it has expired, or it never existed. Ask the owner of the log for a new one." />
        ) : columns.isError ? (
          <Alert type="error" showIcon message="The log could not be loaded" description={columns.error?.message} />
        ) : !shared ? (
          <Flex justify="center" style={{ padding: 48 }}>
            <Spin size="large" />
          </Flex>
        ) : (
          <LogAnalysis channels={shared.log.channels} columns={columns.data?.data as Blob | undefined} panesParam={panesParam} onPanesParam={setPanes} readOnly />
        )}
      </Flex>
    </Flex>
  );
}
