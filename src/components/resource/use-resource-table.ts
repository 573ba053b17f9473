/**
 * A resource's list as every list page reads it: the server pages (20 rows),
 * sorts and filters, and the page, sort and filters live in the URL so a list
 * can be linked to and comes back as it was left.
 */
import { useTable, type useTableProps } from "@refinedev/antd";
import type { BaseRecord, CrudSort, HttpError } from "@refinedev/core";

export const LIST_PAGE_SIZE = 20;

export function useResourceTable<Row extends BaseRecord>(
  resource: string,
  initialSort: CrudSort,
  options: Omit<useTableProps<Row, HttpError, unknown, Row>, "resource" | "syncWithLocation" | "sorters"> = {},
) {
  return useTable<Row, HttpError, unknown, Row>({
    resource,
    syncWithLocation: true,
    pagination: { pageSize: LIST_PAGE_SIZE },
    sorters: { initial: [initialSort] },
    ...options,
  });
}
