/**
 * Column filter dropdowns for useTable lists. antd hands a column's filter
 * value as a list, which Refine sends as `field[in]=…`: exact matches on the
 * server, so these offer exact values; free text goes through the list search.
 */
import { FilterDropdown, getDefaultFilter } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { Input, Select } from "antd";
import type { FilterDropdownProps } from "antd/es/table/interface";

export function exactFilter(field: string, label: string, filters: CrudFilter[]) {
  return {
    defaultFilteredValue: getDefaultFilter(field, filters, "in"),
    filterDropdown: (props: FilterDropdownProps) => (
      <FilterDropdown {...props}>
        <Input placeholder={`Exact ${label.toLowerCase()}`} aria-label={`${label} filter`} />
      </FilterDropdown>
    ),
  };
}

export function choiceFilter(
  field: string,
  label: string,
  filters: CrudFilter[],
  options: ReadonlyArray<{ value: string; label: string }>,
) {
  return {
    defaultFilteredValue: getDefaultFilter(field, filters, "in"),
    filterDropdown: (props: FilterDropdownProps) => (
      <FilterDropdown {...props}>
        <Select
          mode="multiple"
          style={{ minWidth: 200 }}
          placeholder={`Any ${label.toLowerCase()}`}
          aria-label={`${label} filter`}
          options={[...options]}
        />
      </FilterDropdown>
    ),
  };
}
