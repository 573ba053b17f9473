import { PlusOutlined } from "@ant-design/icons";
import { FilterDropdown, getDefaultFilter, getDefaultSortOrder } from "@refinedev/antd";
import { Button, Flex, InputNumber, Space, Table, Tag } from "antd";
import type { SupportedVehicle } from "../../../contracts/catalogue";
import { PageFrame } from "../../components/page-frame";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { exactFilter } from "../../components/resource/column-filters";
import { ConfirmDelete } from "../../components/resource/delete-button";
import { RouteDrawer, useDrawerRoute } from "../../components/resource/drawer-route";
import { ListSearch } from "../../components/resource/list-search";
import { FirmwareSections } from "../firmware-support/section-tabs";
import { VehicleForm } from "./form";
import { apiPaths } from "../../../contracts/api-paths";

const PATH = "/admin/firmware-support/vehicles";

export function SupportedVehiclesList() {
  const drawer = useDrawerRoute(PATH);
  const { tableProps, filters, setFilters, sorters } = useResourceTable<SupportedVehicle>("supported-vehicles", { field: "make", order: "asc" }, {
    meta: { apiPath: apiPaths["supported-vehicles"].list },
  });
  const textFilter = (field: string, label: string) => exactFilter(field, label, filters);
  return (
    <PageFrame
      title="Firmware support"
      subtitle="Vehicles the portal supports, and the firmware they run"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={drawer.create}>
          Add vehicle
        </Button>
      }
    >
      <FirmwareSections />
      <Flex gap={8}>
        <ListSearch filters={filters} setFilters={setFilters} placeholder="Search make, model, engine, ECU" />
      </Flex>
      <Table {...tableProps} rowKey="id" size="middle" aria-label="Supported vehicles">
        <Table.Column dataIndex="make" title="Make" sorter defaultSortOrder={getDefaultSortOrder("make", sorters)} {...textFilter("make", "Make")} />
        <Table.Column dataIndex="model" title="Model" sorter {...textFilter("model", "Model")} />
        <Table.Column dataIndex="generation" title="Generation" />
        <Table.Column dataIndex="engine" title="Engine" sorter {...textFilter("engine", "Engine")} />
        <Table.Column
          dataIndex="yearFrom"
          title="Years"
          sorter
          defaultFilteredValue={getDefaultFilter("yearFrom", filters, "gte")}
          filterDropdown={(props) => (
            <FilterDropdown {...props}>
              <InputNumber placeholder="From year" aria-label="From year filter" />
            </FilterDropdown>
          )}
          render={(_, v: SupportedVehicle) => `${v.yearFrom}–${v.yearTo ?? ""}`}
        />
        <Table.Column dataIndex="ecu" title="ECU" {...textFilter("ecu", "ECU")} />
        <Table.Column dataIndex="firmwareIds" title="Firmware" render={(ids: string[]) => ids.map((id) => <Tag key={id}>{id}</Tag>)} {...textFilter("firmwareIds", "Firmware id")} />
        <Table.Column
          key="actions"
          title="Actions"
          render={(_, v: SupportedVehicle) => (
            <Space>
              <Button size="small" onClick={() => drawer.edit(v.id)}>
                Edit
              </Button>
              <ConfirmDelete resource="supported-vehicles" apiPath={apiPaths["supported-vehicles"].record} id={v.id} name={`${v.make} ${v.model}`} />
            </Space>
          )}
        />
      </Table>
      <RouteDrawer open={drawer.action === "create"} title="Add supported vehicle" onClose={drawer.close}>
        <VehicleForm onSaved={drawer.close} />
      </RouteDrawer>
      <RouteDrawer open={drawer.action === "edit"} title="Edit supported vehicle" onClose={drawer.close}>
        {drawer.id && <VehicleForm id={drawer.id} onSaved={drawer.close} />}
      </RouteDrawer>
    </PageFrame>
  );
}
