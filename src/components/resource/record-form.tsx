/**
 * One component for create and edit: with an id it loads the record first,
 * then renders the form keyed by the record, so its default values are the
 * record's and not those of whatever was open before.
 */
import { type BaseRecord, useOne } from "@refinedev/core";
import { Select, type SelectProps, Skeleton } from "antd";
import type { ReactNode } from "react";
import { useRecordMissing } from "../record-not-found";

export function RecordForm<Row extends BaseRecord>({
  resource,
  apiPath,
  id,
  children,
}: {
  resource: string;
  apiPath: string;
  id?: string;
  children: (record: Row | undefined) => ReactNode;
}) {
  const { query, result } = useOne<Row>({
    resource,
    id: id ?? "",
    meta: { apiPath },
    queryOptions: { enabled: Boolean(id) },
  });
  const missing = useRecordMissing(query.error);
  if (missing) return null;
  if (id && (query.isLoading || !result)) return <Skeleton active />;
  return <div key={String(result?.id ?? "new")}>{children(id ? result : undefined)}</div>;
}

/** Free-form ids typed one after another (firmware ids): Enter, comma or space ends one. */
export function TagsInput(props: SelectProps<string[]>) {
  return <Select {...props} mode="tags" open={false} tokenSeparators={[",", " "]} />;
}
