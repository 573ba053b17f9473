/**
 * Firmware ids against what each has (definition, stock file, bootloader,
 * flashing, vehicles, PID templates, OBD functions), so the gaps show at a
 * glance; filterable like the records list.
 */
import { getDefaultFilter } from "@refinedev/antd";
import { Flex, Select, Table, Tag } from "antd";
import { apiPaths } from "../../../contracts/api-paths";
import type { FirmwareMatrixRow } from "../../../contracts/firmware-support";
import { PageFrame } from "../../components/page-frame";
import { ListSearch } from "../../components/resource/list-search";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { yes } from "../firmware-support/list";
import { FirmwareSections } from "../firmware-support/section-tabs";

const count = (n: number, label: string) =>
  n > 0 ? (
    <Tag color="blue">{n}</Tag>
  ) : (
    <Tag color="red" aria-label={`${label}: none`}>
      none
    </Tag>
  );

export function FirmwareMatrixList() {
  const { tableProps, filters, setFilters } = useResourceTable<FirmwareMatrixRow>(
    "firmware-matrix",
    { field: "firmwareId", order: "asc" },
    {
      meta: { apiPath: apiPaths["firmware-matrix"].list },
      pagination: { pageSize: 50 },
    },
  );
  const stockFilter = getDefaultFilter("hasStockFile", filters, "eq");
  return (
    <PageFrame title="Firmware support" subtitle="What each firmware has, and what it still lacks">
      <FirmwareSections />
      <Flex gap={8} wrap>
        <ListSearch filters={filters} setFilters={setFilters} placeholder="Search firmware id, family, manufacturer" />
        <Select
          aria-label="Stock file"
          allowClear
          placeholder="Stock file: any"
          style={{ width: 180 }}
          value={stockFilter === undefined ? undefined : String(stockFilter)}
          options={[
            { value: "true", label: "Stock file uploaded" },
            { value: "false", label: "Stock file missing" },
          ]}
          onChange={(value?: string) => setFilters([{ field: "hasStockFile", operator: "eq", value }], "merge")}
        />
      </Flex>
      <Table {...tableProps} rowKey="firmwareId" size="small" aria-label="Support matrix">
        <Table.Column dataIndex="firmwareId" title="Firmware id" sorter />
        <Table.Column dataIndex="manufacturer" title="Manufacturer" sorter />
        <Table.Column dataIndex="ecuFamily" title="ECU family" sorter />
        <Table.Column dataIndex="definition" title="Definition" render={(v: boolean) => yes(v, "Definition")} />
        <Table.Column dataIndex="stockFile" title="Stock file" render={(v: boolean) => yes(v, "Stock file")} />
        <Table.Column dataIndex="bootloader" title="Bootloader" render={(v: boolean) => yes(v, "Bootloader")} />
        <Table.Column dataIndex="flashing" title="Flashing" render={(v: boolean) => yes(v, "Flashing")} />
        <Table.Column dataIndex="vehicles" title="Vehicles" render={(n: number) => count(n, "Vehicles")} />
        <Table.Column
          dataIndex="pidTemplates"
          title="PID templates"
          render={(n: number) => count(n, "PID templates")}
        />
        <Table.Column
          dataIndex="obdFunctions"
          title="OBD functions"
          render={(n: number) => count(n, "OBD functions")}
        />
      </Table>
    </PageFrame>
  );
}
