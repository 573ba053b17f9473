import { useCustom, useList, useOne, usePermissions } from "@refinedev/core";
import { Alert, Card, Flex, Select, Skeleton, Tag, Typography } from "antd";
import { memo, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { apiRoutes } from "../../../contracts/api-paths";
import type { FirmwareSupportRow } from "../../../contracts/firmware-support";
import type { Inspection, LocalInspection, TuneFile } from "../../../contracts/tune-files";
import { EmptyState, PageFrame } from "../../components/page-frame";
import { InspectedImage, InspectionReport } from "../../components/tune-inspection";
import { LocalImageView } from "./local-image";
import { StockFileView } from "./stock-file";
import { TuneMapsView } from "./tune-maps";

/** Metadata: all a buyer sees of a tune they may flash but not view, and the header for everyone else. */
const TuneSummary = memo(function TuneSummary({ tune }: { tune: TuneFile }) {
  return (
    <Card
      size="small"
      title={tune.title}
      extra={
        <Typography.Text type="secondary">
          Firmware {tune.firmwareId} · version {tune.currentVersion}
        </Typography.Text>
      }
    >
      <Flex vertical gap={8}>
        {tune.description && <Typography.Text>{tune.description}</Typography.Text>}
        <Flex gap={4} wrap>
          {tune.dealerName && <Tag>by {tune.dealerName}</Tag>}
          {tune.access.owner && <Tag color="blue">yours</Tag>}
          {tune.access.bought && <Tag color="green">bought</Tag>}
          {!tune.access.view && <Tag color="orange">flash only</Tag>}
        </Flex>
        {!tune.access.owner && !tune.access.bought && (
          <Alert type="info" showIcon message="Buy this tune to see its checksum report and maps." />
        )}
        {(tune.access.owner || tune.access.bought) && !tune.access.view && (
          <Alert
            type="info"
            showIcon
            message="The tune's author lets you flash this tune from the app, not view its maps."
          />
        )}
      </Flex>
    </Card>
  );
});

/** The checksum and patch report, below the maps: the maps are what a tuner opens the viewer for. */
// Memoised: choosing a map changes the URL, which renders this page again, and the report's tables need not follow.
const TuneReport = memo(function TuneReport({ tune }: { tune: TuneFile }) {
  const { query } = useCustom<Inspection>({
    url: apiRoutes.tuneFiles.inspection(tune.id),
    method: "get",
    queryOptions: { enabled: tune.access.owner || tune.access.bought },
  });
  const report = query.data?.data;
  if (!tune.access.owner && !tune.access.bought) return null;
  return (
    <Card size="small" title="Checksums and patches">
      {report ? <InspectionReport report={report} changesTable={false} /> : <Skeleton active paragraph={{ rows: 2 }} />}
    </Card>
  );
});

/** A local image: inspected on the server (firmware, checksums, changes), then its maps and bytes read in the browser. */
function LocalImage() {
  const [opened, setOpened] = useState<{ file: File; report: LocalInspection } | null>(null);
  const changed = useMemo(
    () => new Set(opened?.report.changes?.flatMap((range) => range.items.map((item) => item.id)) ?? []),
    [opened],
  );
  return (
    <>
      <Card size="small" title="Local image">
        <InspectedImage
          label="Inspect a local image"
          withDefinition
          onInspected={(file, report) => setOpened(report && { file, report })}
        />
      </Card>
      {opened && (
        <LocalImageView
          key={opened.report.sha256}
          file={opened.file}
          definition={opened.report.definition ?? null}
          changed={changed}
        />
      )}
    </>
  );
}

/** The picker's value for a firmware record's stock file, told from a tune file's id. */
const STOCK = "stock:";

export function TuneViewerPage() {
  const [params, setParams] = useSearchParams();
  const tuneId = params.get("tune");
  const { result, query } = useList<TuneFile>({
    resource: "tune-files",
    pagination: { pageSize: 100 },
    sorters: [{ field: "title", order: "asc" }],
  });
  // Fetched by id rather than found in the list, so a link to a tune beyond the first page opens too.
  const { result: tune, query: tuneQuery } = useOne<TuneFile>({
    resource: "tune-files",
    id: tuneId ?? "",
    queryOptions: { enabled: tuneId !== null },
  });
  const stockId = params.get("stock");
  // Admins also open a firmware record's stock file: the maps of a definition just imported, with no local copy.
  const { data: role } = usePermissions<string>({});
  const { result: records } = useList<FirmwareSupportRow>({
    resource: "firmware-support",
    pagination: { pageSize: 100 },
    filters: [{ field: "hasStockFile", operator: "eq", value: "true" }],
    sorters: [{ field: "firmwareId", order: "asc" }],
    queryOptions: { enabled: role === "admin" },
  });
  const open = (value: string) =>
    setParams(value.startsWith(STOCK) ? { stock: value.slice(STOCK.length) } : { tune: value });
  const tuneOptions = result.data.map((t) => ({
    value: t.id,
    label: `${t.title} · ${t.firmwareId}${t.access.owner ? " (yours)" : t.access.bought ? " (bought)" : ""}`,
  }));
  const stockOptions =
    role === "admin"
      ? records.data.map((r) => ({ value: `${STOCK}${r.id}`, label: `Stock file · ${r.firmwareId}` }))
      : [];

  return (
    <PageFrame
      title="Tune viewer"
      subtitle="Browse, compare and edit the maps of a tune file"
      extra={
        <Select
          showSearch
          optionFilterProp="label"
          style={{ minWidth: 320 }}
          placeholder="Open a tune file"
          aria-label="Tune file"
          loading={query.isLoading}
          value={stockId ? `${STOCK}${stockId}` : tune?.id}
          onChange={open}
          options={
            (stockOptions.length > 0
              ? [
                  { label: "Tune files", options: tuneOptions },
                  { label: "Firmware stock files", options: stockOptions },
                ]
              : tuneOptions) as Array<{ value?: string; label: string; options?: typeof tuneOptions }>
          }
        />
      }
    >
      {stockId ? (
        <StockFileView key={stockId} recordId={stockId} />
      ) : tuneQuery.isError ? (
        <Alert type="error" showIcon role="alert" message={tuneQuery.error.message} />
      ) : tune ? (
        <>
          <TuneSummary tune={tune} />
          {tune.access.view && <TuneMapsView tune={tune} />}
          <TuneReport tune={tune} />
        </>
      ) : tuneId ? (
        <Skeleton active />
      ) : (
        <>
          <EmptyState title="Open a tune file to see its maps">
            Pick one of your tune files, a bought one or one from a dealer's catalogue above to see its maps by category
            as tables and charts, its checksum report and a comparison with the stock file; or inspect a local image
            below to identify its firmware, check its checksums and see which maps it changes.
          </EmptyState>
          <LocalImage />
        </>
      )}
    </PageFrame>
  );
}
