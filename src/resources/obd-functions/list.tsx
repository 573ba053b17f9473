import { getDefaultSortOrder } from "@refinedev/antd";
import { Table, Tag, Typography } from "antd";
import type { ObdFunction } from "../../../contracts/firmware-support";
import { choiceFilter, exactFilter } from "../../components/resource/column-filters";
import { ListWithDrawers } from "../../components/resource/list-with-drawers";
import { categoryOptions, ObdFunctionForm, safetyOptions } from "./form";

const PATH = "/admin/obd-functions";
const safetyColour = { none: "default", caution: "orange", dangerous: "red" } as const;

export function ObdFunctionsList() {
  return (
    <ListWithDrawers<ObdFunction>
      resource="obd-functions"
      path={PATH}
      sort={{ field: "name", order: "asc" }}
      title="OBD functions"
      subtitle="Diagnostic functions the app offers: read and clear codes, adaptations, service functions"
      createLabel="New function"
      searchPlaceholder="Search name and description"
      tableLabel="OBD functions"
      columns={({ filters, sorters }) => (
        <>
          <Table.Column dataIndex="name" title="Name" sorter defaultSortOrder={getDefaultSortOrder("name", sorters)} />
          <Table.Column
            dataIndex="category"
            title="Category"
            sorter
            {...choiceFilter("category", "Category", filters, categoryOptions)}
          />
          <Table.Column
            dataIndex="request"
            title="Request"
            render={(hex: string) => <Typography.Text code>{hex}</Typography.Text>}
          />
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
            render={(ids: string[]) =>
              ids.length ? (
                ids.map((id) => <Tag key={id}>{id}</Tag>)
              ) : (
                <Typography.Text type="secondary">all</Typography.Text>
              )
            }
          />
        </>
      )}
      nameOf={(fn) => fn.name}
      form={{
        createTitle: "New OBD function",
        editTitle: "Edit OBD function",
        render: (id, drawer) => <ObdFunctionForm id={id} onSaved={drawer.close} />,
      }}
    />
  );
}
