import { getDefaultSortOrder } from "@refinedev/antd";
import { Table, Tag } from "antd";
import type { PidTemplate } from "../../../contracts/firmware-support";
import { exactFilter } from "../../components/resource/column-filters";
import { ListWithDrawers } from "../../components/resource/list-with-drawers";
import { PidTemplateForm } from "./form";
import { PidSections } from "./section-tabs";

const PATH = "/admin/pid-templates";

export function PidTemplatesList() {
  return (
    <ListWithDrawers<PidTemplate>
      resource="pid-templates"
      path={PATH}
      sort={{ field: "name", order: "asc" }}
      title="PID templates"
      subtitle="Ordered channel lists with a sample rate, per firmware or vehicle family"
      createLabel="New template"
      sections={<PidSections />}
      searchPlaceholder="Search name and vehicle family"
      tableLabel="PID templates"
      columns={({ filters, sorters }) => (
        <>
          <Table.Column dataIndex="name" title="Name" sorter defaultSortOrder={getDefaultSortOrder("name", sorters)} />
          <Table.Column dataIndex="descriptorIds" title="Channels" render={(ids: string[]) => ids.length} />
          <Table.Column dataIndex="sampleRateHz" title="Rate (Hz)" sorter />
          <Table.Column
            dataIndex="vehicleFamily"
            title="Vehicle family"
            sorter
            {...exactFilter("vehicleFamily", "Vehicle family", filters)}
          />
          <Table.Column
            dataIndex="firmwareIds"
            title="Firmware"
            {...exactFilter("firmwareIds", "Firmware id", filters)}
            render={(ids: string[]) => ids.map((id) => <Tag key={id}>{id}</Tag>)}
          />
        </>
      )}
      nameOf={(t) => t.name}
      form={{
        createTitle: "New PID template",
        editTitle: "Edit PID template",
        render: (id, drawer) => <PidTemplateForm id={id} onSaved={drawer.close} />,
      }}
    />
  );
}
