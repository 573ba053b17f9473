import { getDefaultSortOrder } from "@refinedev/antd";
import { Button, Flex, Table } from "antd";
import { apiPaths } from "../../../contracts/api-paths";
import {
  SUPPORT_REQUEST_STATUSES,
  type SupportRequest,
  type SupportRequestStatus,
} from "../../../contracts/firmware-support";
import { PageFrame } from "../../components/page-frame";
import { choiceFilter, exactFilter } from "../../components/resource/column-filters";
import { RouteDrawer, useDrawerRoute } from "../../components/resource/drawer-route";
import { ListSearch } from "../../components/resource/list-search";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { SupportRequestStatusTag } from "../../components/support-request-status";
import { AdminSupportRequestShow } from "./admin-show";

const PATH = "/admin/onboarding-vehicles";

/** The admins' queue of support requests, at the spec's /admin/onboarding-vehicles. */
export function AdminSupportRequestsList() {
  const drawer = useDrawerRoute(PATH);
  const { tableProps, filters, setFilters, sorters } = useResourceTable<SupportRequest>(
    "support-requests",
    { field: "createdAt", order: "desc" },
    {
      meta: { apiPath: apiPaths["support-requests"].list },
    },
  );
  return (
    <PageFrame title="Onboarding vehicles" subtitle="Requests for vehicles the catalogue does not support yet">
      <Flex gap={8}>
        <ListSearch filters={filters} setFilters={setFilters} placeholder="Search VIN, make, model" />
      </Flex>
      <Table {...tableProps} rowKey="id" size="middle" aria-label="Support requests">
        <Table.Column
          dataIndex="createdAt"
          title="Asked"
          sorter
          defaultSortOrder={getDefaultSortOrder("createdAt", sorters)}
          render={(at: string, r: SupportRequest) => (
            <Button type="link" style={{ padding: 0 }} onClick={() => drawer.show(r.id)}>
              {new Date(at).toLocaleDateString()}
            </Button>
          )}
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
        <Table.Column dataIndex="make" title="Make" sorter {...exactFilter("make", "Make", filters)} />
        <Table.Column dataIndex="model" title="Model" {...exactFilter("model", "Model", filters)} />
        <Table.Column dataIndex="year" title="Year" sorter />
        <Table.Column dataIndex="vin" title="VIN" />
        <Table.Column dataIndex="requesterEmail" title="Asked by" />
      </Table>
      <RouteDrawer open={drawer.action === "show"} title="Support request" onClose={drawer.close}>
        {drawer.id && <AdminSupportRequestShow id={drawer.id} />}
      </RouteDrawer>
    </PageFrame>
  );
}
