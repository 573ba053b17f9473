import { DownloadOutlined, ImportOutlined } from "@ant-design/icons";
import { getDefaultSortOrder } from "@refinedev/antd";
import { type CrudFilter, useApiUrl } from "@refinedev/core";
import { Button, Drawer, Dropdown, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { apiPaths } from "../../../contracts/api-paths";
import type { PidDescriptor } from "../../../contracts/firmware-support";
import { choiceFilter, exactFilter } from "../../components/resource/column-filters";
import { ListWithDrawers } from "../../components/resource/list-with-drawers";
import { PidSections } from "../pid-templates/section-tabs";
import { PidDescriptorForm, sourceOptions } from "./form";
import { PidImport } from "./import";

const PATH = "/admin/pid-templates/descriptors";

export function PidDescriptorsList() {
  const apiUrl = useApiUrl();
  const [importing, setImporting] = useState(false);
  const exportUrl = (filters: CrudFilter[], format: string) => {
    const q = filters.find((f) => "field" in f && f.field === "q")?.value as string | undefined;
    return `${apiUrl}/${apiPaths["pid-descriptors"].list}/export?${new URLSearchParams({ format, ...(q && { q }) })}`;
  };
  return (
    <ListWithDrawers<PidDescriptor>
      resource="pid-descriptors"
      path={PATH}
      sort={{ field: "name", order: "asc" }}
      title="PID templates"
      subtitle="Logging channels: what to request from the ECU and how to scale it"
      createLabel="New descriptor"
      extra={({ filters }) => (
        <>
          <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
            Import CSV
          </Button>
          <Dropdown
            menu={{
              items: [
                { key: "vwflash", label: <a href={exportUrl(filters, "vwflash")}>VW_Flash CSV</a> },
                { key: "torque", label: <a href={exportUrl(filters, "torque")}>Torque CSV</a> },
              ],
            }}
          >
            <Button icon={<DownloadOutlined />}>Export</Button>
          </Dropdown>
        </>
      )}
      sections={<PidSections />}
      searchPlaceholder="Search name, variable, unit"
      tableLabel="PID descriptors"
      columns={({ filters, sorters }) => (
        <>
          <Table.Column dataIndex="name" title="Name" sorter defaultSortOrder={getDefaultSortOrder("name", sorters)} />
          <Table.Column
            dataIndex="variable"
            title="Variable"
            sorter
            render={(v: string) => <Typography.Text code>{v}</Typography.Text>}
            {...exactFilter("variable", "Variable", filters)}
          />
          <Table.Column
            dataIndex="source"
            title="Source"
            sorter
            {...choiceFilter("source", "Source", filters, sourceOptions)}
            render={(s: string) => <Tag>{s}</Tag>}
          />
          <Table.Column
            dataIndex="address"
            title="Address"
            render={(a: string, p: PidDescriptor) => <Typography.Text code>{`${a} ×${p.length}`}</Typography.Text>}
          />
          <Table.Column dataIndex="expression" title="Scaling" />
          <Table.Column dataIndex="unit" title="Unit" sorter />
        </>
      )}
      nameOf={(p) => p.name}
      form={{
        createTitle: "New PID descriptor",
        editTitle: "Edit PID descriptor",
        render: (id, drawer) => <PidDescriptorForm id={id} onSaved={drawer.close} />,
      }}
    >
      <Drawer
        open={importing}
        title="Import PID descriptors"
        width={900}
        onClose={() => setImporting(false)}
        destroyOnHidden
      >
        <PidImport />
      </Drawer>
    </ListWithDrawers>
  );
}
