import { getDefaultSortOrder } from "@refinedev/antd";
import { Table, Typography } from "antd";
import type { ComputedDescriptor } from "../../../contracts/firmware-support";
import { exactFilter } from "../../components/resource/column-filters";
import { ListWithDrawers } from "../../components/resource/list-with-drawers";
import { ComputedDescriptorForm } from "./form";

const PATH = "/admin/computed-descriptors";

export function ComputedDescriptorsList() {
  return (
    <ListWithDrawers<ComputedDescriptor>
      resource="computed-descriptors"
      path={PATH}
      sort={{ field: "name", order: "asc" }}
      title="Computed descriptors"
      subtitle="Derived log channels: an expression over other channels"
      createLabel="New computed descriptor"
      searchPlaceholder="Search name, variable, expression"
      tableLabel="Computed descriptors"
      columns={({ filters, sorters }) => (
        <>
          <Table.Column dataIndex="name" title="Name" sorter defaultSortOrder={getDefaultSortOrder("name", sorters)} />
          <Table.Column
            dataIndex="variable"
            title="Variable"
            sorter
            render={(v: string) => <Typography.Text code>{v}</Typography.Text>}
          />
          <Table.Column
            dataIndex="expression"
            title="Expression"
            render={(e: string) => <Typography.Text code>{e}</Typography.Text>}
          />
          <Table.Column dataIndex="unit" title="Unit" sorter />
          <Table.Column
            dataIndex="variables"
            title="Reads"
            {...exactFilter("variables", "Channel", filters)}
            render={(vs: string[]) => vs.join(", ")}
          />
        </>
      )}
      nameOf={(c) => c.name}
      drawerWidth={760}
      form={{
        createTitle: "New computed descriptor",
        editTitle: "Edit computed descriptor",
        render: (id, drawer) => <ComputedDescriptorForm id={id} onSaved={drawer.close} />,
      }}
    />
  );
}
