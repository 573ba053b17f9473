import { FilterDropdown, getDefaultFilter, getDefaultSortOrder } from "@refinedev/antd";
import { InputNumber, Table, Tag } from "antd";
import type { SupportedVehicle } from "../../../contracts/firmware-support";
import { exactFilter } from "../../components/resource/column-filters";
import { ListWithDrawers } from "../../components/resource/list-with-drawers";
import { FirmwareSections } from "../firmware-support/section-tabs";
import { VehicleForm } from "./form";

const PATH = "/admin/firmware-support/vehicles";

export function SupportedVehiclesList() {
  return (
    <ListWithDrawers<SupportedVehicle>
      resource="supported-vehicles"
      path={PATH}
      sort={{ field: "make", order: "asc" }}
      title="Firmware support"
      subtitle="Vehicles the portal supports, and the firmware they run"
      createLabel="Add vehicle"
      sections={<FirmwareSections />}
      searchPlaceholder="Search make, model, engine, ECU"
      tableLabel="Supported vehicles"
      columns={({ filters, sorters }) => {
        const textFilter = (field: string, label: string) => exactFilter(field, label, filters);
        return (
          <>
            <Table.Column
              dataIndex="make"
              title="Make"
              sorter
              defaultSortOrder={getDefaultSortOrder("make", sorters)}
              {...textFilter("make", "Make")}
            />
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
            <Table.Column
              dataIndex="firmwareIds"
              title="Firmware"
              render={(ids: string[]) => ids.map((id) => <Tag key={id}>{id}</Tag>)}
              {...textFilter("firmwareIds", "Firmware id")}
            />
          </>
        );
      }}
      nameOf={(v) => `${v.make} ${v.model}`}
      form={{
        createTitle: "Add supported vehicle",
        editTitle: "Edit supported vehicle",
        render: (id, drawer) => <VehicleForm id={id} onSaved={drawer.close} />,
      }}
    />
  );
}
