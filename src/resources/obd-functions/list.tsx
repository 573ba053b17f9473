import { PlusOutlined } from "@ant-design/icons";
import { getDefaultSortOrder } from "@refinedev/antd";
import { Button, Flex, Space, Table, Tag, Typography } from "antd";
import type { ObdFunction } from "../../../contracts/catalogue";
import { PageFrame } from "../../components/page-frame";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { choiceFilter, exactFilter } from "../../components/resource/column-filters";
import { ConfirmDelete } from "../../components/resource/delete-button";
import { RouteDrawer, useDrawerRoute } from "../../components/resource/drawer-route";
import { ListSearch } from "../../components/resource/list-search";
import { ObdFunctionForm, categoryOptions, safetyOptions } from "./form";
import { apiPaths } from "../../../contracts/api-paths";

const PATH = "/admin/obd-functions";
const safetyColour = { none: "default", caution: "orange", dangerous: "red" } as const;

export function ObdFunctionsList() {
  const drawer = useDrawerRoute(PATH);
  const { tableProps, filters, setFilters, sorters } = useResourceTable<ObdFunction>("obd-functions", { field: "name", order: "asc" }, {
    meta: { apiPath: apiPaths["obd-functions"].list },
  });
  return (
    <PageFrame
      title="OBD functions"
      subtitle="Diagnostic functions the app offers: read and clear codes, adaptations, service functions"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={drawer.create}>
          New function
        </Button>
      }
    >
      <Flex gap={8}>
        <ListSearch filters={filters} setFilters={setFilters} placeholder="Search name and description" />
      </Flex>
      <Table {...tableProps} rowKey="id" size="middle" aria-label="OBD functions">
        <Table.Column dataIndex="name" title="Name" sorter defaultSortOrder={getDefaultSortOrder("name", sorters)} />
        <Table.Column dataIndex="category" title="Category" sorter {...choiceFilter("category", "Category", filters, categoryOptions)} />
        <Table.Column dataIndex="request" title="Request" render={(hex: string) => <Typography.Text code>{hex}</Typography.Text>} />
        <Table.Column
          dataIndex="safetyLevel"
          title="Safety"
          sorter
          {...choiceFilter("safetyLevel", "Safety level", filters, safetyOptions)}
          render={(level: ObdFunction["safetyLevel"]) => <Tag color={safetyColour[level]}>{level}</Tag>}
        />
        <Table.Column
          dataIndex="firmwareIds"
          title="Firmware"
          {...exactFilter("firmwareIds", "Firmware id", filters)}
          render={(ids: string[]) => (ids.length ? ids.map((id) => <Tag key={id}>{id}</Tag>) : <Typography.Text type="secondary">all</Typography.Text>)}
        />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, fn: ObdFunction) => (
            <Space>
              <Button size="small" onClick={() => drawer.edit(fn.id)}>
                Edit
              </Button>
              <ConfirmDelete resource="obd-functions" apiPath={apiPaths["obd-functions"].record} id={fn.id} name={fn.name} />
            </Space>
          )}
        />
      </Table>
      <RouteDrawer open={drawer.action === "create"} title="New OBD function" onClose={drawer.close}>
        <ObdFunctionForm onSaved={drawer.close} />
      </RouteDrawer>
      <RouteDrawer open={drawer.action === "edit"} title="Edit OBD function" onClose={drawer.close}>
        {drawer.id && <ObdFunctionForm id={drawer.id} onSaved={drawer.close} />}
      </RouteDrawer>
    </PageFrame>
  );
}
