/** Vehicles in a server-paged table (URL-synced), searched by VIN, nickname and, for admins, owner. */
import { Table } from "antd";
import type { FlashResult } from "../../../contracts/flash-logs";
import type { Vehicle } from "../../../contracts/user-vehicles";
import { Link } from "../link";
import { ListSearch } from "../resource/list-search";
import { useResourceTable } from "../resource/use-resource-table";
import { FlashResultTag } from "./flash-result-tag";
import { SupportTag } from "./vehicle-summary";

export function VehicleTable({ resource, linkTo, searchPlaceholder }: { resource: "managed-devices" | "user-devices"; linkTo: (vehicle: Vehicle) => string; searchPlaceholder: string }) {
  const { tableProps, filters, setFilters } = useResourceTable<Vehicle>(resource, { field: "name", order: "asc" });
  return (
    <>
      <ListSearch filters={filters} setFilters={setFilters} placeholder={searchPlaceholder} />
      <Table
        {...tableProps}
        rowKey="id"
        aria-label="Vehicles"
        style={{ marginTop: 12 }}
        columns={[
          { dataIndex: "name", title: "Vehicle", sorter: true, render: (name: string, vehicle: Vehicle) => <Link to={linkTo(vehicle)}>{name}</Link> },
          { dataIndex: "vin", title: "VIN", sorter: true },
          { key: "owner", title: "Owner", render: (_, vehicle: Vehicle) => vehicle.ownerName ?? vehicle.ownerEmail ?? vehicle.ownerUid },
          { dataIndex: "firmwareId", title: "Firmware", sorter: true, render: (v: string | null) => v ?? "unknown" },
          { key: "support", title: "Support", render: (_, vehicle: Vehicle) => <SupportTag vehicle={vehicle} /> },
          { key: "flash", title: "Last flash", render: (_, vehicle: Vehicle) => (vehicle.lastFlash ? <FlashResultTag result={vehicle.lastFlash.result as FlashResult} /> : "none") },
          { dataIndex: "lastConnectedAt", title: "Last connected", sorter: true, render: (v: string | null) => (v ? new Date(v).toLocaleString() : "never") },
        ]}
      />
    </>
  );
}
