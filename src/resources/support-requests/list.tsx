import { PlusOutlined } from "@ant-design/icons";
import { getDefaultSortOrder } from "@refinedev/antd";
import { Button, Table, Tag } from "antd";
import { apiRoutes } from "../../../contracts/api-paths";
import {
  type OwnSupportRequest,
  SUPPORT_REQUEST_STATUSES,
  type SupportRequestStatus,
} from "../../../contracts/firmware-support";
import { PageFrame } from "../../components/page-frame";
import { choiceFilter } from "../../components/resource/column-filters";
import { RouteDrawer, useDrawerRoute } from "../../components/resource/drawer-route";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { SupportRequestStatusTag } from "../../components/support-request-status";
import { SupportRequestForm } from "./form";
import { SupportRequestDetails } from "./show";

const PATH = "/vehicle-support";

export function SupportRequestsList() {
  const drawer = useDrawerRoute(PATH);
  const { tableProps, filters, sorters } = useResourceTable<OwnSupportRequest>(
    "support-requests",
    { field: "createdAt", order: "desc" },
    {
      meta: { apiPath: apiRoutes.supportRequests.mine() },
    },
  );
  const ask = (
    <Button type="primary" icon={<PlusOutlined />} onClick={drawer.create}>
      Ask for a vehicle
    </Button>
  );
  return (
    <PageFrame
      title="Vehicle support"
      subtitle="Vehicles you asked us to support, and where each request stands"
      extra={ask}
    >
      <Table
        {...tableProps}
        rowKey="id"
        size="middle"
        aria-label="Your support requests"
        locale={{
          emptyText: "You have not asked for a vehicle yet. If yours is not in the supported list, ask for it here.",
        }}
      >
        <Table.Column
          dataIndex="createdAt"
          title="Asked"
          sorter
          defaultSortOrder={getDefaultSortOrder("createdAt", sorters)}
          render={(at: string, r: OwnSupportRequest) => (
            <Button
              type="link"
              style={{ padding: 0 }}
              onClick={() => drawer.show(r.id)}
              aria-label={`Open the request for ${r.make} ${r.model} (${r.vin})`}
            >
              {new Date(at).toLocaleDateString()}
            </Button>
          )}
        />
        <Table.Column
          key="vehicle"
          title="Vehicle"
          render={(_, r: OwnSupportRequest) => `${r.make} ${r.model} (${r.year})`}
        />
        <Table.Column dataIndex="vin" title="VIN" />
        <Table.Column
          dataIndex="ecuIds"
          title="ECU ids"
          render={(ids: string[]) => ids.map((id) => <Tag key={id}>{id}</Tag>)}
        />
        <Table.Column
          dataIndex="status"
          title="Status"
          sorter
          {...choiceFilter(
            "status",
            "Status",
            filters,
            SUPPORT_REQUEST_STATUSES.map((s) => ({ value: s, label: s })),
          )}
          render={(s: SupportRequestStatus) => <SupportRequestStatusTag status={s} />}
        />
        <Table.Column dataIndex="firmwareId" title="Firmware" render={(id: string | null) => id ?? "—"} />
      </Table>
      <RouteDrawer open={drawer.action === "create"} title="Ask us to support your vehicle" onClose={drawer.close}>
        <SupportRequestForm onSaved={drawer.close} />
      </RouteDrawer>
      <RouteDrawer open={drawer.action === "show"} title="Support request" onClose={drawer.close}>
        {drawer.id && <SupportRequestDetails id={drawer.id} />}
      </RouteDrawer>
    </PageFrame>
  );
}
