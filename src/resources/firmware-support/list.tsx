import { CheckCircleTwoTone, MinusCircleOutlined } from "@ant-design/icons";
import { getDefaultSortOrder } from "@refinedev/antd";
import { Button, Table, Tag } from "antd";
import type { FirmwareSupportRow } from "../../../contracts/firmware-support";
import { choiceFilter, exactFilter } from "../../components/resource/column-filters";
import { ListWithDrawers } from "../../components/resource/list-with-drawers";
import { FirmwareForm } from "./form";
import { FirmwareSections } from "./section-tabs";
import { FirmwareShow } from "./show";

export const FIRMWARE_PATH = "/admin/firmware-support";
export const yes = (value: boolean, label: string) =>
  value ? (
    <CheckCircleTwoTone twoToneColor="#52c41a" aria-label={`${label}: yes`} />
  ) : (
    <MinusCircleOutlined style={{ opacity: 0.4 }} aria-label={`${label}: no`} />
  );

const bytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(n % (1024 * 1024) ? 2 : 0)} MiB` : `${(n / 1024).toFixed(0)} KiB`;

export function FirmwareSupportList() {
  return (
    <ListWithDrawers<FirmwareSupportRow>
      resource="firmware-support"
      path={FIRMWARE_PATH}
      sort={{ field: "firmwareId", order: "asc" }}
      title="Firmware support"
      subtitle="One record per ECU software version: identify rules, checksums, definition, stock file and flashing"
      createLabel="New firmware"
      sections={<FirmwareSections />}
      searchPlaceholder="Search firmware id, family, manufacturer"
      searchWrap
      columns={({ filters, sorters, drawer }) => (
        <>
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
        </>
      )}
      nameOf={(row) => row.firmwareId}
      drawerWidth={760}
      form={{
        createTitle: "New firmware record",
        editTitle: "Edit firmware record",
        render: (id, drawer) => <FirmwareForm id={id} onSaved={(record) => drawer.show(record.id)} />,
      }}
      show={{
        title: "Firmware record",
        render: (id, drawer) => <FirmwareShow id={id} onEdit={() => drawer.edit(id)} />,
      }}
    />
  );
}
