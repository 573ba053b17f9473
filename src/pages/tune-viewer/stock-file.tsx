import { useDataProvider, useOne } from "@refinedev/core";
import { useQuery } from "@tanstack/react-query";
import { Alert, Card, Skeleton } from "antd";
import { useMemo } from "react";
import { apiPaths } from "../../../contracts/api-paths";
import type { FirmwareSupport } from "../../../contracts/firmware-support";
import { fetchImage } from "./image-bytes";
import { LocalImageView } from "./local-image";

const NOTHING_CHANGED: ReadonlySet<string> = new Set();

/**
 * A firmware record's own stock file with its definition, for admins: the maps just imported can
 * be looked at without a copy of the read on the admin's machine.
 */
export function StockFileView({ recordId }: { recordId: string }) {
  const dataProvider = useDataProvider();
  const { result: record, query } = useOne<FirmwareSupport>({
    resource: "firmware-support",
    id: recordId,
    meta: { apiPath: apiPaths["firmware-support"].record },
  });
  const bytes = useQuery({
    queryKey: ["firmware-stock-file", recordId, record?.stockFile?.sha256],
    queryFn: () => fetchImage(dataProvider, `${apiPaths["firmware-support"].list}/stock-file/${recordId}`),
    enabled: Boolean(record?.stockFile),
    staleTime: Infinity,
    gcTime: 30_000,
  });
  const file = useMemo(
    () =>
      bytes.data && record ? new File([bytes.data as Uint8Array<ArrayBuffer>], `${record.firmwareId}-stock.bin`) : null,
    [bytes.data, record],
  );
  const error = query.error ?? bytes.error;
  if (error) return <Alert type="error" showIcon role="alert" message={error.message} />;
  if (record && !record.stockFile)
    return <Alert type="info" showIcon message={`${record.firmwareId} has no stock file yet.`} />;
  if (!record || !file) return <Skeleton active />;
  return (
    <>
      <Card size="small" title={`Stock file of ${record.firmwareId}`}>
        {record.definition
          ? `${record.definition.items.length} maps from the record's definition.`
          : "The record has no definition yet: only its bytes can be shown."}
      </Card>
      <LocalImageView
        key={record.stockFile?.sha256}
        file={file}
        definition={record.definition}
        changed={NOTHING_CHANGED}
      />
    </>
  );
}
