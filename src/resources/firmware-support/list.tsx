import { CheckCircleTwoTone, MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { getDefaultSortOrder } from "@refinedev/antd";
import { Button, Flex, Space, Table, Tag } from "antd";
import type { FirmwareSupportRow } from "../../../contracts/catalogue";
import { PageFrame } from "../../components/page-frame";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { choiceFilter, exactFilter } from "../../components/resource/column-filters";
import { ConfirmDelete } from "../../components/resource/delete-button";
import { RouteDrawer, useDrawerRoute } from "../../components/resource/drawer-route";
import { ListSearch } from "../../components/resource/list-search";
import { FirmwareForm } from "./form";
import { FirmwareSections } from "./section-tabs";
import { FirmwareShow } from "./show";
import { apiPaths } from "../../../contracts/api-paths";

export const FIRMWARE_PATH = "/admin/firmware-support";
export const yes = (value: boolean, label: string) =>
  value ? <CheckCircleTwoTone twoToneColor="#52c41a" aria-label={`${label}: yes`} /> : <MinusCircleOutlined style={{ opacity: 0.4 }} aria-label={`${label}: no`} />;

const bytes = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(n % (1024 * 1024) ? 2 : 0)} MiB` : `${(n / 1024).toFixed(0)} KiB`);

export function FirmwareSupportList() {
  const drawer = useDrawerRoute(FIRMWARE_PATH);
  const { tableProps, filters, setFilters, sorters } = useResourceTable<FirmwareSupportRow>("firmware-support", { field: "firmwareId", order: "asc" }, {
    meta: { apiPath: apiPaths["firmware-support"].list },
  });

  return (
    <PageFrame
      title="Firmware support"
      subtitle="One record per ECU software version: identify rules, checksums, definition, stock file and flashing"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={drawer.create}>
          New firmware
        </Button>
      }
    >
      <FirmwareSections />
      <Flex gap={8} wrap>
        <ListSearch filters={filters} setFilters={setFilters} placeholder="Search firmware id, family, manufacturer" />
      </Flex>
      <Table {...tableProps} rowKey="id" size="middle">
        <Table.Column
          dataIndex="firmwareId"
          title="Firmware id"
          sorter
          defaultSortOrder={getDefaultSortOrder("firmwareId", sorters)}
          render={(value: string, row: FirmwareSupportRow) => (
            <Button type="link" onClick={() => drawer.show(row.id)} style={{ padding: 0 }}>
              {value}
            </Button>
          )}
        />
        <Table.Column
          dataIndex="manufacturer"
          title="Manufacturer"
          sorter
          defaultSortOrder={getDefaultSortOrder("manufacturer", sorters)}
          {...exactFilter("manufacturer", "Manufacturer", filters)}
        />
        <Table.Column
          dataIndex="ecuFamily"
          title="ECU family"
          sorter
          {...exactFilter("ecuFamily", "ECU family", filters)}
        />
        <Table.Column dataIndex="imageSize" title="Image" sorter render={bytes} />
        <Table.Column dataIndex="hasDefinition" title="Definition" render={(v: boolean) => yes(v, "Definition")} />
        <Table.Column
          key="hasStockFile"
          dataIndex="stockFile"
          title="Stock file"
          {...choiceFilter("hasStockFile", "Stock file", filters, [
            { value: "true", label: "Uploaded" },
            { value: "false", label: "Missing" },
          ])}
          render={(file: FirmwareSupportRow["stockFile"]) => yes(file !== null, "Stock file")}
        />
        <Table.Column
          key="flashingEnabled"
          dataIndex={["flashing", "enabled"]}
          title="Flashing"
          render={(enabled: boolean) => (enabled ? <Tag color="green">enabled</Tag> : <Tag>off</Tag>)}
        />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, row: FirmwareSupportRow) => (
            <Space>
              <Button size="small" onClick={() => drawer.edit(row.id)}>
                Edit
              </Button>
              <ConfirmDelete resource="firmware-support" apiPath={apiPaths["firmware-support"].record} id={row.id} name={row.firmwareId} />
            </Space>
          )}
        />
      </Table>
      <RouteDrawer open={drawer.action === "create"} title="New firmware record" onClose={drawer.close} width={760}>
        <FirmwareForm onSaved={(record) => drawer.show(record.id)} />
      </RouteDrawer>
      <RouteDrawer open={drawer.action === "edit"} title="Edit firmware record" onClose={drawer.close} width={760}>
        {drawer.id && <FirmwareForm id={drawer.id} onSaved={(record) => drawer.show(record.id)} />}
      </RouteDrawer>
      <RouteDrawer open={drawer.action === "show"} title="Firmware record" onClose={drawer.close} width={760}>
        {drawer.id && <FirmwareShow id={drawer.id} onEdit={() => drawer.edit(drawer.id!)} />}
      </RouteDrawer>
    </PageFrame>
  );
}
