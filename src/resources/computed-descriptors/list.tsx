import { PlusOutlined } from "@ant-design/icons";
import { getDefaultSortOrder } from "@refinedev/antd";
import { Button, Flex, Space, Table, Typography } from "antd";
import type { ComputedDescriptor } from "../../../contracts/catalogue";
import { PageFrame } from "../../components/page-frame";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { exactFilter } from "../../components/resource/column-filters";
import { ConfirmDelete } from "../../components/resource/delete-button";
import { RouteDrawer, useDrawerRoute } from "../../components/resource/drawer-route";
import { ListSearch } from "../../components/resource/list-search";
import { ComputedDescriptorForm } from "./form";
import { apiPaths } from "../../../contracts/api-paths";

const PATH = "/admin/computed-descriptors";

export function ComputedDescriptorsList() {
  const drawer = useDrawerRoute(PATH);
  const { tableProps, filters, setFilters, sorters } = useResourceTable<ComputedDescriptor>("computed-descriptors", { field: "name", order: "asc" }, {
    meta: { apiPath: apiPaths["computed-descriptors"].list },
  });
  return (
    <PageFrame
      title="Computed descriptors"
      subtitle="Derived log channels: an expression over other channels"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={drawer.create}>
          New computed descriptor
        </Button>
      }
    >
      <Flex gap={8}>
        <ListSearch filters={filters} setFilters={setFilters} placeholder="Search name, variable, expression" />
      </Flex>
      <Table {...tableProps} rowKey="id" size="middle" aria-label="Computed descriptors">
        <Table.Column dataIndex="name" title="Name" sorter defaultSortOrder={getDefaultSortOrder("name", sorters)} />
        <Table.Column dataIndex="variable" title="Variable" sorter render={(v: string) => <Typography.Text code>{v}</Typography.Text>} />
        <Table.Column dataIndex="expression" title="Expression" render={(e: string) => <Typography.Text code>{e}</Typography.Text>} />
        <Table.Column dataIndex="unit" title="Unit" sorter />
        <Table.Column dataIndex="variables" title="Reads" {...exactFilter("variables", "Channel", filters)} render={(vs: string[]) => vs.join(", ")} />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, c: ComputedDescriptor) => (
            <Space>
              <Button size="small" onClick={() => drawer.edit(c.id)}>
                Edit
              </Button>
              <ConfirmDelete resource="computed-descriptors" apiPath={apiPaths["computed-descriptors"].record} id={c.id} name={c.name} />
            </Space>
          )}
        />
      </Table>
      <RouteDrawer open={drawer.action === "create"} title="New computed descriptor" onClose={drawer.close} width={760}>
        <ComputedDescriptorForm onSaved={drawer.close} />
      </RouteDrawer>
      <RouteDrawer open={drawer.action === "edit"} title="Edit computed descriptor" onClose={drawer.close} width={760}>
        {drawer.id && <ComputedDescriptorForm id={drawer.id} onSaved={drawer.close} />}
      </RouteDrawer>
    </PageFrame>
  );
}
