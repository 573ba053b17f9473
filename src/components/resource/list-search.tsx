/**
 * The text search of a list (`q`, trigram-indexed on the server), kept with
 * the table's other filters so it lands in the URL with them.
 */
import type { CrudFilter } from "@refinedev/core";
import { Input } from "antd";

export function ListSearch({
  filters,
  setFilters,
  placeholder,
}: {
  filters: CrudFilter[];
  setFilters: (filters: CrudFilter[], behavior?: "merge" | "replace") => void;
  placeholder: string;
}) {
  const current = filters.find((filter) => "field" in filter && filter.field === "q");
  return (
    <Input.Search
      allowClear
      placeholder={placeholder}
      aria-label="Search"
      defaultValue={current?.value ? String(current.value) : ""}
      style={{ maxWidth: 360 }}
      onSearch={(value) => setFilters([{ field: "q", operator: "contains", value: value || undefined }], "merge")}
    />
  );
}
