import { PlusOutlined } from "@ant-design/icons";
import { getDefaultSortOrder } from "@refinedev/antd";
import { Button, Flex, Space, Table, Tabs, Tag } from "antd";
import { useState } from "react";
import type { TuneFilePatch } from "../../../contracts/tune-files";
import { PageFrame } from "../../components/page-frame";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { exactFilter } from "../../components/resource/column-filters";
import { ConfirmDelete } from "../../components/resource/delete-button";
import { RouteDrawer, useDrawerRoute } from "../../components/resource/drawer-route";
import { ListSearch } from "../../components/resource/list-search";
import { ApplyTool } from "./apply-tool";
import { PatchForm } from "./form";
import { PatchShow } from "./show";
import { apiPaths } from "../../../contracts/api-paths";

const PATCHES_PATH = "/admin/tune-file-patches";

export function TuneFilePatchesList() {
  const drawer = useDrawerRoute(PATCHES_PATH);
  const [tab, setTab] = useState("patches");
  const { tableProps, filters, setFilters, sorters } = useResourceTable<TuneFilePatch>("tune-file-patches", { field: "title", order: "asc" });

  return (
    <PageFrame
      title="Tune-file patches"
      subtitle="Byte patches per firmware: entries with the bytes they replace, checked against each firmware's stock file"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={drawer.create}>
          New patch
        </Button>
      }
    >
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: "patches",
            label: "Patches",
            children: (
              <Flex vertical gap={12}>
                <ListSearch filters={filters} setFilters={setFilters} placeholder="Search title and description" />
                <Table {...tableProps} rowKey="id" size="middle">
                  <Table.Column
                    dataIndex="title"
                    title="Title"
                    sorter
                    defaultSortOrder={getDefaultSortOrder("title", sorters)}
                    render={(value: string, row: TuneFilePatch) => (
                      <Button type="link" onClick={() => drawer.show(row.id)} style={{ padding: 0 }}>
                        {value}
                      </Button>
                    )}
                  />
                  <Table.Column
                    dataIndex="firmwareIds"
                    title="Firmware"
                    {...exactFilter("firmwareIds", "Firmware", filters)}
                    render={(ids: string[]) => ids.map((id) => <Tag key={id}>{id}</Tag>)}
                  />
                  <Table.Column key="entries" title="Entries" render={(_, row: TuneFilePatch) => row.entries.length} />
                  <Table.Column dataIndex="updatedAt" title="Updated" sorter render={(v: string) => new Date(v).toLocaleString()} />
                  <Table.Column
                    key="actions"
                    title="Actions"
                    render={(_, row: TuneFilePatch) => (
                      <Space>
                        <Button size="small" onClick={() => drawer.edit(row.id)}>
                          Edit
                        </Button>
                        <ConfirmDelete resource="tune-file-patches" apiPath={apiPaths["tune-file-patches"].record} id={row.id} name={row.title} />
                      </Space>
                    )}
                  />
                </Table>
              </Flex>
            ),
          },
          { key: "apply", label: "Apply tool", children: <ApplyTool /> },
        ]}
      />
      <RouteDrawer open={drawer.action === "create"} title="New patch" onClose={drawer.close} width={760}>
        <PatchForm onSaved={(saved) => drawer.show(saved.id)} />
      </RouteDrawer>
      <RouteDrawer open={drawer.action === "edit"} title="Edit patch" onClose={drawer.close} width={760}>
        {drawer.id && <PatchForm id={drawer.id} onSaved={(saved) => drawer.show(saved.id)} />}
      </RouteDrawer>
      <RouteDrawer open={drawer.action === "show"} title="Patch" onClose={drawer.close} width={760}>
        {drawer.id && <PatchShow id={drawer.id} onEdit={() => drawer.edit(drawer.id!)} />}
      </RouteDrawer>
    </PageFrame>
  );
}
