import { DownloadOutlined, ImportOutlined, PlusOutlined } from "@ant-design/icons";
import { getDefaultSortOrder } from "@refinedev/antd";
import { useApiUrl } from "@refinedev/core";
import { Button, Drawer, Dropdown, Flex, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import type { PidDescriptor } from "../../../contracts/catalogue";
import { PageFrame } from "../../components/page-frame";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { choiceFilter, exactFilter } from "../../components/resource/column-filters";
import { ConfirmDelete } from "../../components/resource/delete-button";
import { RouteDrawer, useDrawerRoute } from "../../components/resource/drawer-route";
import { ListSearch } from "../../components/resource/list-search";
import { PidSections } from "../pid-templates/section-tabs";
import { PidDescriptorForm, sourceOptions } from "./form";
import { PidImport } from "./import";
import { apiPaths } from "../../../contracts/api-paths";

const PATH = "/admin/pid-templates/descriptors";

export function PidDescriptorsList() {
  const drawer = useDrawerRoute(PATH);
  const apiUrl = useApiUrl();
  const [importing, setImporting] = useState(false);
  const { tableProps, filters, setFilters, sorters } = useResourceTable<PidDescriptor>("pid-descriptors", { field: "name", order: "asc" }, {
    meta: { apiPath: apiPaths["pid-descriptors"].list },
  });
  const q = filters.find((f) => "field" in f && f.field === "q")?.value as string | undefined;
  const exportUrl = (format: string) => `${apiUrl}/firmware-support/pid-descriptors/export?${new URLSearchParams({ format, ...(q && { q }) })}`;
  return (
    <PageFrame
      title="PID templates"
      subtitle="Logging channels: what to request from the ECU and how to scale it"
      extra={
        <>
          <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
            Import CSV
          </Button>
          <Dropdown
            menu={{
              items: [
                { key: "vwflash", label: <a href={exportUrl("vwflash")}>VW_Flash CSV</a> },
                { key: "torque", label: <a href={exportUrl("torque")}>Torque CSV</a> },
              ],
            }}
          >
            <Button icon={<DownloadOutlined />}>Export</Button>
          </Dropdown>
          <Button type="primary" icon={<PlusOutlined />} onClick={drawer.create}>
            New descriptor
          </Button>
        </>
      }
    >
      <PidSections />
      <Flex gap={8}>
        <ListSearch filters={filters} setFilters={setFilters} placeholder="Search name, variable, unit" />
      </Flex>
      <Table {...tableProps} rowKey="id" size="middle" aria-label="PID descriptors">
        <Table.Column dataIndex="name" title="Name" sorter defaultSortOrder={getDefaultSortOrder("name", sorters)} />
        <Table.Column dataIndex="variable" title="Variable" sorter render={(v: string) => <Typography.Text code>{v}</Typography.Text>} {...exactFilter("variable", "Variable", filters)} />
        <Table.Column dataIndex="source" title="Source" sorter {...choiceFilter("source", "Source", filters, sourceOptions)} render={(s: string) => <Tag>{s}</Tag>} />
        <Table.Column dataIndex="address" title="Address" render={(a: string, p: PidDescriptor) => <Typography.Text code>{`${a} ×${p.length}`}</Typography.Text>} />
        <Table.Column dataIndex="expression" title="Scaling" />
        <Table.Column dataIndex="unit" title="Unit" sorter />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, p: PidDescriptor) => (
            <Space>
              <Button size="small" onClick={() => drawer.edit(p.id)}>
                Edit
              </Button>
              <ConfirmDelete resource="pid-descriptors" apiPath={apiPaths["pid-descriptors"].record} id={p.id} name={p.name} />
            </Space>
          )}
        />
      </Table>
      <RouteDrawer open={drawer.action === "create"} title="New PID descriptor" onClose={drawer.close}>
        <PidDescriptorForm onSaved={drawer.close} />
      </RouteDrawer>
      <RouteDrawer open={drawer.action === "edit"} title="Edit PID descriptor" onClose={drawer.close}>
        {drawer.id && <PidDescriptorForm id={drawer.id} onSaved={drawer.close} />}
      </RouteDrawer>
      <Drawer open={importing} title="Import PID descriptors" width={900} onClose={() => setImporting(false)} destroyOnHidden>
        <PidImport />
      </Drawer>
    </PageFrame>
  );
}
