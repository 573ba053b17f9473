/** Vehicles in a server-paged table (URL-synced), searched by VIN, nickname and, for admins, owner. */
import { Button, Table, Tag, Typography } from "antd";
import { apiRoutes } from "../../../contracts/api-paths";
import type { FlashResult } from "../../../contracts/flash-logs";
import type { Vehicle } from "../../../contracts/user-vehicles";
import { Link } from "../link";
import { ListSearch } from "../resource/list-search";
import { useResourceTable } from "../resource/use-resource-table";
import { FlashResultTag } from "./flash-result-tag";
import { SupportTag } from "./vehicle-summary";

const when = (at: string | null) => (at ? new Date(at).toLocaleString() : "never");

export function VehicleTable({
  view,
  linkTo,
  searchPlaceholder,
}: {
  /** Which of the vehicles' lists: the dealer's managed cars, or every car (admins). */
  view: "managed" | "admin";
  linkTo: (vehicle: Vehicle) => string;
  searchPlaceholder: string;
}) {
  const { tableProps, filters, setFilters } = useResourceTable<Vehicle>(
    "user-vehicles",
    { field: "name", order: "asc" },
    view === "managed" ? { meta: { apiPath: apiRoutes.vehicles.managed() } } : {},
  );
  // Every car of the system (admins): the owner leads to their account, and a list can be narrowed to one owner.
  const admin = view === "admin";
  const ownerFilter = filters.find(
    (filter) => "field" in filter && filter.field === "ownerUid" && filter.operator === "eq",
  );
  const ownerShown = (vehicle: Vehicle) => vehicle.ownerEmail ?? vehicle.ownerName ?? vehicle.ownerUid;
  return (
    <>
      <ListSearch filters={filters} setFilters={setFilters} placeholder={searchPlaceholder} />
      {admin && ownerFilter && "value" in ownerFilter && ownerFilter.value && (
        <Tag
          closable
          style={{ marginTop: 12 }}
          onClose={() => setFilters([{ field: "ownerUid", operator: "eq", value: undefined }], "merge")}
          data-testid="owner-filter"
        >
          Owner: {tableProps.dataSource?.[0] ? ownerShown(tableProps.dataSource[0]) : String(ownerFilter.value)}
        </Tag>
      )}
      <Table
        {...tableProps}
        rowKey="id"
        aria-label="Vehicles"
        style={{ marginTop: 12 }}
        scroll={{ x: "max-content" }}
        columns={[
          {
            dataIndex: "name",
            title: "Vehicle",
            sorter: true,
            render: (name: string, vehicle: Vehicle) => <Link to={linkTo(vehicle)}>{name}</Link>,
          },
          { dataIndex: "vin", title: "VIN", sorter: true },
          {
            key: "owner",
            title: "Owner",
            render: (_, vehicle: Vehicle) =>
              admin ? (
                <span>
                  <Link to={`/admin/users/${encodeURIComponent(vehicle.ownerUid)}`}>{ownerShown(vehicle)}</Link>{" "}
                  <Button
                    type="link"
                    size="small"
                    aria-label={`Only the vehicles of ${ownerShown(vehicle)}`}
                    onClick={() =>
                      setFilters(
                        [
                          { field: "ownerUid", operator: "eq", value: vehicle.ownerUid },
                          { field: "q", operator: "contains", value: undefined },
                        ],
                        "merge",
                      )
                    }
                  >
                    (all theirs)
                  </Button>
                </span>
              ) : (
                ownerShown(vehicle)
              ),
          },
          ...(admin
            ? [
                {
                  key: "ecu",
                  title: "ECU",
                  render: (_: unknown, vehicle: Vehicle) => (
                    <Typography.Text type={vehicle.ecu.softwareId ? undefined : "secondary"}>
                      {vehicle.ecu.softwareId ?? "not read"}
                      {vehicle.ecu.ecuSerial && (
                        <Typography.Text type="secondary"> · {vehicle.ecu.ecuSerial}</Typography.Text>
                      )}
                    </Typography.Text>
                  ),
                },
              ]
            : []),
          { dataIndex: "firmwareId", title: "Firmware", sorter: true, render: (v: string | null) => v ?? "unknown" },
          { key: "support", title: "Support", render: (_, vehicle: Vehicle) => <SupportTag vehicle={vehicle} /> },
          {
            key: "flash",
            title: "Last flash",
            render: (_, vehicle: Vehicle) =>
              vehicle.lastFlash ? <FlashResultTag result={vehicle.lastFlash.result as FlashResult} /> : "none",
          },
          { dataIndex: "lastConnectedAt", title: "Last seen", sorter: true, render: when },
          ...(admin
            ? [{ dataIndex: "createdAt", title: "Added", sorter: true, render: (at: string) => when(at) }]
            : []),
        ]}
      />
    </>
  );
}
