import { PlusOutlined } from "@ant-design/icons";
import { getDefaultSortOrder } from "@refinedev/antd";
import { Button, Flex, Space, Table, Tag } from "antd";
import type { PidTemplate } from "../../../contracts/catalogue";
import { PageFrame } from "../../components/page-frame";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { exactFilter } from "../../components/resource/column-filters";
import { ConfirmDelete } from "../../components/resource/delete-button";
import { RouteDrawer, useDrawerRoute } from "../../components/resource/drawer-route";
import { ListSearch } from "../../components/resource/list-search";
import { PidTemplateForm } from "./form";
import { PidSections } from "./section-tabs";
import { apiPaths } from "../../../contracts/api-paths";

const PATH = "/admin/pid-templates";

export function PidTemplatesList() {
  const drawer = useDrawerRoute(PATH);
  const { tableProps, filters, setFilters, sorters } = useResourceTable<PidTemplate>("pid-templates", { field: "name", order: "asc" }, {
    meta: { apiPath: apiPaths["pid-templates"].list },
  });
  return (
    <PageFrame
      title="PID templates"
      subtitle="Ordered channel lists with a sample rate, per firmware or vehicle family"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={drawer.create}>
          New template
        </Button>
      }
    >
      <PidSections />
      <Flex gap={8}>
        <ListSearch filters={filters} setFilters={setFilters} placeholder="Search name and vehicle family" />
      </Flex>
      <Table {...tableProps} rowKey="id" size="middle" aria-label="PID templates">
        <Table.Column dataIndex="name" title="Name" sorter defaultSortOrder={getDefaultSortOrder("name", sorters)} />
        <Table.Column dataIndex="descriptorIds" title="Channels" render={(ids: string[]) => ids.length} />
        <Table.Column dataIndex="sampleRateHz" title="Rate (Hz)" sorter />
        <Table.Column dataIndex="vehicleFamily" title="Vehicle family" sorter {...exactFilter("vehicleFamily", "Vehicle family", filters)} />
        <Table.Column dataIndex="firmwareIds" title="Firmware" {...exactFilter("firmwareIds", "Firmware id", filters)} render={(ids: string[]) => ids.map((id) => <Tag key={id}>{id}</Tag>)} />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, t: PidTemplate) => (
            <Space>
              <Button size="small" onClick={() => drawer.edit(t.id)}>
                Edit
              </Button>
              <ConfirmDelete resource="pid-templates" apiPath={apiPaths["pid-templates"].record} id={t.id} name={t.name} />
            </Space>
          )}
        />
      </Table>
      <RouteDrawer open={drawer.action === "create"} title="New PID template" onClose={drawer.close}>
        <PidTemplateForm onSaved={drawer.close} />
      </RouteDrawer>
      <RouteDrawer open={drawer.action === "edit"} title="Edit PID template" onClose={drawer.close}>
        {drawer.id && <PidTemplateForm id={drawer.id} onSaved={drawer.close} />}
      </RouteDrawer>
    </PageFrame>
  );
}
